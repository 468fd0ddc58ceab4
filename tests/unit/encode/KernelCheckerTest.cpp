// check::checkKernel over an encoded launch: a racy kernel gives its finding, its fixed twin none.
#include "clcapture/check/KernelChecker.h"

#include "encode/EncodeTestSupport.h"

#include <sstream>

using namespace clcapture;
using namespace clcapture::test;

namespace {

/// `source` line by line, as the checker quotes it.
check::CheckContext contextFor(const std::string &source) {
  check::CheckContext context;
  context.kernelFile = "kernels/k.cl";
  std::istringstream in(source);
  for (std::string line; std::getline(in, line);)
    context.sourceLines.push_back(line);
  return context;
}

check::CheckOutcome checkSource(const std::string &source) {
  EncodedKernel e = encodeKernel(source, launch1D(16, 8, {bufferArgument(1)}));
  return check::checkKernel(*e, contextFor(source));
}

const char *const kNeighbourRace = R"(kernel void k(global int *out) {
  local int s[8];
  size_t l = get_local_id(0);
  s[l] = (int)l;
  out[get_global_id(0)] = s[(l + 1) % 8];
}
)";

} // namespace

TEST_CASE("checker: a local write-read race without a barrier is one finding with its witness", "[check]") {
  check::CheckOutcome outcome = checkSource(kNeighbourRace);
  CHECK(outcome.undecided.empty());
  CHECK(outcome.benignIfAny.empty());
  CHECK_FALSE(outcome.timedOut);
  CHECK(outcome.queries > 0);
  REQUIRE(outcome.findings.size() == 1);
  const report::Finding &f = outcome.findings[0];
  CHECK(f.kind == report::FindingKind::DataRace);
  CHECK(f.memory == report::AddressSpace::Local);
  CHECK(f.array == "s");
  CHECK_FALSE(f.benign);
  bool writeRead = f.conflict == report::Conflict::WriteRead || f.conflict == report::Conflict::ReadWrite;
  CHECK(writeRead);
  // The two work-items are of one group and touch one slot: line 4 writes s[l], line 5 reads s[(l + 1) % 8].
  const report::Access &write = f.conflict == report::Conflict::WriteRead ? f.accesses[0] : f.accesses[1];
  const report::Access &read = f.conflict == report::Conflict::WriteRead ? f.accesses[1] : f.accesses[0];
  CHECK(write.location.file == "kernels/k.cl");
  CHECK(write.location.line == 4);
  CHECK(read.location.line == 5);
  CHECK(write.source == "s[l] = (int)l;"); // trimmed
  CHECK(write.workItem.groupId[0] == read.workItem.groupId[0]);
  CHECK(write.workItem.localId[0] == (read.workItem.localId[0] + 1) % 8);
  CHECK(f.bytes[0] == 4 * write.workItem.localId[0]);
  CHECK(f.bytes[1] == f.bytes[0] + 3);
}

TEST_CASE("checker: the same kernel with a barrier between write and read has no finding", "[check]") {
  std::string fixed = kNeighbourRace;
  std::string read = "  out[get_global_id(0)]";
  fixed.insert(fixed.find(read), "  barrier(CLK_LOCAL_MEM_FENCE);\n");
  check::CheckOutcome outcome = checkSource(fixed);
  CHECK(outcome.findings.empty());
  CHECK(outcome.undecided.empty());
  CHECK(outcome.benignIfAny.empty());
  CHECK_FALSE(outcome.timedOut);
  // One divergence query for the barrier, at least one race query for the local pair.
  CHECK(outcome.queries >= 2);
}

TEST_CASE("checker: atomics on one counter are no race, a plain read of it is", "[check]") {
  check::CheckOutcome atomics = checkSource("kernel void k(global int *a) {\n  atomic_inc(&a[0]);\n}\n");
  CHECK(atomics.findings.empty());
  CHECK(atomics.undecided.empty());

  check::CheckOutcome mixed = checkSource(
      "kernel void k(global int *a) {\n  atomic_inc(&a[0]);\n  a[1 + get_global_id(0)] = a[0];\n}\n");
  CHECK(mixed.undecided.empty());
  REQUIRE(mixed.findings.size() == 1);
  const report::Finding &f = mixed.findings[0];
  CHECK(f.kind == report::FindingKind::DataRace);
  bool atomicRead = f.conflict == report::Conflict::AtomicRead || f.conflict == report::Conflict::ReadAtomic;
  CHECK(atomicRead);
  CHECK(f.array == "a");
  CHECK(f.accesses[0].workItem.globalId[0] != f.accesses[1].workItem.globalId[0]);
}

TEST_CASE("checker: a barrier only some work-items of a group reach is a divergence finding", "[check]") {
  check::CheckOutcome outcome =
      checkSource("kernel void k(global int *a) {\n  if (get_local_id(0) < 2)\n"
                  "    barrier(CLK_LOCAL_MEM_FENCE);\n  a[get_global_id(0)] = 1;\n}\n");
  CHECK(outcome.undecided.empty());
  REQUIRE(outcome.findings.size() == 1);
  const report::Finding &f = outcome.findings[0];
  CHECK(f.kind == report::FindingKind::BarrierDivergence);
  CHECK(f.barrier.line == 3);
  CHECK(f.accesses[0].workItem.groupId[0] == f.accesses[1].workItem.groupId[0]);
  CHECK(f.accesses[0].workItem.localId[0] != f.accesses[1].workItem.localId[0]);
}
