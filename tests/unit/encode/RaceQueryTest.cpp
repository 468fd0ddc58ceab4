// KernelEncoding::checkRace asked directly: a known race gives Sat with a witness whose two work-items really
// meet at one byte, its fixed twin gives Unsat.
#include "encode/EncodeTestSupport.h"

using namespace clcapture;
using namespace clcapture::test;
using encode::MemorySpace;
using encode::Scope;

namespace {

/// Global writes of `source`'s kernel k(global int *a), 16 work-items in groups of 8.
EncodedKernel globalWrites(const std::string &source) {
  return encodeKernel(source, launch1D(16, 8, {bufferArgument(1)}));
}

/// The local kernel of the barrier tests: each work-item writes its slot, then reads its neighbour's.
std::string neighbourRead(bool barrier) {
  return std::string(R"(
kernel void k(global int *out) {
  local int s[8];
  size_t l = get_local_id(0);
  s[l] = (int)l;
)") + (barrier ? "  barrier(CLK_LOCAL_MEM_FENCE);\n" : "") +
         R"(  out[get_global_id(0)] = s[(l + 1) % 8];
}
)";
}

/// The solver queries asked so far (each `check-sat-assuming` of the encoding's log).
std::size_t queriesAsked(encode::KernelEncoding &e) {
  std::string log = e.smtLog();
  std::size_t n = 0;
  for (std::size_t at = log.find("check-sat-assuming"); at != std::string::npos;
       at = log.find("check-sat-assuming", at + 1))
    ++n;
  return n;
}

/// A and B are consistent work-items of a 1-D launch in groups of `local`.
void checkIds(const encode::WorkItemIds &w, std::uint64_t local) {
  CHECK(w.global[0] == w.group[0] * local + w.local[0]);
  CHECK(w.local[0] < local);
}

} // namespace

TEST_CASE("race: two work-items writing a[gid / 2] meet at one element", "[encode]") {
  EncodedKernel e =
      globalWrites("kernel void k(global int *a) { a[get_global_id(0) / 2] = get_global_id(0); }");
  std::vector<unsigned> writes = writesTo(*e, MemorySpace::Global);
  REQUIRE(writes.size() == 1);
  REQUIRE(e->groupingIrrelevant(writes, writes));
  encode::QueryOutcome race = e->checkRace(writes, writes, Scope::AnyPair);
  REQUIRE(race.status == Status::Sat);
  CHECK(race.exact);
  REQUIRE(race.race);
  const encode::RaceWitness &w = *race.race;
  CHECK(w.a.global[0] != w.b.global[0]);
  CHECK(w.a.global[0] < 16);
  CHECK(w.b.global[0] < 16);
  CHECK(w.a.global[0] / 2 == w.b.global[0] / 2);
  CHECK(w.offsetA == 4 * (w.a.global[0] / 2));
  CHECK(w.offsetB == 4 * (w.b.global[0] / 2));
  CHECK(w.object == "a");
  checkIds(w.a, 8);
  checkIds(w.b, 8);
  // The two writers store their own ids: different values.
  CHECK(e->checkRace(writes, writes, Scope::AnyPair, true).status == Status::Sat);
}

TEST_CASE("race: a[gid] = 1 is race-free, a[0] = gid races", "[encode]") {
  EncodedKernel fixed = globalWrites("kernel void k(global int *a) { a[get_global_id(0)] = 1; }");
  std::vector<unsigned> fixedWrites = writesTo(*fixed, MemorySpace::Global);
  REQUIRE(fixedWrites.size() == 1);
  CHECK(fixed->checkRace(fixedWrites, fixedWrites, Scope::AnyPair).status == Status::Unsat);

  EncodedKernel racy = globalWrites("kernel void k(global int *a) { a[0] = get_global_id(0); }");
  std::vector<unsigned> writes = writesTo(*racy, MemorySpace::Global);
  REQUIRE(writes.size() == 1);
  encode::QueryOutcome race = racy->checkRace(writes, writes, Scope::AnyPair, true);
  REQUIRE(race.status == Status::Sat);
  CHECK(race.exact);
  REQUIRE(race.race);
  CHECK(race.race->a.global[0] != race.race->b.global[0]);
  CHECK(race.race->offsetA == 0);
  CHECK(race.race->offsetB == 0);
}

TEST_CASE("race: writers of one constant race, but never with different values", "[encode]") {
  EncodedKernel e = globalWrites("kernel void k(global int *a) { a[0] = 7; }");
  std::vector<unsigned> writes = writesTo(*e, MemorySpace::Global);
  REQUIRE(writes.size() == 1);
  CHECK(e->checkRace(writes, writes, Scope::AnyPair).status == Status::Sat);
  CHECK(e->checkRace(writes, writes, Scope::AnyPair, true).status == Status::Unsat);
}

TEST_CASE("race: a local write and a neighbour's read race without the barrier between them", "[encode]") {
  EncodedKernel racy = encodeKernel(neighbourRead(false), launch1D(16, 8, {bufferArgument(1)}));
  std::vector<unsigned> writes = writesTo(*racy, MemorySpace::Local);
  std::vector<unsigned> reads = readsOf(*racy, MemorySpace::Local);
  REQUIRE(writes.size() == 1);
  REQUIRE(reads.size() == 1);
  CHECK(racy->barriers().empty());
  encode::QueryOutcome race = racy->checkRace(writes, reads, Scope::SameGroup);
  REQUIRE(race.status == Status::Sat);
  CHECK(race.exact);
  REQUIRE(race.race);
  const encode::RaceWitness &w = *race.race;
  CHECK(contains(writes, w.siteA));
  CHECK(contains(reads, w.siteB));
  CHECK(w.object == "s");
  CHECK(w.a.group[0] == w.b.group[0]);
  CHECK(w.a.local[0] != w.b.local[0]);
  // A writes s[lA], B reads s[(lB + 1) % 8]: the same slot.
  CHECK(w.a.local[0] == (w.b.local[0] + 1) % 8);
  CHECK(w.offsetA == 4 * w.a.local[0]);
  CHECK(w.offsetB == 4 * ((w.b.local[0] + 1) % 8));
  checkIds(w.a, 8);
  checkIds(w.b, 8);
}

TEST_CASE("race: the barrier between the local write and the read removes the race", "[encode]") {
  EncodedKernel fixed = encodeKernel(neighbourRead(true), launch1D(16, 8, {bufferArgument(1)}));
  std::vector<unsigned> writes = writesTo(*fixed, MemorySpace::Local);
  std::vector<unsigned> reads = readsOf(*fixed, MemorySpace::Local);
  REQUIRE(writes.size() == 1);
  REQUIRE(reads.size() == 1);
  CHECK(fixed->barriers().size() == 1);
  CHECK(fixed->checkRace(writes, reads, Scope::SameGroup).status == Status::Unsat);
  CHECK(fixed->checkRace(writes, writes, Scope::SameGroup).status == Status::Unsat);
}

TEST_CASE("race: a[lid] races between groups only", "[encode]") {
  EncodedKernel e = globalWrites("kernel void k(global int *a) { a[get_local_id(0)] = get_global_id(0); }");
  std::vector<unsigned> writes = writesTo(*e, MemorySpace::Global);
  REQUIRE(writes.size() == 1);
  CHECK(e->checkRace(writes, writes, Scope::SameGroup).status == Status::Unsat);
  encode::QueryOutcome race = e->checkRace(writes, writes, Scope::DifferentGroups);
  REQUIRE(race.status == Status::Sat);
  CHECK(race.exact);
  REQUIRE(race.race);
  const encode::RaceWitness &w = *race.race;
  CHECK(w.a.group[0] != w.b.group[0]);
  CHECK(w.a.local[0] == w.b.local[0]);
  CHECK(w.offsetA == 4 * w.a.local[0]);
  CHECK(w.offsetB == w.offsetA);
  checkIds(w.a, 8);
  checkIds(w.b, 8);
}

TEST_CASE("race: a barrier orders global memory within a group, not between groups", "[encode]") {
  EncodedKernel e = globalWrites(R"(
kernel void k(global int *a) {
  size_t l = get_local_id(0);
  a[l] = 1;
  barrier(CLK_GLOBAL_MEM_FENCE);
  a[8 + l] = a[(l + 1) % 8];
}
)");
  std::vector<unsigned> writes = writesTo(*e, MemorySpace::Global);
  std::vector<unsigned> reads = readsOf(*e, MemorySpace::Global);
  REQUIRE(writes.size() == 2);
  REQUIRE(reads.size() == 1);
  CHECK_FALSE(e->groupingIrrelevant(writes, reads));
  CHECK(e->checkRace(writes, reads, Scope::SameGroup).status == Status::Unsat);
  encode::QueryOutcome race = e->checkRace(writes, reads, Scope::DifferentGroups);
  REQUIRE(race.status == Status::Sat);
  REQUIRE(race.race);
  CHECK(race.race->a.group[0] != race.race->b.group[0]);
  CHECK(race.race->offsetA == race.race->offsetB);
}

TEST_CASE("race: atomics on one counter are atomic sites, and atomics on distinct slots never meet",
          "[encode]") {
  EncodedKernel e = globalWrites(R"(
kernel void k(global int *a) {
  atomic_add(&a[get_global_id(0)], 1);
  atomic_inc(&a[16 + get_global_id(0)]);
}
)");
  std::vector<unsigned> atomics = sitesWhere(*e, [](const encode::AccessSite &s) { return s.atomic; });
  REQUIRE(atomics.size() == 2);
  for (const encode::AccessSite &site : e->accesses())
    if (site.atomic) {
      CHECK(site.writes);
      CHECK(site.space == MemorySpace::Global);
    }
  CHECK(e->checkRace(atomics, atomics, Scope::AnyPair).status == Status::Unsat);

  // The encoder asks whether the accesses meet; that atomics on one counter do not race is the checker's.
  EncodedKernel counter = globalWrites("kernel void k(global int *a) { atomic_inc(&a[0]); }");
  std::vector<unsigned> one = sitesWhere(*counter, [](const encode::AccessSite &s) { return s.atomic; });
  REQUIRE(one.size() == 1);
  CHECK(counter->checkRace(one, one, Scope::AnyPair).status == Status::Sat);
}

TEST_CASE("race: rows whose byte ranges lie apart need no solver query; rows that touch do", "[encode]") {
  // out[k·16 + gid] for 16 work-items: row k covers bytes [64k, 64k + 63]. Row 2 is one element late, so
  // it meets row 3 in one element.
  EncodedKernel e = globalWrites(R"(
kernel void k(global int *a) {
  size_t g = get_global_id(0);
  a[0 * 16 + g] = 0;
  a[1 * 16 + g] = 1;
  a[2 * 16 + g + 1] = 2;
  a[3 * 16 + g] = 3;
})");
  std::vector<unsigned> writes = writesTo(*e, MemorySpace::Global);
  REQUIRE(writes.size() == 4);
  auto queries = [&] { return queriesAsked(*e); };
  CHECK(e->checkRace({writes[0]}, {writes[1]}, Scope::AnyPair).status == Status::Unsat);
  CHECK(e->checkRace({writes[1]}, {writes[2]}, Scope::AnyPair).status == Status::Unsat);
  CHECK(queries() == 0);
  encode::QueryOutcome touching = e->checkRace({writes[2]}, {writes[3]}, Scope::AnyPair);
  CHECK(queries() == 1);
  REQUIRE(touching.status == Status::Sat);
  REQUIRE(touching.race);
  CHECK(touching.race->offsetA == touching.race->offsetB);
  CHECK(touching.race->offsetA == 4 * 48);
}

TEST_CASE("race: the dependence test settles tiles that interleave without a query; a tile one over keeps it",
          "[encode]") {
  // Group g writes a[g·stride + l] for l < 8 (16 work-items in groups of 8): the two groups' byte ranges
  // overlap as intervals (row 34 cannot drop them), but for a stride of 8 no two distinct work-items meet
  // (docs/semantics.md row 36); for a stride of 7, group 0's last and group 1's first do.
  auto outcome = [](unsigned stride, std::size_t &queries) {
    EncodedKernel e =
        globalWrites("kernel void k(global int *a) {\n  a[get_group_id(0) * " + std::to_string(stride) +
                     " + get_local_id(0)] = (int)get_global_id(0);\n}\n");
    std::vector<unsigned> writes = writesTo(*e, MemorySpace::Global);
    REQUIRE(writes.size() == 1);
    encode::QueryOutcome o = e->checkRace(writes, writes, Scope::AnyPair);
    queries = queriesAsked(*e);
    return o;
  };
  std::size_t queries = 0;
  CHECK(outcome(8, queries).status == Status::Unsat);
  CHECK(queries == 0);
  encode::QueryOutcome over = outcome(7, queries);
  CHECK(queries == 1);
  REQUIRE(over.status == Status::Sat);
  REQUIRE(over.race);
  CHECK(over.race->offsetA == 4 * 7);
}

TEST_CASE("race: the dependence test decides over the integers where interval bounds cannot", "[encode]") {
  // Group g writes a[g·stride + 7·l] (l < 8, two groups): the rows overlap as intervals ([0, 49] and
  // [stride, stride + 49]) and, per direction, 40 + 7·(l₁ − l₀) ranges over [−9, 89], which holds 0. But
  // 40 = 7·k has no integer k: no query. At a stride of 42, work-item 6 of group 0 and work-item 0 of
  // group 1 meet, and the search must keep the pair.
  auto outcome = [](unsigned stride, std::size_t &queries) {
    EncodedKernel e =
        globalWrites("kernel void k(global int *a) {\n  a[get_group_id(0) * " + std::to_string(stride) +
                     " + 7 * get_local_id(0)] = (int)get_global_id(0);\n}\n");
    std::vector<unsigned> writes = writesTo(*e, MemorySpace::Global);
    REQUIRE(writes.size() == 1);
    encode::QueryOutcome o = e->checkRace(writes, writes, Scope::AnyPair);
    queries = queriesAsked(*e);
    return o;
  };
  std::size_t queries = 0;
  CHECK(outcome(40, queries).status == Status::Unsat);
  CHECK(queries == 0);
  encode::QueryOutcome meets = outcome(42, queries);
  CHECK(queries == 1);
  REQUIRE(meets.status == Status::Sat);
  REQUIRE(meets.race);
  CHECK(meets.race->offsetA == meets.race->offsetB);
  CHECK(meets.race->a.group[0] != meets.race->b.group[0]);
}

TEST_CASE("race: the dependence test keeps a pair's two ids linked when it fixes one", "[encode]") {
  // Work-item l writes a[20·l] and reads a[l + c]. For c = 21, 20·x − y = 21 needs y = 19 (x = 2) or y = −1
  // (x = 1): outside [0, 15], so no query. For c = 20, work-item 0 reads a[20], which work-item 1 writes.
  auto outcome = [](unsigned c, std::size_t &queries) {
    EncodedKernel e =
        encodeKernel("kernel void k(global int *a) {\n  size_t l = get_local_id(0);\n  int v = a[l + " +
                         std::to_string(c) + "];\n  a[20 * l] = v;\n}\n",
                     launch1D(16, 16, {bufferArgument(1)}));
    std::vector<unsigned> writes = writesTo(*e, MemorySpace::Global),
                          reads = readsOf(*e, MemorySpace::Global);
    REQUIRE(writes.size() == 1);
    REQUIRE(reads.size() == 1);
    encode::QueryOutcome o = e->checkRace(reads, writes, Scope::AnyPair);
    queries = queriesAsked(*e);
    return o;
  };
  std::size_t queries = 0;
  CHECK(outcome(21, queries).status == Status::Unsat);
  CHECK(queries == 0);
  encode::QueryOutcome meets = outcome(20, queries);
  CHECK(queries == 1);
  REQUIRE(meets.status == Status::Sat);
  REQUIRE(meets.race);
  CHECK(meets.race->a.local[0] == 0);
  CHECK(meets.race->b.local[0] == 1);
}

TEST_CASE("race: a same-group query fixes the group ids equal; a different-groups one needs them apart",
          "[encode]") {
  // s[l] in local memory: within one group only the same work-item writes one slot. The group ids are not
  // in the address, but the same-group query makes them equal, so the all-equal local direction is the
  // same work-item: no query.
  EncodedKernel local = encodeKernel(neighbourRead(true), launch1D(16, 8, {bufferArgument(1)}));
  std::vector<unsigned> slots = writesTo(*local, MemorySpace::Local);
  REQUIRE(slots.size() == 1);
  CHECK(local->checkRace(slots, slots, Scope::SameGroup).status == Status::Unsat);
  CHECK(queriesAsked(*local) == 0);
  // a[g·8 + l]: work-items of different groups never meet (no query); a[l]: they do.
  EncodedKernel apart =
      globalWrites("kernel void k(global int *a) { a[get_group_id(0) * 8 + get_local_id(0)] = 1; }");
  std::vector<unsigned> rows = writesTo(*apart, MemorySpace::Global);
  CHECK(apart->checkRace(rows, rows, Scope::DifferentGroups).status == Status::Unsat);
  CHECK(queriesAsked(*apart) == 0);
  EncodedKernel shared = globalWrites("kernel void k(global int *a) { a[get_local_id(0)] = 1; }");
  std::vector<unsigned> same = writesTo(*shared, MemorySpace::Global);
  CHECK(shared->checkRace(same, same, Scope::DifferentGroups).status == Status::Sat);
}
