// KernelEncoding::checkDivergence asked directly, and the shared-iteration encoding of a barrier loop whose
// trip count is a captured scalar too large to unroll (docs/semantics.md row 28).
#include "encode/EncodeTestSupport.h"

using namespace clcapture;
using namespace clcapture::test;
using encode::MemorySpace;
using encode::Scope;

namespace {

/// barrier_loop_open_trip{,_race}.cl (tests/kernels/loops/): with `endBarrier`, a second barrier ends each
/// iteration before the next write.
std::string rounds(bool endBarrier) {
  return std::string(R"(
kernel void rounds(global int *out, int n) {
  local int s[8];
  size_t l = get_local_id(0);
  int acc = 0;
  for (int t = 0; t < n; ++t) {
    s[l] = t + (int)l;
    barrier(CLK_LOCAL_MEM_FENCE);
    acc += s[(l + 1) % 8];
)") + (endBarrier ? "    barrier(CLK_LOCAL_MEM_FENCE);\n" : "") +
         R"(  }
  out[get_global_id(0)] = acc;
}
)";
}

/// rounds() for a captured trip count of 1000 (past SpecializeOptions::maxUnrollTripCount).
EncodedKernel roundsLoop(bool endBarrier) {
  return encodeKernel(rounds(endBarrier), launch1D(16, 8, {bufferArgument(1), intArgument(1000)}), "rounds");
}

} // namespace

TEST_CASE("divergence: a barrier only low local ids reach diverges", "[encode]") {
  EncodedKernel e = encodeKernel(R"(
kernel void k(global int *a) {
  if (get_local_id(0) < 2)
    barrier(CLK_LOCAL_MEM_FENCE);
  a[get_global_id(0)] = 1;
}
)",
                                 launch1D(16, 8, {bufferArgument(1)}));
  REQUIRE(e->barriers().size() == 1);
  CHECK(e->barriers()[0].function == "barrier");
  encode::QueryOutcome divergence = e->checkDivergence(e->barriers()[0].id);
  REQUIRE(divergence.status == Status::Sat);
  CHECK(divergence.exact);
  REQUIRE(divergence.divergence);
  const encode::DivergenceWitness &w = *divergence.divergence;
  CHECK_FALSE(w.differentArguments);
  CHECK(w.a.group[0] == w.b.group[0]);
  // A reaches the barrier, B does not.
  CHECK(w.a.local[0] < 2);
  CHECK(w.b.local[0] >= 2);
  CHECK(w.b.local[0] < 8);
}

TEST_CASE("divergence: a barrier under a condition uniform in the group does not diverge", "[encode]") {
  EncodedKernel e = encodeKernel(R"(
kernel void k(global int *a, int n) {
  if (get_group_id(0) < 1 && n > 2)
    barrier(CLK_LOCAL_MEM_FENCE);
  a[get_global_id(0)] = 1;
}
)",
                                 launch1D(16, 8, {bufferArgument(1), openArgument()}));
  REQUIRE(e->barriers().size() == 1);
  CHECK(e->checkDivergence(e->barriers()[0].id).status == Status::Unsat);
}

TEST_CASE("barrier loop: a captured trip count of 1000 stays a loop, race-free with the barrier ending "
          "each iteration",
          "[encode]") {
  EncodedKernel e = roundsLoop(true);
  // Not unrolled: one site per source access and barrier.
  REQUIRE(e->barriers().size() == 2);
  std::vector<unsigned> writes = writesTo(*e, MemorySpace::Local);
  std::vector<unsigned> reads = readsOf(*e, MemorySpace::Local);
  REQUIRE(writes.size() == 1);
  REQUIRE(reads.size() == 1);
  CHECK(e->checkRace(writes, reads, Scope::SameGroup).status == Status::Unsat);
  CHECK(e->checkRace(writes, writes, Scope::SameGroup).status == Status::Unsat);
  for (const encode::BarrierSite &barrier : e->barriers())
    CHECK(e->checkDivergence(barrier.id).status == Status::Unsat);
}

TEST_CASE("barrier loop: without the barrier ending each iteration, the read meets the next write",
          "[encode]") {
  EncodedKernel e = roundsLoop(false);
  REQUIRE(e->barriers().size() == 1);
  std::vector<unsigned> writes = writesTo(*e, MemorySpace::Local);
  std::vector<unsigned> reads = readsOf(*e, MemorySpace::Local);
  REQUIRE(writes.size() == 1);
  REQUIRE(reads.size() == 1);
  encode::QueryOutcome race = e->checkRace(writes, reads, Scope::SameGroup);
  REQUIRE(race.status == Status::Sat);
  CHECK(race.exact);
  REQUIRE(race.race);
  const encode::RaceWitness &w = *race.race;
  CHECK(w.object == "s");
  CHECK(w.a.group[0] == w.b.group[0]);
  CHECK(w.a.local[0] == (w.b.local[0] + 1) % 8);
  CHECK(w.offsetA == 4 * w.a.local[0]);
  CHECK(w.offsetB == w.offsetA);
  CHECK(e->checkDivergence(e->barriers()[0].id).status == Status::Unsat);
}
