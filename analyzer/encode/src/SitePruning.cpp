//===- SitePruning.cpp - Sites a race query can leave out, and a cheaper overlap test ----===//

#include "SitePruning.h"

#include "AffineOffsets.h"
#include "SiteChoice.h"

#include <algorithm>
#include <set>
#include <string>

namespace clcapture::encode::detail {

namespace {

/// Keeps the sites whose mark is set, in order.
void keepMarked(std::vector<unsigned> &sites, const std::vector<bool> &kept) {
  std::vector<unsigned> out;
  for (std::size_t i = 0; i < sites.size(); ++i)
    if (kept[i])
      out.push_back(sites[i]);
  sites = std::move(out);
}

/// Whether `t` (a bit-vector) is a multiple of 2^k whatever its variables are, by its structure: a constant
/// with k low zero bits, a sum or ite of such terms, a product with one such factor, a left shift by at
/// least k, or an extension or low extract (wider than k bits) of one.
bool multipleOfPowerOfTwo(const cvc5::Term &t, unsigned k, unsigned depth = 0) {
  if (k == 0)
    return true;
  if (depth > 64 || !t.getSort().isBitVector())
    return false;
  using cvc5::Kind;
  if (t.isBitVectorValue()) {
    std::string bits = t.getBitVectorValue(2);
    return bits.size() >= k && bits.find('1', bits.size() - k) == std::string::npos;
  }
  switch (t.getKind()) {
  case Kind::BITVECTOR_ADD:
  case Kind::BITVECTOR_SUB:
    for (const cvc5::Term &c : t)
      if (!multipleOfPowerOfTwo(c, k, depth + 1))
        return false;
    return true;
  case Kind::BITVECTOR_MULT:
    for (const cvc5::Term &c : t)
      if (multipleOfPowerOfTwo(c, k, depth + 1))
        return true;
    return false;
  case Kind::ITE:
    return multipleOfPowerOfTwo(t[1], k, depth + 1) && multipleOfPowerOfTwo(t[2], k, depth + 1);
  case Kind::BITVECTOR_SHL:
    if (t[1].isBitVectorValue() && std::stoull(t[1].getBitVectorValue(10)) >= k)
      return true;
    return multipleOfPowerOfTwo(t[0], k, depth + 1);
  case Kind::BITVECTOR_SIGN_EXTEND:
  case Kind::BITVECTOR_ZERO_EXTEND:
    return multipleOfPowerOfTwo(t[0], k, depth + 1);
  case Kind::BITVECTOR_EXTRACT: {
    // ((_ extract hi lo) x): a multiple of 2^k when lo = 0 and x is one (and the result keeps k bits).
    cvc5::Op op = t.getOp();
    if (op.getNumIndices() != 2)
      return false;
    unsigned long high = std::stoul(op[0].getIntegerValue()), low = std::stoul(op[1].getIntegerValue());
    return low == 0 && high + 1 > k && multipleOfPowerOfTwo(t[0], k, depth + 1);
  }
  default:
    return false;
  }
}

} // namespace

void dropSitesOfOtherObjects(EncodingState &s, std::vector<unsigned> &a, std::vector<unsigned> &b) {
  auto objects = [&](unsigned t, const std::vector<unsigned> &sites, std::set<std::uint64_t> &out) {
    for (unsigned id : sites) {
      const cvc5::Term &o = s.records[t][id].pointer.object;
      if (!o.isBitVectorValue())
        return false; // some site's object is open: it may be any
      out.insert(constantOf(o));
    }
    return true;
  };
  std::set<std::uint64_t> oa, ob;
  bool allA = objects(0, a, oa), allB = objects(1, b, ob);
  auto keep = [&](unsigned t, std::vector<unsigned> &sites, const std::set<std::uint64_t> &other) {
    sites.erase(std::remove_if(sites.begin(), sites.end(),
                               [&](unsigned id) {
                                 const cvc5::Term &o = s.records[t][id].pointer.object;
                                 return o.isBitVectorValue() && !other.count(constantOf(o));
                               }),
                sites.end());
  };
  if (allB)
    keep(0, a, ob);
  if (allA)
    keep(1, b, oa);
}

void dropSitesApart(EncodingState &s, std::vector<unsigned> &a, std::vector<unsigned> &b) {
  // [first byte, last byte] each site may touch; nullopt when no bound is known (it may meet anything).
  using Range = std::optional<std::pair<std::uint64_t, std::uint64_t>>;
  auto rangeOf = [&](unsigned t, unsigned id) -> Range {
    const AccessRecord &r = s.records[t][id];
    std::uint64_t low = s.tf.lowerBoundAsserted(r.pointer.offset),
                  high = s.tf.upperBoundAsserted(r.pointer.offset);
    std::uint64_t size = s.tf.upperBoundAsserted(r.size), last = 0;
    if (size == 0 || __builtin_add_overflow(high, size - 1, &last) || last == ~std::uint64_t{0})
      return std::nullopt; // also a last byte of all ones: the offset may wrap (upperBound knows nothing)
    return std::pair<std::uint64_t, std::uint64_t>{low, last};
  };
  std::vector<Range> ra, rb;
  for (unsigned id : a)
    ra.push_back(rangeOf(0, id));
  for (unsigned id : b)
    rb.push_back(rangeOf(1, id));
  auto meets = [](const Range &x, const Range &y) {
    return !x || !y || (x->first <= y->second && y->first <= x->second);
  };
  auto keep = [&](std::vector<unsigned> &sites, const std::vector<Range> &mine,
                  const std::vector<Range> &other) {
    std::vector<unsigned> kept;
    for (std::size_t i = 0; i < sites.size(); ++i)
      if (std::any_of(other.begin(), other.end(), [&](const Range &o) { return meets(mine[i], o); }))
        kept.push_back(sites[i]);
    sites = std::move(kept);
  };
  keep(a, ra, rb);
  keep(b, rb, ra);
}

void dropSitesThatNeverMeet(EncodingState &s, std::vector<unsigned> &a, std::vector<unsigned> &b,
                            Scope scope) {
  if (a.size() * b.size() > kMaxDependencePairs)
    return;
  if (!s.affineForms)
    s.affineForms = std::make_shared<AffineForms>(s);
  auto meet = [&](unsigned ia, unsigned ib) {
    auto [known, fresh] = s.sitesMayMeet.try_emplace({ia, ib, scope}, true);
    if (fresh) {
      const AccessRecord &ra = s.records[0][ia], &rb = s.records[1][ib];
      // Offsets compare only within one memory object; an object that is not a constant may be any.
      bool sameObject = ra.pointer.object.isBitVectorValue() && rb.pointer.object.isBitVectorValue() &&
                        ra.pointer.object == rb.pointer.object;
      known->second =
          !sameObject || s.affineForms->mayMeet(ra.pointer.offset, s.tf.upperBoundAsserted(ra.size),
                                                rb.pointer.offset, s.tf.upperBoundAsserted(rb.size), scope);
    }
    return known->second;
  };
  std::vector<bool> keepA(a.size(), false), keepB(b.size(), false);
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < b.size(); ++j)
      if (meet(a[i], b[j]))
        keepA[i] = keepB[j] = true;
  keepMarked(a, keepA);
  keepMarked(b, keepB);
}

namespace {

/// Intervals that are not constants (inside a loop that is not unrolled): a site is kept when its interval
/// term may equal that of some site of the other work-item (AffineForms::mayBeEqual).
void dropSitesInOtherLoopIntervals(EncodingState &s, std::vector<unsigned> &a, std::vector<unsigned> &b,
                                   bool local) {
  if (a.size() * b.size() > kMaxIntervalPairs)
    return;
  if (!s.affineForms)
    s.affineForms = std::make_shared<AffineForms>(s);
  std::vector<bool> keepA(a.size(), false), keepB(b.size(), false);
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < b.size(); ++j) {
      if (keepA[i] && keepB[j])
        continue;
      auto [known, fresh] = s.intervalsMayMeet.try_emplace({a[i], b[j], local}, true);
      if (fresh)
        known->second =
            s.affineForms->mayBeEqual(epochOf(s.records[0][a[i]], local), epochOf(s.records[1][b[j]], local));
      if (known->second)
        keepA[i] = keepB[j] = true;
    }
  keepMarked(a, keepA);
  keepMarked(b, keepB);
}

} // namespace

void dropSitesInOtherIntervals(EncodingState &s, std::vector<unsigned> &a, std::vector<unsigned> &b,
                               bool local) {
  auto constantIntervals = [&](unsigned t, const std::vector<unsigned> &sites, std::set<std::uint64_t> &out) {
    for (unsigned id : sites) {
      const cvc5::Term &e = epochOf(s.records[t][id], local);
      if (!e.isBitVectorValue())
        return false;
      out.insert(constantOf(e));
    }
    return true;
  };
  std::set<std::uint64_t> ea, eb;
  for (unsigned id : a)
    if (s.sites[id].collective)
      return; // an async copy is ordered by the wait on its event, not by intervals
  for (unsigned id : b)
    if (s.sites[id].collective)
      return;
  if (!constantIntervals(0, a, ea) || !constantIntervals(1, b, eb)) {
    dropSitesInOtherLoopIntervals(s, a, b, local);
    return;
  }
  auto keep = [&](unsigned t, std::vector<unsigned> &sites, const std::set<std::uint64_t> &other) {
    sites.erase(std::remove_if(
                    sites.begin(), sites.end(),
                    [&](unsigned id) { return !other.count(constantOf(epochOf(s.records[t][id], local))); }),
                sites.end());
  };
  keep(0, a, eb);
  keep(1, b, ea);
}

std::optional<std::uint64_t> alignedUnit(EncodingState &s, const std::vector<unsigned> &a,
                                         const std::vector<unsigned> &b) {
  std::optional<std::uint64_t> unit;
  for (unsigned t = 0; t < 2; ++t)
    for (unsigned id : t == 0 ? a : b) {
      const AccessRecord &r = s.records[t][id];
      if (!r.size.isBitVectorValue())
        return std::nullopt;
      std::uint64_t size = constantOf(r.size);
      if (size == 0 || (size & (size - 1)) != 0 || (unit && *unit != size))
        return std::nullopt;
      unit = size;
      unsigned k = 0;
      while ((std::uint64_t{1} << k) < size)
        ++k;
      if (!multipleOfPowerOfTwo(r.pointer.offset, k))
        return std::nullopt;
    }
  return unit;
}

} // namespace clcapture::encode::detail
