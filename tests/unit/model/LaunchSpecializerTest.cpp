// Which loops specializeToLaunch unrolls: small ones, and large barrier loops only when the encoder's
// shared-iteration form could not take them (ledger rows 28, 28a).
#include "clcapture/model/LaunchSpecializer.h"

#include "frontend/FrontendTestSupport.h"

#include <fstream>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>
#include <sstream>

using namespace clcapture;

namespace {

/// The loops left in the kernel once it is specialised to a 1-D launch of 64 work-items in groups of 16.
unsigned loopsLeft(const std::string &source, const std::string &entry = "k") {
  frontend::CompiledKernel kernel = test::compileAndNormalize(test::kernelRequest(source, entry));
  model::LaunchConfig launch;
  launch.globalSize = {64, 1, 1};
  launch.localSize = std::array<std::uint64_t, 3>{16, 1, 1};
  model::specializeToLaunch(kernel.entry(), launch, model::SpecializeOptions{});
  llvm::DominatorTree dominators(kernel.entry());
  llvm::LoopInfo loops(dominators);
  return static_cast<unsigned>(loops.getLoopsInPreorder().size());
}

/// The corpus kernel loops/tiled_barrier_loop.cl (its verdict is checked there): 64 iterations of a body
/// with 16 unrolled copies of a load and store on each side of the barriers, about 20,000 instructions
/// unrolled.
std::string tiles() {
  std::ifstream in(CLCAPTURE_KERNELS_DIR "/loops/tiled_barrier_loop.cl");
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace

TEST_CASE("a large barrier loop stays a loop for the shared-iteration encoding", "[model]") {
  CHECK(loopsLeft(tiles(), "tiles") == 1);
}

TEST_CASE("a small barrier loop is unrolled", "[model]") {
  CHECK(loopsLeft(R"(
kernel void k(local int *s, global int *out) {
  int l = get_local_id(0);
  for (int d = 8; d > 0; d >>= 1) {
    if (l < d)
      s[l] += s[l + d];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_group_id(0)] = s[0];
}
)") == 0);
}

TEST_CASE("a large barrier loop the shared-iteration encoding refuses is unrolled", "[model]") {
  // The barrier is in a branch of the body: iterations would span different numbers of intervals.
  std::string branch = tiles();
  std::string from = "    barrier(CLK_LOCAL_MEM_FENCE);\n  }";
  branch.replace(branch.find(from), from.size(),
                 "    if (y > 512)\n      barrier(CLK_LOCAL_MEM_FENCE);\n  }");
  REQUIRE(branch != tiles());
  CHECK(loopsLeft(branch, "tiles") == 0);
}
