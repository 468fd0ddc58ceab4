//===- RaceQuery.cpp - KernelEncoding::checkRace: can two work-items' accesses race? ----===//
//
// checkRace in its steps: the sites each work-item can reach, narrowed to the pairs that can meet in the
// scope (SitePruning.h); one site chosen per work-item (SiteChoice.h); the query (overlap, scope, different
// values); asked with exact sites first; the witness read out of the model (Witnesses.h).
//
//===----------------------------------------------------------------------===//

#include "DistinctTableWords.h"
#include "KernelEncodingImpl.h"
#include "LaunchFacts.h"
#include "SiteChoice.h"
#include "SitePruning.h"
#include "SolverQuery.h"
#include "Witnesses.h"
#include "clcapture/encode/KernelEncoding.h"

#include <optional>
#include <string>
#include <vector>

namespace clcapture::encode {

using namespace detail;

namespace {

/// The sites of `ids` that work-item `t` has a record for.
std::vector<unsigned> presentSites(const EncodingState &s, unsigned t, const std::vector<unsigned> &ids) {
  std::vector<unsigned> present;
  for (unsigned id : ids)
    if (s.records[t][id].present)
      present.push_back(id);
  return present;
}

/// Whether a pair of `a` and `b` may meet in `scope`, after dropping (same group) the sites of barrier
/// intervals the other work-item never has; false when none can, and the query is unsatisfiable unasked.
/// `local`: the sites access local memory.
bool pairsInScope(EncodingState &s, std::vector<unsigned> &a, std::vector<unsigned> &b, Scope scope,
                  bool local) {
  TermFactory &tf = s.tf;
  if (scope == Scope::SameGroup && oneWorkItemPerGroup(s.launch))
    return false; // no two work-items share a group
  if (scope == Scope::SameGroup) {
    dropSitesInOtherIntervals(s, a, b, local);
    if (a.empty() || b.empty())
      return false;
  } else if (scope == Scope::DifferentGroups) {
    // One work-group only: no pair of work-items in different groups (asked once).
    if (!s.severalGroups) {
      cvc5::Result r = s.solver.checkSatAssuming(tf.lnot(s.sameGroup));
      s.severalGroups = !r.isUnsat();
    }
    if (!*s.severalGroups)
      return false;
  }
  return true;
}

/// Comparing values needs every writer's value, all of one width; otherwise nothing is proven benign.
bool valuesComparable(const EncodingState &s, const std::vector<unsigned> &a,
                      const std::vector<unsigned> &b) {
  std::optional<unsigned> width;
  for (unsigned t = 0; t < 2; ++t)
    for (unsigned id : t == 0 ? a : b) {
      const AccessRecord &r = s.records[t][id];
      if (!r.hasValue || !r.value.term.getSort().isBitVector() ||
          (width && *width != r.value.term.getSort().getBitVectorSize()))
        return false;
      width = r.value.term.getSort().getBitVectorSize();
    }
  return true;
}

/// Whether a writer's value is open only because the dependence slice left it out.
bool slicedValues(const EncodingState &s, const std::vector<unsigned> &a, const std::vector<unsigned> &b) {
  for (unsigned t = 0; t < 2; ++t)
    for (unsigned id : t == 0 ? a : b)
      if (s.records[t][id].valueSliced)
        return true;
  return false;
}

/// Whether some site of `a` or `b` is an async copy (a work-group's collective access).
bool anyCollective(const EncodingState &s, const std::vector<unsigned> &a, const std::vector<unsigned> &b) {
  bool copies = false;
  for (unsigned id : a)
    copies = copies || s.sites[id].collective;
  for (unsigned id : b)
    copies = copies || s.sites[id].collective;
  return copies;
}

/// Both work-items reach their chosen sites, and the two accesses overlap in one memory object.
cvc5::Term overlapping(EncodingState &s, const SiteChoice &ca, const SiteChoice &cb,
                       const std::vector<unsigned> &a, const std::vector<unsigned> &b) {
  TermFactory &tf = s.tf;
  cvc5::Term q = tf.land(ca.constraint, cb.constraint);
  q = tf.land(q, tf.land(ca.reach, cb.reach));
  q = tf.land(q, tf.eq(ca.object, cb.object));
  q = tf.land(q, distinctWordFacts(s, a, b)); // implied facts that help the solver (row 13c)
  if (alignedUnit(s, a, b))
    q = tf.land(q, tf.eq(ca.offset, cb.offset)); // aligned units of one size overlap only when they coincide
  else
    q = tf.land(q, tf.land(tf.ult(ca.offset, tf.add(cb.offset, cb.size)),
                           tf.ult(cb.offset, tf.add(ca.offset, ca.size))));
  return q;
}

/// An async copy is the group's, not one work-item's (OpenCL 1.2 §6.12.10). It is ordered before an access
/// only by a wait_group_events on its own event that the access follows — a barrier does not complete it;
/// it is ordered after accesses that a barrier (of the memory's fence) separates from its start; it does
/// not race with itself. Two plain accesses: one barrier interval.
cvc5::Term orderedInGroup(TermFactory &tf, const SiteChoice &ca, const SiteChoice &cb) {
  cvc5::Term zero = tf.constant(64, 0);
  auto completeBefore = [&](const SiteChoice &copy, const SiteChoice &other) {
    return tf.land(copy.collective,
                   tf.lnot(tf.eq(tf.op(cvc5::Kind::BITVECTOR_AND, {copy.tagBit, other.done}), zero)));
  };
  auto startsAfter = [&](const SiteChoice &copy, const SiteChoice &other) {
    return tf.land(tf.land(copy.collective, tf.lnot(other.collective)), tf.ult(other.epoch, copy.epoch));
  };
  cvc5::Term ordered = tf.lor(completeBefore(ca, cb), completeBefore(cb, ca));
  ordered = tf.lor(ordered, tf.lor(startsAfter(ca, cb), startsAfter(cb, ca)));
  ordered = tf.lor(ordered, tf.land(tf.land(ca.collective, cb.collective), tf.eq(ca.siteId, cb.siteId)));
  cvc5::Term plain = tf.land(tf.lnot(ca.collective), tf.lnot(cb.collective));
  ordered = tf.lor(ordered, tf.land(plain, tf.lnot(tf.eq(ca.epoch, cb.epoch))));
  return ordered;
}

/// `q` with the two work-items in `scope`: in one group and unordered there (one barrier interval, or no
/// ordering of an async copy when `ordering`), or in different groups.
cvc5::Term inScope(EncodingState &s, cvc5::Term q, const SiteChoice &ca, const SiteChoice &cb, Scope scope,
                   bool ordering) {
  TermFactory &tf = s.tf;
  if (scope == Scope::SameGroup) {
    q = tf.land(q, s.sameGroup);
    if (!ordering)
      q = tf.land(q, tf.eq(ca.epoch, cb.epoch)); // a barrier of the memory's fence orders plain accesses
    else
      q = tf.land(q, tf.lnot(orderedInGroup(tf, ca, cb)));
  } else if (scope == Scope::DifferentGroups)
    q = tf.land(q, tf.lnot(s.sameGroup));
  return q;
}

/// Same-value writes are benign only when they put the same bytes in the bytes both write: equal values at
/// different offsets (a vstore2 overlapping another by one lane, packed struct fields) do not. Widths are
/// equal (valuesComparable); on a little-endian device, with d = off_B − off_A > 0, A's bytes [d, w) meet
/// B's bytes [0, w − d): (v_A >> 8d) against (v_B << 8d) >> 8d, and the other way round for d < 0.
/// Big-endian: any offset difference counts as different bytes.
cvc5::Term differentBytes(EncodingState &s, const SiteChoice &ca, const SiteChoice &cb) {
  TermFactory &tf = s.tf;
  unsigned width = tf.width(ca.value);
  cvc5::Term differ = tf.lnot(tf.eq(ca.value, cb.value));
  cvc5::Term sameOffset = tf.eq(ca.offset, cb.offset);
  if (s.launch.endianness == format::Endianness::Little) {
    auto shifted = [&](const cvc5::Term &low, const cvc5::Term &high, const cvc5::Term &from,
                       const cvc5::Term &to) {
      cvc5::Term bits =
          tf.resize(tf.mul(tf.op(cvc5::Kind::BITVECTOR_SUB, {to, from}), tf.constant(64, 8)), width, false);
      cvc5::Term lowPart = tf.op(cvc5::Kind::BITVECTOR_LSHR, {low, bits});
      cvc5::Term highPart =
          tf.op(cvc5::Kind::BITVECTOR_LSHR, {tf.op(cvc5::Kind::BITVECTOR_SHL, {high, bits}), bits});
      return tf.lnot(tf.eq(lowPart, highPart));
    };
    cvc5::Term aFirst = tf.ult(ca.offset, cb.offset);
    differ = tf.ite(sameOffset, differ,
                    tf.ite(aFirst, shifted(ca.value, cb.value, ca.offset, cb.offset),
                           shifted(cb.value, ca.value, cb.offset, ca.offset)));
  } else {
    differ = tf.lor(tf.lnot(sameOffset), differ);
  }
  return differ;
}

/// The query's name in the log: its sites, its scope, and whether it compares values.
std::string raceLabel(const std::vector<unsigned> &a, const std::vector<unsigned> &b, Scope scope,
                      bool differentValues) {
  std::string label = "race between access" + std::string(a.size() > 1 ? "es" : "");
  for (unsigned id : a)
    label += " " + std::to_string(id);
  label += " (A) and";
  for (unsigned id : b)
    label += " " + std::to_string(id);
  label += std::string(" (B), ") +
           (scope == Scope::SameGroup         ? "same group"
            : scope == Scope::DifferentGroups ? "different groups"
                                              : "any two work-items") +
           (differentValues ? ", different values" : "");
  return label;
}

/// Asks `q`: a witness through exact sites first; only when there is none, one through an abstraction.
/// `asked` is the query whose model stands.
void askExactFirst(EncodingState &s, const cvc5::Term &q, const SiteChoice &ca, const SiteChoice &cb,
                   const std::string &label, std::optional<long long> budgetMs, QueryOutcome &out,
                   cvc5::Term &asked) {
  TermFactory &tf = s.tf;
  bool mixed = !(ca.allExact && cb.allExact) && !ca.noneExact && !cb.noneExact;
  asked = q;
  if (mixed) {
    asked = tf.land(q, tf.land(ca.exactOnly(tf), cb.exactOnly(tf)));
    out = ask(s, asked, label + ", exact sites only", budgetMs);
    if (out.status == QueryOutcome::Status::Unknown)
      return;
  }
  if (!mixed || out.status == QueryOutcome::Status::Unsat) {
    asked = q;
    out = ask(s, q, label, budgetMs);
  }
}

/// After `asked` was satisfiable: the witness's exactness, kept within the guards and with small open values
/// when it is exact, and the race it shows (out.race); `out` changes as keepWithinGuards says when no
/// witness within the guards stands.
void describeRace(EncodingState &s, const SiteChoice &ca, const SiteChoice &cb, const cvc5::Term &asked,
                  const std::string &label, QueryOutcome &out) {
  TermFactory &tf = s.tf;
  auto chosen = [&](const SiteChoice &c) -> std::size_t {
    return c.sites.size() == 1 ? 0 : static_cast<std::size_t>(modelValue(s.solver, c.selector));
  };
  std::size_t ia = chosen(ca), ib = chosen(cb);
  Exactness how = ca.how[ia] & cb.how[ib];
  if (how.exact()) {
    if (!keepWithinGuards(s, asked, label, out))
      return;
    preferSmallValues(s, tf.land(asked, withinGuards(s)), label);
    ia = chosen(ca);
    ib = chosen(cb);
    how = ca.how[ia] & cb.how[ib];
  }
  out.exact = how.exact();
  out.abstraction = how.abstraction;
  RaceWitness w;
  w.values = openValuesFromModel(s);
  w.siteA = ca.sites[ia];
  w.siteB = cb.sites[ib];
  w.a = idsFromModel(s, 0);
  w.b = idsFromModel(s, 1);
  w.offsetA = modelValue(s.solver, ca.offset);
  w.offsetB = modelValue(s.solver, cb.offset);
  std::uint64_t object = modelValue(s.solver, ca.object);
  if (auto it = s.objectNames.find(object); it != s.objectNames.end())
    w.object = it->second;
  // Offsets are within the root object; a sub-buffer argument's own origin is left in (bytes of the parent).
  w.localSize = localSizeFromModel(s);
  out.race = w;
}

} // namespace

bool KernelEncoding::groupingIrrelevant(const std::vector<unsigned> &a,
                                        const std::vector<unsigned> &b) const {
  const EncodingState &s = m_impl->state;
  for (unsigned t = 0; t < 2; ++t)
    for (unsigned id : t == 0 ? a : b) {
      const AccessRecord &r = s.records[t][id];
      if (!r.present)
        continue;
      const cvc5::Term &e = s.sites[id].space == MemorySpace::Local ? r.localEpoch : r.globalEpoch;
      if (s.sites[id].space != MemorySpace::Global || s.sites[id].collective || !e.isBitVectorValue() ||
          std::stoull(e.getBitVectorValue(10)) != 0)
        return false;
    }
  return true;
}

QueryOutcome KernelEncoding::checkRace(const std::vector<unsigned> &aSites,
                                       const std::vector<unsigned> &bSites, Scope scope, bool differentValues,
                                       std::optional<long long> budgetMs) {
  EncodingState &s = m_impl->state;
  TermFactory &tf = s.tf;
  QueryOutcome out;
  out.status = QueryOutcome::Status::Unsat;
  std::vector<unsigned> a = presentSites(s, 0, aSites), b = presentSites(s, 1, bSites);
  if (a.empty() || b.empty() || oneWorkItem(s.launch))
    return out;
  dropSitesOfOtherObjects(s, a, b);
  dropSitesApart(s, a, b);
  dropSitesThatNeverMeet(s, a, b, scope);
  if (a.empty() || b.empty())
    return out;
  bool local = s.sites[a[0]].space == MemorySpace::Local;
  if (!pairsInScope(s, a, b, scope, local))
    return out;
  if (differentValues && slicedValues(s, a, b)) {
    // The same-value test needs what the writes store, which this encoding left out (DependenceSlice.h,
    // EncodeOptions::storedValues off): never benign.
    out.status = QueryOutcome::Status::Unknown;
    out.unknownReason = "the values stored there, which this encoding left out";
    return out;
  }
  if (differentValues && !valuesComparable(s, a, b)) {
    out.status = QueryOutcome::Status::Sat;
    out.exact = false;
    return out;
  }
  unsigned query = s.queryCount++;
  try {
    bool ordering = anyCollective(s, a, b) && scope == Scope::SameGroup;
    SiteChoice ca = chooseSite(s, 0, a, local, differentValues, ordering, query);
    SiteChoice cb = chooseSite(s, 1, b, local, differentValues, ordering, query);
    cvc5::Term q = overlapping(s, ca, cb, a, b);
    q = inScope(s, q, ca, cb, scope, ordering);
    if (differentValues)
      q = tf.land(q, differentBytes(s, ca, cb));
    std::string label = raceLabel(a, b, scope, differentValues);
    cvc5::Term asked;
    askExactFirst(s, q, ca, cb, label, budgetMs, out, asked);
    if (out.status != QueryOutcome::Status::Sat)
      return out;
    describeRace(s, ca, cb, asked, label, out);
  } catch (const cvc5::CVC5ApiException &e) {
    out.status = QueryOutcome::Status::Unknown;
    out.unknownReason = std::string("solver error: ") + e.what();
  }
  return out;
}

} // namespace clcapture::encode
