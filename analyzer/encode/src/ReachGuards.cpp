//===- ReachGuards.cpp - Bounds an access's path condition keeps its values in ----===//

#include "ReachGuards.h"

#include <unordered_set>
#include <vector>

namespace clcapture::encode::detail {

namespace {

/// Conjuncts visited at most (the AND nodes of a reach are shared across sites; a larger reach keeps the
/// bounds of the conjuncts seen first, which is still sound).
constexpr std::size_t kMaxConjuncts = 4096;

std::optional<std::uint64_t> constantOf(TermFactory &tf, const cvc5::Term &t) {
  if (!t.isBitVectorValue() || tf.width(t) > 64)
    return std::nullopt;
  return std::stoull(t.getBitVectorValue(10));
}

/// The top-level conjuncts of `t` (through nested ANDs).
std::vector<cvc5::Term> conjunctsOf(const cvc5::Term &t) {
  std::vector<cvc5::Term> out, todo{t};
  std::unordered_set<cvc5::Term> seen{t};
  while (!todo.empty() && seen.size() < kMaxConjuncts) {
    cvc5::Term u = todo.back();
    todo.pop_back();
    if (u.getKind() != cvc5::Kind::AND) {
      out.push_back(u);
      continue;
    }
    for (const cvc5::Term &child : u)
      if (seen.insert(child).second)
        todo.push_back(child);
  }
  return out;
}

/// One comparison `term OP constant`, read as closed bounds: unsigned (at most / at least) or signed.
struct Comparison {
  cvc5::Term term;
  bool atMost = true;      ///< term ≤ bound (else term ≥ bound)
  bool isSigned = false;   ///< the comparison and the bound are signed (two's complement of the width)
  std::uint64_t bound = 0; ///< unsigned, or the bit pattern of the signed bound
};

/// `a < b`, `a ≤ b` (strict / signed as given) with a constant on one side, as closed bounds on the other
/// side's term; nothing where the strict bound would wrap (the conjunct is then false: no fact is taken).
std::optional<Comparison> compare(TermFactory &tf, const cvc5::Term &a, const cvc5::Term &b, bool strict,
                                  bool isSigned) {
  unsigned w = tf.width(a);
  if (w == 0 || w > 64)
    return std::nullopt;
  std::uint64_t all = w == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1;
  std::uint64_t signBit = std::uint64_t{1} << (w - 1);
  // The least and greatest values of the comparison's order, as bit patterns.
  std::uint64_t least = isSigned ? signBit : 0, greatest = isSigned ? signBit - 1 : all;
  if (auto c = constantOf(tf, b); c && !a.isBitVectorValue()) { // a < c, a ≤ c
    if (strict && *c == least)
      return std::nullopt;
    return Comparison{a, true, isSigned, strict ? (*c - 1) & all : *c};
  }
  if (auto c = constantOf(tf, a); c && !b.isBitVectorValue()) { // c < b, c ≤ b
    if (strict && *c == greatest)
      return std::nullopt;
    return Comparison{b, false, isSigned, strict ? (*c + 1) & all : *c};
  }
  return std::nullopt;
}

/// The conjunct `t` as a comparison with a constant, its negation read through.
std::optional<Comparison> comparisonOf(TermFactory &tf, const cvc5::Term &t) {
  bool negated = t.getKind() == cvc5::Kind::NOT;
  cvc5::Term u = negated ? t[0] : t;
  if (u.getNumChildren() != 2 || !u[0].getSort().isBitVector())
    return std::nullopt;
  cvc5::Term a = u[0], b = u[1];
  switch (u.getKind()) {
  case cvc5::Kind::BITVECTOR_ULT: // a < b; negated: b ≤ a
    return negated ? compare(tf, b, a, false, false) : compare(tf, a, b, true, false);
  case cvc5::Kind::BITVECTOR_ULE:
    return negated ? compare(tf, b, a, true, false) : compare(tf, a, b, false, false);
  case cvc5::Kind::BITVECTOR_UGT:
    return negated ? compare(tf, a, b, false, false) : compare(tf, b, a, true, false);
  case cvc5::Kind::BITVECTOR_UGE:
    return negated ? compare(tf, a, b, true, false) : compare(tf, b, a, false, false);
  case cvc5::Kind::BITVECTOR_SLT:
    return negated ? compare(tf, b, a, false, true) : compare(tf, a, b, true, true);
  case cvc5::Kind::BITVECTOR_SLE:
    return negated ? compare(tf, b, a, true, true) : compare(tf, a, b, false, true);
  case cvc5::Kind::BITVECTOR_SGT:
    return negated ? compare(tf, a, b, false, true) : compare(tf, b, a, true, true);
  case cvc5::Kind::BITVECTOR_SGE:
    return negated ? compare(tf, a, b, true, true) : compare(tf, b, a, false, true);
  default:
    return std::nullopt;
  }
}

void tighten(std::unordered_map<cvc5::Term, std::uint64_t> &bounds, const cvc5::Term &t, std::uint64_t v,
             bool upper) {
  auto [it, added] = bounds.emplace(t, v);
  if (!added)
    it->second = upper ? std::min(it->second, v) : std::max(it->second, v);
}

} // namespace

TermFactory::Guards guardsOf(TermFactory &tf, const cvc5::Term &reach) {
  TermFactory::Guards guards;
  std::vector<Comparison> signedOnes;
  for (const cvc5::Term &c : conjunctsOf(reach)) {
    if (c.getKind() == cvc5::Kind::EQUAL && c[0].getSort().isBitVector()) { // t = constant
      for (std::size_t side : {std::size_t{0}, std::size_t{1}})
        if (auto v = constantOf(tf, c[1 - side]); v && !c[side].isBitVectorValue()) {
          tighten(guards.upper, c[side], *v, true);
          tighten(guards.lower, c[side], *v, false);
        }
      continue;
    }
    auto cmp = comparisonOf(tf, c);
    if (!cmp)
      continue;
    if (cmp->isSigned) {
      signedOnes.push_back(*cmp);
      continue;
    }
    tighten(cmp->atMost ? guards.upper : guards.lower, cmp->term, cmp->bound, cmp->atMost);
  }
  // Signed bounds: t ≥s c with c ≥ 0 puts t in [c, largest positive]; t ≤s c with c ≥ 0 gives t ≤ c where t
  // is non-negative (by the first kind, the unsigned guards, or its form).
  for (bool lowerFirst : {true, false})
    for (const Comparison &cmp : signedOnes) {
      unsigned w = tf.width(cmp.term);
      std::uint64_t signBit = std::uint64_t{1} << (w - 1);
      if (cmp.bound & signBit) // a negative bound: no interval of unsigned values
        continue;
      if (lowerFirst && !cmp.atMost) {
        tighten(guards.lower, cmp.term, cmp.bound, false);
        tighten(guards.upper, cmp.term, signBit - 1, true);
      } else if (!lowerFirst && cmp.atMost && tf.boundsUnder(cmp.term, guards).second < signBit) {
        tighten(guards.upper, cmp.term, cmp.bound, true);
      }
    }
  return guards;
}

} // namespace clcapture::encode::detail
