// Which loops specializeToLaunch unrolls: small ones, and large barrier loops only when the encoder's
// shared-iteration form could not take them (ledger rows 28, 28a).
#include "clcapture/model/LaunchSpecializer.h"
#include "frontend/FrontendTestSupport.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>

using namespace clcapture;

namespace {

/// The loops left in the kernel once it is specialised to a 1-D launch of 64 work-items in groups of 16.
unsigned loopsLeft(const std::string &source) {
  frontend::CompiledKernel kernel = test::compileAndNormalize(test::kernelRequest(source));
  model::LaunchConfig launch;
  launch.globalSize = {64, 1, 1};
  launch.localSize = std::array<std::uint64_t, 3>{16, 1, 1};
  model::specializeToLaunch(kernel.entry(), launch, model::SpecializeOptions{});
  llvm::DominatorTree dominators(kernel.entry());
  llvm::LoopInfo loops(dominators);
  return static_cast<unsigned>(loops.getLoopsInPreorder().size());
}

// 64 iterations of a body with 16 unrolled copies of a load and store on each side of the barriers: about
// 20,000 instructions unrolled.
const char *kTiles = R"(
kernel void k(global const float *in, global float *out) {
  local float tile[16 * 17];
  int l = get_local_id(0), g = get_global_id(0);
  for (int y = 0; y < 1024; y += 16) {
    for (int i = 0; i < 16; i++)
      tile[i * 17 + l] = in[(y + i) * 64 + g] * 2.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < 16; i++)
      out[(y + l) * 64 + g + i] = tile[l * 17 + i];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
)";

} // namespace

TEST_CASE("a large barrier loop stays a loop for the shared-iteration encoding", "[model]") {
  CHECK(loopsLeft(kTiles) == 1);
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
  std::string branch = kTiles;
  std::string from = "    barrier(CLK_LOCAL_MEM_FENCE);\n  }";
  branch.replace(branch.find(from), from.size(), "    if (y > 512)\n      barrier(CLK_LOCAL_MEM_FENCE);\n  }");
  CHECK(loopsLeft(branch) == 0);
}
