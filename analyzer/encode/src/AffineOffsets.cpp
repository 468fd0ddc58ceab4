//===- AffineOffsets.cpp - Offsets as integer sums over the ids, and a dependence test ----===//

#include "AffineOffsets.h"

#include <algorithm>
#include <string>

namespace clcapture::encode::detail {

namespace {

/// Coefficients and constants stay far below __int128's range: a coefficient times an atom's bound (at most
/// 2^64) summed over thousands of atoms cannot overflow.
constexpr Wide kMaxCoefficient = Wide{1} << 40;
constexpr Wide kMaxConstant = Wide{1} << 80;

unsigned widthOf(const cvc5::Term &t) {
  return t.getSort().getBitVectorSize();
}
Wide allOnes(unsigned width) {
  return (Wide{1} << width) - 1;
}
Wide valueOf(const cvc5::Term &t) {
  return static_cast<Wide>(std::stoull(t.getBitVectorValue(10)));
}

void addScaled(AffineForm &into, const AffineForm &f, Wide factor) {
  for (const auto &[atom, c] : f.coefficients) {
    Wide &slot = into.coefficients[atom];
    slot += c * factor;
    if (slot == 0)
      into.coefficients.erase(atom);
  }
  into.constant += f.constant * factor;
}

/// f's range from its atoms' ranges; false when a coefficient or the constant is too large to reason with.
bool settleRange(AffineForm &f, const std::unordered_map<cvc5::Term, std::pair<Wide, Wide>> &ranges) {
  if (f.constant > kMaxConstant || f.constant < -kMaxConstant)
    return false;
  f.low = f.high = f.constant;
  for (const auto &[atom, c] : f.coefficients) {
    if (c > kMaxCoefficient || c < -kMaxCoefficient)
      return false;
    auto [low, high] = ranges.at(atom);
    f.low += c > 0 ? c * low : c * high;
    f.high += c > 0 ? c * high : c * low;
  }
  return true;
}

/// gcd(a, b) for a, b ≥ 0 (std::gcd does not take __int128 under -std=c++17).
Wide greatestCommonDivisor(Wide a, Wide b) {
  while (b != 0) {
    Wide r = a % b;
    a = b;
    b = r;
  }
  return a;
}

/// Floor and ceiling of a / b for b > 0.
Wide floorDiv(Wide a, Wide b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}
Wide ceilDiv(Wide a, Wide b) {
  return -floorDiv(-a, b);
}

} // namespace

/// Whether Σ coefficient·x + constant, each x an integer of its range, can lie in [low, high]. The term of
/// the largest coefficient takes only the values that leave the others' range able to reach the window;
/// with few such values each is tried (fixing it narrows its partner's range: the two ids of one pair keep
/// their direction), with many the answer is yes. `steps` bounds the whole search: past kMaxSteps every
/// answer is yes. Never no where an assignment exists.
bool AffineForms::sumMayReach(std::vector<Scaled> terms, Wide constant, Wide low, Wide high,
                              std::size_t &steps) {
  constexpr std::size_t kMaxSteps = 4000, kMaxValues = 64;
  if (++steps > kMaxSteps)
    return true;
  for (const Scaled &t : terms)
    if (t.low > t.high)
      return false; // a pair's direction leaves this id no value
  terms.erase(std::remove_if(terms.begin(), terms.end(), [](const Scaled &t) { return t.coefficient == 0; }),
              terms.end());
  if (terms.empty())
    return low <= constant && constant <= high;
  auto magnitude = [](Wide c) { return c < 0 ? -c : c; };
  // Σ c·x is a multiple of the coefficients' greatest common divisor g: the window must hold one.
  Wide g = 0;
  for (const Scaled &t : terms)
    g = greatestCommonDivisor(g, magnitude(t.coefficient));
  if (g > 1 && floorDiv(high - constant, g) < ceilDiv(low - constant, g))
    return false;
  auto largest = std::max_element(terms.begin(), terms.end(), [&](const Scaled &x, const Scaled &y) {
    return magnitude(x.coefficient) < magnitude(y.coefficient);
  });
  Scaled big = *largest;
  terms.erase(largest);
  Wide restLow = constant, restHigh = constant;
  for (const Scaled &t : terms) {
    restLow += t.coefficient > 0 ? t.coefficient * t.low : t.coefficient * t.high;
    restHigh += t.coefficient > 0 ? t.coefficient * t.high : t.coefficient * t.low;
  }
  // c·x + rest ∈ [low, high] for some rest ∈ [restLow, restHigh] ⇔ c·x ∈ [low − restHigh, high − restLow].
  Wide c = magnitude(big.coefficient), from = low - restHigh, to = high - restLow;
  Wide first = big.coefficient > 0 ? ceilDiv(from, c) : ceilDiv(-to, c),
       last = big.coefficient > 0 ? floorDiv(to, c) : floorDiv(-from, c);
  first = std::max(first, big.low);
  last = std::min(last, big.high);
  if (first > last)
    return false;
  if (terms.empty())
    return true; // some x of [first, last] puts c·x + constant in the window
  if (last - first + 1 > static_cast<Wide>(kMaxValues))
    return true;
  for (Wide x = first; x <= last; ++x) {
    std::vector<Scaled> narrowed = terms;
    if (big.pair >= 0)
      for (Scaled &t : narrowed)
        if (t.pair == big.pair) {
          // big.below: big's id is below its partner's (x < y as the direction says), else above.
          if (big.below)
            t.low = std::max(t.low, x + 1);
          else
            t.high = std::min(t.high, x - 1);
        }
    if (sumMayReach(std::move(narrowed), constant + big.coefficient * x, low, high, steps))
      return true;
  }
  return false;
}

AffineForms::AffineForms(EncodingState &s) : m_s(s) {
  m_idsAreVariables = !s.localSizeOpen;
  for (unsigned d = 0; d < 3; ++d)
    for (bool group : {true, false}) {
      const cvc5::Term &a = group ? s.ids[0].group[d] : s.ids[0].local[d],
                       &b = group ? s.ids[1].group[d] : s.ids[1].local[d];
      if (a.isBitVectorValue() && b.isBitVectorValue())
        continue; // one group (or a local size of 1) in this dimension: 0 for both
      Wide max = static_cast<Wide>(s.tf.upperBoundAsserted(a));
      if (a.isBitVectorValue() || b.isBitVectorValue() ||
          max != static_cast<Wide>(s.tf.upperBoundAsserted(b)) || max < 1) {
        m_idsAreVariables = false; // not two ids of one range: no direction is known to be the same one
        m_allGroupPairs = m_allGroupPairs && !group;
        continue;
      }
      m_ids.push_back({a, b, max, group});
      m_idTerms.insert(a);
      m_idTerms.insert(b);
    }
}

AffineForm AffineForms::atom(const cvc5::Term &t) {
  AffineForm f;
  f.coefficients[t] = 1;
  Wide low = static_cast<Wide>(m_s.tf.lowerBoundAsserted(t)),
       high = static_cast<Wide>(m_s.tf.upperBoundAsserted(t));
  m_ranges[t] = {low, high};
  f.low = low;
  f.high = high;
  return f;
}

std::optional<AffineForm> AffineForms::build(const cvc5::Term &t, unsigned depth) {
  using cvc5::Kind;
  unsigned w = widthOf(t);
  if (t.isBitVectorValue()) {
    AffineForm f;
    f.constant = f.low = f.high = valueOf(t);
    return f;
  }
  if (m_idTerms.count(t) || depth > 64)
    return std::nullopt;
  auto child = [&](std::size_t i) { return ofAt(t[i], depth + 1); };
  AffineForm f;
  switch (t.getKind()) {
  case Kind::BITVECTOR_ZERO_EXTEND: // the value is kept whole
    if (const AffineForm *c = child(0))
      return *c;
    return std::nullopt;
  case Kind::BITVECTOR_SIGN_EXTEND: // kept whole while the sign bit is 0
    if (const AffineForm *c = child(0); c && c->high <= allOnes(widthOf(t[0]) - 1))
      return *c;
    return std::nullopt;
  case Kind::BITVECTOR_EXTRACT: { // the low bits are the value when it fits them
    cvc5::Op op = t.getOp();
    unsigned long high = std::stoul(op[0].getIntegerValue()), low = std::stoul(op[1].getIntegerValue());
    if (const AffineForm *c = child(0); c && low == 0 && c->high <= allOnes(static_cast<unsigned>(high) + 1))
      return *c;
    return std::nullopt;
  }
  case Kind::BITVECTOR_ADD: {
    // A chain of additions (a barrier interval is 1 + 1 + … + 1, one per barrier before the access: hundreds
    // deep) is read as one sum of its leaves. Every leaf's form is at least 0, so each partial sum lies
    // between 0 and the whole sum: where the whole fits the width (checked below), no addition in the chain
    // wraps.
    std::vector<cvc5::Term> work{t};
    while (!work.empty()) {
      cvc5::Term at = work.back();
      work.pop_back();
      if (at.getKind() == Kind::BITVECTOR_ADD && widthOf(at) == w && !m_cache.count(at)) {
        for (std::size_t i = 0; i < at.getNumChildren(); ++i)
          work.push_back(at[i]);
        continue;
      }
      const AffineForm *c = ofAt(at, depth + 1);
      if (!c)
        return std::nullopt;
      addScaled(f, *c, 1);
    }
    break;
  }
  case Kind::BITVECTOR_SUB:
    for (std::size_t i = 0; i < t.getNumChildren(); ++i) {
      const AffineForm *c = child(i);
      if (!c)
        return std::nullopt;
      addScaled(f, *c, t.getKind() == Kind::BITVECTOR_SUB && i > 0 ? -1 : 1);
    }
    break;
  case Kind::BITVECTOR_MULT: {
    Wide factor = 1;
    const AffineForm *variable = nullptr;
    for (std::size_t i = 0; i < t.getNumChildren(); ++i) {
      const AffineForm *c = child(i);
      if (!c)
        return std::nullopt;
      if (!c->coefficients.empty()) {
        if (variable)
          return std::nullopt; // a product of two variables: not affine
        variable = c;
      } else {
        factor *= c->constant;
        if (factor > kMaxCoefficient)
          return std::nullopt;
      }
    }
    if (variable)
      addScaled(f, *variable, factor);
    else
      f.constant = factor;
    break;
  }
  case Kind::BITVECTOR_SHL: {
    const AffineForm *c = child(0);
    if (!c || !t[1].isBitVectorValue() || valueOf(t[1]) >= 40)
      return std::nullopt;
    addScaled(f, *c, Wide{1} << static_cast<unsigned>(valueOf(t[1])));
    break;
  }
  default:
    return std::nullopt;
  }
  // The node's value is the form's only where the form cannot leave [0, 2^w): no wrap-around.
  if (!settleRange(f, m_ranges) || f.low < 0 || f.high > allOnes(w))
    return std::nullopt;
  return f;
}

const AffineForm *AffineForms::ofAt(const cvc5::Term &t, unsigned depth) {
  if (!t.getSort().isBitVector() || widthOf(t) > 64)
    return nullptr;
  if (auto known = m_cache.find(t); known != m_cache.end())
    return &known->second;
  std::optional<AffineForm> f = build(t, depth);
  return &m_cache.emplace(t, f ? std::move(*f) : atom(t)).first->second;
}

const AffineForm *AffineForms::of(const cvc5::Term &t) {
  return ofAt(t, 0);
}

bool AffineForms::mayBeEqual(const cvc5::Term &a, const cvc5::Term &b) {
  const AffineForm *fa = of(a), *fb = of(b);
  if (!fa || !fb)
    return true;
  AffineForm d = *fa;
  addScaled(d, *fb, -1);
  if (!settleRange(d, m_ranges))
    return true;
  std::vector<Scaled> terms;
  for (const auto &[atom, c] : d.coefficients) {
    auto [low, high] = m_ranges.at(atom);
    terms.push_back({c, low, high});
  }
  std::size_t steps = 0;
  return sumMayReach(terms, d.constant, 0, 0, steps);
}

bool AffineForms::mayMeet(const cvc5::Term &offsetA, std::uint64_t sizeA, const cvc5::Term &offsetB,
                          std::uint64_t sizeB, Scope scope) {
  const AffineForm *fa = of(offsetA), *fb = of(offsetB);
  if (!fa || !fb || sizeA == 0 || sizeB == 0 || sizeA > (1ull << 40) || sizeB > (1ull << 40))
    return true;
  // D = offset A − offset B; the accesses share a byte exactly when −(sizeA − 1) ≤ D ≤ sizeB − 1.
  AffineForm d = *fa;
  addScaled(d, *fb, -1);
  Wide windowLow = -static_cast<Wide>(sizeA - 1), windowHigh = static_cast<Wide>(sizeB - 1);
  // Each id pair by direction (<, =, >); every other atom over its own range. A pair the difference does not
  // use adds 0 whatever its direction: it is left out of the vectors, and since it may differ while the
  // others are equal, the all-equal vector of the others is then not the same work-item. In a same-group
  // query every group pair is equal (used or not); in a different-groups query some group pair differs,
  // which excludes the vectors whose group pairs are all equal when every group pair is among them.
  struct DirectedPair {
    std::array<std::array<Scaled, 2>, 3> terms; ///< the pair's part of D under each direction
    bool group;
  };
  std::vector<DirectedPair> pairs;
  bool unusedPair = false, unusedGroupPair = false;
  for (const IdPair &p : m_ids) {
    Wide alpha = 0, beta = 0;
    if (auto it = d.coefficients.find(p.a); it != d.coefficients.end())
      alpha = it->second, d.coefficients.erase(it);
    if (auto it = d.coefficients.find(p.b); it != d.coefficients.end())
      beta = it->second, d.coefficients.erase(it);
    if (alpha == 0 && beta == 0) {
      if (p.group)
        unusedGroupPair = true;
      if (!(p.group && scope == Scope::SameGroup))
        unusedPair = true;
      continue;
    }
    // α·x + β·y under x < y, x = y, x > y. Where α = −β it is β·(y − x), and y − x takes every integer of
    // [1, m], {0} or [−m, −1]: one term. Otherwise two terms whose values stay linked (sumMayReach narrows
    // one when the other is fixed), and under x = y the one term (α + β)·x.
    DirectedPair directed{{}, p.group};
    if (alpha == -beta) {
      directed.terms[0] = {Scaled{beta, 1, p.max}, Scaled{}};
      directed.terms[1] = {Scaled{}, Scaled{}};
      directed.terms[2] = {Scaled{beta, -p.max, -1}, Scaled{}};
    } else {
      int id = static_cast<int>(pairs.size());
      directed.terms[0] = {Scaled{alpha, 0, p.max - 1, id, true}, Scaled{beta, 1, p.max, id, false}};
      directed.terms[1] = {Scaled{alpha + beta, 0, p.max}, Scaled{}};
      directed.terms[2] = {Scaled{alpha, 1, p.max, id, false}, Scaled{beta, 0, p.max - 1, id, true}};
    }
    pairs.push_back(directed);
  }
  bool skipAllEqual = m_idsAreVariables && !unusedPair;
  bool someGroupDiffers = scope == Scope::DifferentGroups && m_allGroupPairs && !unusedGroupPair;
  if (!settleRange(d, m_ranges))
    return true;
  std::vector<Scaled> rest;
  for (const auto &[atom, c] : d.coefficients) {
    auto [low, high] = m_ranges.at(atom);
    rest.push_back({c, low, high});
  }
  // Every direction vector but the all-equal one when that one is the same work-item.
  std::size_t vectors = 1;
  for (std::size_t i = 0; i < pairs.size(); ++i)
    vectors *= 3;
  std::size_t steps = 0;
  for (std::size_t v = 0; v < vectors; ++v) {
    bool allEqual = true, groupsEqual = true, excluded = false;
    std::vector<Scaled> terms = rest;
    for (std::size_t i = 0, code = v; i < pairs.size(); ++i, code /= 3) {
      int direction = static_cast<int>(code % 3);
      allEqual = allEqual && direction == 1;
      if (pairs[i].group) {
        groupsEqual = groupsEqual && direction == 1;
        excluded = excluded || (scope == Scope::SameGroup && direction != 1);
      }
      for (const Scaled &t : pairs[i].terms[static_cast<std::size_t>(direction)])
        terms.push_back(t);
    }
    if (excluded || (allEqual && skipAllEqual) || (groupsEqual && someGroupDiffers))
      continue;
    if (sumMayReach(terms, d.constant, windowLow, windowHigh, steps))
      return true;
  }
  return false;
}

} // namespace clcapture::encode::detail
