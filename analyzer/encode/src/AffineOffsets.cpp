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

/// The range of α·x + β·y over integers 0 ≤ x, y ≤ m with x < y (direction 0), x = y (1) or x > y (2): a
/// linear function's extremes over a triangle or segment lie at its corners.
std::pair<Wide, Wide> directedRange(Wide alpha, Wide beta, Wide m, int direction) {
  auto f = [&](Wide x, Wide y) { return alpha * x + beta * y; };
  Wide corners[3];
  if (direction == 1) {
    corners[0] = f(0, 0);
    corners[1] = corners[2] = f(m, m);
  } else if (direction == 0) {
    corners[0] = f(0, 1), corners[1] = f(0, m), corners[2] = f(m - 1, m);
  } else {
    corners[0] = f(1, 0), corners[1] = f(m, 0), corners[2] = f(m, m - 1);
  }
  return {*std::min_element(corners, corners + 3), *std::max_element(corners, corners + 3)};
}

} // namespace

AffineForms::AffineForms(EncodingState &s) : m_s(s) {
  m_idsAreVariables = !s.localSizeOpen;
  for (unsigned d = 0; d < 3; ++d)
    for (const auto &[a, b] :
         {std::pair{s.ids[0].group[d], s.ids[1].group[d]}, std::pair{s.ids[0].local[d], s.ids[1].local[d]}}) {
      if (a.isBitVectorValue() && b.isBitVectorValue())
        continue; // one group (or a local size of 1) in this dimension: 0 for both
      Wide max = static_cast<Wide>(s.tf.upperBoundAsserted(a));
      if (a.isBitVectorValue() || b.isBitVectorValue() ||
          max != static_cast<Wide>(s.tf.upperBoundAsserted(b)) || max < 1) {
        m_idsAreVariables = false; // not two ids of one range: no direction is known to be the same one
        continue;
      }
      m_ids.push_back({a, b, max});
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
  case Kind::BITVECTOR_ADD:
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

bool AffineForms::mayMeet(const cvc5::Term &offsetA, std::uint64_t sizeA, const cvc5::Term &offsetB,
                          std::uint64_t sizeB) {
  const AffineForm *fa = of(offsetA), *fb = of(offsetB);
  if (!fa || !fb || sizeA == 0 || sizeB == 0 || sizeA > (1ull << 40) || sizeB > (1ull << 40))
    return true;
  // D = offset A − offset B; the accesses share a byte exactly when −(sizeA − 1) ≤ D ≤ sizeB − 1.
  AffineForm d = *fa;
  addScaled(d, *fb, -1);
  Wide windowLow = -static_cast<Wide>(sizeA - 1), windowHigh = static_cast<Wide>(sizeB - 1);
  // Each id pair by direction (<, =, >); every other atom over its own range. A pair the difference does not
  // use adds 0 whatever its direction: it is left out of the vectors, and since it may differ while the
  // others are equal, the all-equal vector of the others is then not the same work-item.
  std::vector<std::array<std::pair<Wide, Wide>, 3>> pairs;
  bool unusedPair = false;
  for (const IdPair &p : m_ids) {
    Wide alpha = 0, beta = 0;
    if (auto it = d.coefficients.find(p.a); it != d.coefficients.end())
      alpha = it->second, d.coefficients.erase(it);
    if (auto it = d.coefficients.find(p.b); it != d.coefficients.end())
      beta = it->second, d.coefficients.erase(it);
    if (alpha == 0 && beta == 0) {
      unusedPair = true;
      continue;
    }
    pairs.push_back({directedRange(alpha, beta, p.max, 0), directedRange(alpha, beta, p.max, 1),
                     directedRange(alpha, beta, p.max, 2)});
  }
  bool skipAllEqual = m_idsAreVariables && !unusedPair;
  if (!settleRange(d, m_ranges))
    return true;
  // Every direction vector but the all-equal one when that one is the same work-item.
  std::size_t vectors = 1;
  for (std::size_t i = 0; i < pairs.size(); ++i)
    vectors *= 3;
  for (std::size_t v = 0; v < vectors; ++v) {
    Wide low = d.low, high = d.high;
    bool allEqual = true;
    for (std::size_t i = 0, code = v; i < pairs.size(); ++i, code /= 3) {
      int direction = static_cast<int>(code % 3);
      allEqual = allEqual && direction == 1;
      low += pairs[i][static_cast<std::size_t>(direction)].first;
      high += pairs[i][static_cast<std::size_t>(direction)].second;
    }
    if (allEqual && skipAllEqual)
      continue;
    if (low <= windowHigh && high >= windowLow)
      return true;
  }
  return false;
}

} // namespace clcapture::encode::detail
