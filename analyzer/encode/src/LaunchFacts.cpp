//===- LaunchFacts.cpp - Uniform reads, counters, exclusive successes ----===//

#include "LaunchFacts.h"

#include "SolverQuery.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

namespace clcapture::encode::detail {

bool oneWorkItemPerGroup(const model::LaunchConfig &l) {
  if (!l.localSize)
    return false;
  for (unsigned d = 0; d < l.workDim && d < 3; ++d)
    if ((*l.localSize)[d] != 1)
      return false;
  return true;
}

bool oneWorkItem(const model::LaunchConfig &l) {
  for (unsigned d = 0; d < l.workDim && d < 3; ++d)
    if (l.globalSize[d] != 1)
      return false;
  return true;
}

void stateUniformReads(EncodingState &s) {
  TermFactory &tf = s.tf;
  bool alone = oneWorkItemPerGroup(s.launch);
  for (std::size_t id = 0; id < s.sites.size() && id < s.records[0].size() && id < s.records[1].size();
       ++id) {
    const AccessRecord &a = s.records[0][id], &b = s.records[1][id];
    if (!a.present || !b.present || a.loaded.isNull() || b.loaded.isNull() ||
        a.loaded.getSort() != b.loaded.getSort() || s.sites[id].collective ||
        s.sites[id].space == MemorySpace::Private) // each work-item's own memory
      continue;
    bool local = s.sites[id].space == MemorySpace::Local;
    if (local && alone)
      continue; // never both in one group: the fact would be vacuous, and its reach terms are large
    cvc5::Term together =
        tf.land(s.sameGroup, local ? tf.eq(a.localEpoch, b.localEpoch) : tf.eq(a.globalEpoch, b.globalEpoch));
    if (!local)
      together = tf.lor(together, tf.lnot(s.sameGroup));
    cvc5::Term samePlace =
        tf.land(tf.eq(a.pointer.object, b.pointer.object), tf.eq(a.pointer.offset, b.pointer.offset));
    cvc5::Term both = tf.land(tf.land(a.reach, b.reach), tf.land(samePlace, together));
    s.solver.assertFormula(tf.lor(tf.lnot(both), tf.eq(a.loaded, b.loaded)));
  }
}

void stateCounterFacts(EncodingState &s) {
  TermFactory &tf = s.tf;
  // object → the one step its counters add; 0 when they add different steps or anything else writes it
  std::map<std::uint64_t, std::uint64_t> stepOf;
  std::map<std::uint64_t, std::uint64_t> sitesOn; // object → counter call sites (of work-item A)
  std::set<unsigned> counterSites;
  for (const CounterResult &c : s.counterResults[0])
    counterSites.insert(c.site);
  for (const CounterResult &c : s.counterResults[0]) {
    if (!c.object.isBitVectorValue())
      return; // which memory is counted depends on control flow: say nothing
    std::uint64_t object = std::stoull(c.object.getBitVectorValue(10));
    auto [it, added] = stepOf.emplace(object, c.step);
    if ((!added && it->second != c.step) || c.inLoop) // mixed steps; an unbounded number of additions
      it->second = 0;
    ++sitesOn[object];
  }
  for (unsigned t = 0; t < 2; ++t)
    for (std::size_t id = 0; id < s.records[t].size(); ++id) {
      const AccessRecord &r = s.records[t][id];
      if (!r.present || !s.sites[id].writes || counterSites.count(static_cast<unsigned>(id)))
        continue;
      if (!r.pointer.object.isBitVectorValue()) {
        for (auto &[object, step] : stepOf)
          step = 0; // a write anywhere: no counter is known to be left alone
        continue;
      }
      std::uint64_t object = std::stoull(r.pointer.object.getBitVectorValue(10));
      auto it = stepOf.find(object);
      if (it == stepOf.end())
        continue;
      // A counter of one group (local memory, or work-group scope) may be set in another barrier
      // interval (of its memory's fence): `if (lid == 0) n = 0; barrier(…); atomic_inc(&n)`. Such a write
      // is ordered before or after all of the group's counting.
      bool local = s.sites[id].space == MemorySpace::Local;
      const cvc5::Term &epoch = local ? r.localEpoch : r.globalEpoch;
      bool apart = epoch.isBitVectorValue();
      for (const CounterResult &c : s.counterResults[t])
        if (c.object.isBitVectorValue() && std::stoull(c.object.getBitVectorValue(10)) == object)
          apart = apart && c.groupScoped && c.epoch.isBitVectorValue() && c.epoch != epoch;
      if (!apart)
        it->second = 0;
    }
  if (s.anyObjectMayBeWritten)
    return;
  std::uint64_t items = 1;
  for (unsigned d = 0; d < 3; ++d)
    items *= std::max<std::uint64_t>(s.launch.globalSize[d], 1);
  for (const CounterResult &a : s.counterResults[0])
    for (const CounterResult &b : s.counterResults[1]) {
      std::uint64_t object = std::stoull(a.object.getBitVectorValue(10));
      if (!b.object.isBitVectorValue() || stepOf[object] == 0 || a.step != stepOf[object] ||
          b.step != stepOf[object] || a.value.getSort() != b.value.getSort())
        continue;
      unsigned width = a.value.getSort().getBitVectorSize();
      unsigned zeros = 0;
      while (zeros < 64 && ((a.step >> zeros) & 1) == 0)
        ++zeros;
      unsigned period = width > zeros ? width - zeros : 0; // values repeat after 2^period additions
      // N = items × sites ≤ 2^period, computed without overflow.
      std::uint64_t sites = sitesOn[object];
      bool noWrap = period >= 64 || (items <= ((std::uint64_t{1} << period) / sites));
      if (!noWrap)
        continue;
      cvc5::Term same =
          tf.land(tf.land(a.reach, b.reach), tf.land(tf.eq(a.object, b.object), tf.eq(a.offset, b.offset)));
      if (a.groupScoped || b.groupScoped)
        same = tf.land(same, s.sameGroup);
      s.solver.assertFormula(tf.lor(tf.lnot(same), tf.lnot(tf.eq(a.value, b.value))));
    }
}

void stateExclusiveSuccesses(EncodingState &s) {
  TermFactory &tf = s.tf;
  if (s.anyObjectMayBeWritten || s.compareExchanges[0].empty())
    return;
  bool alone = oneWorkItemPerGroup(s.launch);
  auto constant = [](const cvc5::Term &t) { return t.isBitVectorValue(); };
  for (const CompareExchange &a : s.compareExchanges[0]) {
    if (a.inLoop || !constant(a.object) || (a.local && (alone || !constant(a.epoch))))
      continue;
    std::uint64_t object = constantOf(a.object);
    bool alonePerInterval = true;
    for (unsigned t = 0; t < 2 && alonePerInterval; ++t)
      for (std::size_t id = 0; id < s.records[t].size(); ++id) {
        const AccessRecord &r = s.records[t][id];
        if (!r.present || !s.sites[id].writes || id == a.site)
          continue;
        if (!constant(r.pointer.object)) {
          alonePerInterval = false; // a write to memory that depends on control flow
          break;
        }
        if (constantOf(r.pointer.object) != object)
          continue;
        // Local memory: a write in another barrier interval is ordered before or after every call here.
        if (!a.local || !constant(r.localEpoch) || r.localEpoch == a.epoch) {
          alonePerInterval = false;
          break;
        }
      }
    if (!alonePerInterval)
      continue;
    for (const CompareExchange &b : s.compareExchanges[1]) {
      if (b.site != a.site || a.expected.getSort() != b.expected.getSort())
        continue;
      cvc5::Term together =
          tf.land(tf.land(a.reach, b.reach), tf.land(tf.eq(a.object, b.object), tf.eq(a.offset, b.offset)));
      if (a.local)
        together = tf.land(together, tf.land(s.sameGroup, tf.eq(a.epoch, b.epoch)));
      cvc5::Term differ = tf.land(together, tf.lnot(tf.eq(a.expected, b.expected)));
      std::string label = "uniform expected value of the atomic_cmpxchg at site " + std::to_string(a.site);
      if (ask(s, tf.land(s.distinct, differ), label).status != QueryOutcome::Status::Unsat)
        continue;
      cvc5::Term changes = tf.land(tf.land(a.success, tf.lnot(tf.eq(a.desired, a.expected))),
                                   tf.land(b.success, tf.lnot(tf.eq(b.desired, b.expected))));
      s.solver.assertFormula(tf.lnot(tf.land(together, changes)));
    }
  }
}

void guardCounterResults(EncodingState &s) {
  TermFactory &tf = s.tf;
  for (unsigned t = 0; t < 2; ++t)
    for (const CounterResult &c : s.counterResults[t]) {
      if (!c.exactWithGuard)
        continue;
      cvc5::Term realisable = tf.boolean(true);
      for (const CounterResult &o : s.counterResults[1 - t]) {
        if (o.site != c.site)
          continue;
        cvc5::Term shared = tf.land(o.reach, tf.land(tf.eq(o.object, c.object), tf.eq(o.offset, c.offset)));
        if (c.groupScoped || o.groupScoped)
          shared = tf.land(shared, s.sameGroup);
        cvc5::Term step = tf.constant(c.value.getSort().getBitVectorSize(), c.step);
        cvc5::Term apart =
            tf.lor(tf.eq(o.value, tf.add(c.value, step)), tf.eq(c.value, tf.add(o.value, step)));
        realisable = tf.land(realisable, tf.lor(tf.lnot(shared), apart));
      }
      s.guards[t].push_back(WitnessGuard{tf.land(c.reach, tf.lnot(realisable)), c.what});
    }
}

} // namespace clcapture::encode::detail
