//===- Terms.h - Symbolic values and the CVC5 term helpers the encoder uses -*- C++ -*-===//
//
// Internal to encode/. A symbolic value is a CVC5 term plus whether it is exact (a function of work-item
// ids, captured values and loop iteration variables only) and, if not, the first abstraction it went
// through, named for the user ("value read from global memory at k.cl:12").
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/encode/Sites.h"

#include <algorithm>
#include <cstdint>
#include <cvc5/cvc5.h>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

namespace clcapture::encode {

/// What made a term inexact; empty when it is exact.
struct Exactness {
  std::string abstraction;
  bool exact() const { return abstraction.empty(); }
  /// The first abstraction of the two (deterministic: the left one wins).
  Exactness operator&(const Exactness &other) const { return exact() ? other : *this; }
};

/// An integer (bit-vector) or boolean value. Pointers are SymPointer.
struct SymValue {
  cvc5::Term term;
  Exactness how;
};

/// A pointer: the object it points into and a byte offset, both terms (an object id is a 64-bit constant
/// when the pointer's provenance is known, an ite when it depends on control flow).
struct SymPointer {
  MemorySpace space = MemorySpace::Private;
  cvc5::Term object;
  cvc5::Term offset; ///< 64-bit
  Exactness how;
  /// Bool, or null (false): an array-typed step of the address (`s.b[i]` in `struct { int a; char b[2]; }`)
  /// indexed outside its array, though the address may stay inside the object (EncodeOptions::memorySafety).
  cvc5::Term beyondArray;
};

class TermFactory;

/// `c ? a : b` for a chosen pointer's beyondArray (null on both sides: null), so that a select or a join
/// keeps the flag of the pointer it takes, not of the first operand.
cvc5::Term chooseBeyondArray(TermFactory &tf, const cvc5::Term &c, const SymPointer &a, const SymPointer &b);

/// Thin helpers over cvc5::Solver for bit-vector work.
class TermFactory {
public:
  explicit TermFactory(cvc5::Solver &solver) : m_solver(solver) {}
  cvc5::Solver &solver() { return m_solver; }

  cvc5::Sort bv(unsigned width) { return m_solver.mkBitVectorSort(width); }
  cvc5::Term constant(unsigned width, std::uint64_t value) { return m_solver.mkBitVector(width, value); }
  /// A new constant; names are made unique (name, name_1, …) so that a dumped script declares each once.
  cvc5::Term fresh(const cvc5::Sort &sort, const std::string &name) {
    unsigned &uses = m_names[name];
    std::string unique = uses == 0 ? name : name + "_" + std::to_string(uses);
    ++uses;
    return m_solver.mkConst(sort, unique);
  }
  cvc5::Term boolean(bool v) { return m_solver.mkBoolean(v); }
  cvc5::Term op(cvc5::Kind kind, const std::vector<cvc5::Term> &children) {
    return m_solver.mkTerm(kind, children);
  }
  cvc5::Term ite(const cvc5::Term &c, const cvc5::Term &t, const cvc5::Term &e) {
    if (c.isBooleanValue())
      return c.getBooleanValue() ? t : e;
    if (t == e) // joins of equal values (a barrier interval after an if): keep the term constant
      return t;
    return m_solver.mkTerm(cvc5::Kind::ITE, {c, t, e});
  }
  cvc5::Term land(const cvc5::Term &a, const cvc5::Term &b) {
    if (a.isBooleanValue())
      return a.getBooleanValue() ? b : a;
    if (b.isBooleanValue())
      return b.getBooleanValue() ? a : b;
    return m_solver.mkTerm(cvc5::Kind::AND, {a, b});
  }
  cvc5::Term lor(const cvc5::Term &a, const cvc5::Term &b) {
    if (a.isBooleanValue())
      return a.getBooleanValue() ? a : b;
    if (b.isBooleanValue())
      return b.getBooleanValue() ? b : a;
    return m_solver.mkTerm(cvc5::Kind::OR, {a, b});
  }
  cvc5::Term lnot(const cvc5::Term &a) {
    if (a.isBooleanValue())
      return boolean(!a.getBooleanValue());
    return m_solver.mkTerm(cvc5::Kind::NOT, {a});
  }
  cvc5::Term eq(const cvc5::Term &a, const cvc5::Term &b) {
    return m_solver.mkTerm(cvc5::Kind::EQUAL, {a, b});
  }
  cvc5::Term ult(const cvc5::Term &a, const cvc5::Term &b) { return op(cvc5::Kind::BITVECTOR_ULT, {a, b}); }
  cvc5::Term ule(const cvc5::Term &a, const cvc5::Term &b) { return op(cvc5::Kind::BITVECTOR_ULE, {a, b}); }
  cvc5::Term add(const cvc5::Term &a, const cvc5::Term &b) {
    // Constants fold here: barrier intervals then stay constants, which lets queries between different
    // intervals be answered without the solver.
    unsigned w = width(a);
    if (w <= 64 && a.isBitVectorValue() && b.isBitVectorValue()) {
      std::uint64_t sum = std::stoull(a.getBitVectorValue(10)) + std::stoull(b.getBitVectorValue(10));
      return constant(w, w == 64 ? sum : sum & ((1ull << w) - 1));
    }
    return op(cvc5::Kind::BITVECTOR_ADD, {a, b});
  }
  cvc5::Term mul(const cvc5::Term &a, const cvc5::Term &b) { return op(cvc5::Kind::BITVECTOR_MULT, {a, b}); }

  unsigned width(const cvc5::Term &t) { return t.getSort().getBitVectorSize(); }

  /// `t` zero- or sign-extended, or truncated, to `to` bits. A sign extension of a value whose sign bit is
  /// zero whatever its variables are (upperBound) is a zero extension: the same value, and the solver then
  /// knows the new high bits are zero without reasoning through the arithmetic below them
  /// (`sext(mad24(group_id, step, 4 * lid))` in an address).
  cvc5::Term resize(const cvc5::Term &t, unsigned to, bool isSigned) {
    unsigned from = width(t);
    if (from == to)
      return t;
    if (from > to)
      return m_solver.mkTerm(m_solver.mkOp(cvc5::Kind::BITVECTOR_EXTRACT, {to - 1, 0}), {t});
    if (isSigned && signBitZero(t))
      isSigned = false;
    return m_solver.mkTerm(
        m_solver.mkOp(isSigned ? cvc5::Kind::BITVECTOR_SIGN_EXTEND : cvc5::Kind::BITVECTOR_ZERO_EXTEND,
                      {to - from}),
        {t});
  }
  cvc5::Term extract(const cvc5::Term &t, unsigned hi, unsigned lo) {
    return m_solver.mkTerm(m_solver.mkOp(cvc5::Kind::BITVECTOR_EXTRACT, {hi, lo}), {t});
  }
  cvc5::Term concat(const cvc5::Term &hi, const cvc5::Term &lo) {
    return op(cvc5::Kind::BITVECTOR_CONCAT, {hi, lo});
  }
  /// A boolean as a 1-bit vector and back.
  cvc5::Term toBits(const cvc5::Term &b) { return ite(b, constant(1, 1), constant(1, 0)); }
  cvc5::Term toBool(const cvc5::Term &bits) { return lnot(eq(bits, constant(width(bits), 0))); }

  /// An upper bound on `t`'s unsigned value (a bit-vector of at most 64 bits) for every value of its
  /// variables, by interval arithmetic over its structure; all ones when nothing smaller is known.
  std::uint64_t upperBound(const cvc5::Term &t) { return upperIn(m_structural, t, 0); }
  /// Upper and lower bounds likewise (0 when no larger lower bound is known), also using what
  /// boundVariable was told (the facts the encoding asserts). Kept apart
  /// from upperBound, which chooses the terms resize builds: those choices stay as they were (a zero
  /// extension chosen through an id's asserted range made OpenMM's queries 15 % slower).
  std::uint64_t upperBoundAsserted(const cvc5::Term &t) { return upperIn(m_asserted, t, 0); }
  std::uint64_t lowerBoundAsserted(const cvc5::Term &t) { return lowerIn(m_asserted, t, 0); }

  /// States that the variable `v` is at most `max` in every execution (a fact the encoding asserts, such
  /// as a group id below the number of groups): upperBoundAsserted and lowerBoundAsserted use it.
  void boundVariable(const cvc5::Term &v, std::uint64_t max) {
    m_asserted.upper[v] = std::min(upperIn(m_asserted, v, 0), max);
    m_facts[v] = m_asserted.upper[v];
  }

  /// Unsigned bounds that some terms keep wherever a condition holds (ReachGuards.h reads them off an
  /// access's reach: `j < n` on its path gives j at most n - 1).
  struct Guards {
    std::unordered_map<cvc5::Term, std::uint64_t> upper, lower;
  };
  /// The unsigned interval [lower, upper] of `t` over every value of its variables that keeps `guards` and
  /// what boundVariable was told, by the interval arithmetic of upperBoundAsserted, in tables of this call
  /// alone (the bounds remembered without the guards stay as they were).
  std::pair<std::uint64_t, std::uint64_t> boundsUnder(const cvc5::Term &t, const Guards &guards) {
    BoundTables tables;
    tables.upper.insert(m_facts.begin(), m_facts.end());
    for (const auto &[term, max] : guards.upper)
      tables.upper[term] = std::min(upperIn(m_asserted, term, 0), max);
    for (const auto &[term, min] : guards.lower)
      tables.lower[term] = std::max(lowerIn(m_asserted, term, 0), min);
    return {lowerIn(tables, t, 0), upperIn(tables, t, 0)};
  }

  /// Whether `t`'s sign bit is zero for every value of its variables (by upperBound).
  bool signBitZero(const cvc5::Term &t) { return signBitZeroIn(m_structural, t, 0); }

private:
  struct BoundTables {
    std::unordered_map<cvc5::Term, std::uint64_t> upper, lower;
  };

  bool signBitZeroIn(BoundTables &tables, const cvc5::Term &t, unsigned depth) {
    unsigned w = width(t);
    return w <= 64 && upperIn(tables, t, depth) < (std::uint64_t{1} << (w - 1));
  }

  std::uint64_t upperIn(BoundTables &tables, const cvc5::Term &t, unsigned depth) {
    unsigned w = width(t);
    std::uint64_t all = w >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1;
    if (w > 64 || depth > 200)
      return all;
    if (t.isBitVectorValue())
      return std::stoull(t.getBitVectorValue(10));
    if (auto known = tables.upper.find(t); known != tables.upper.end())
      return known->second;
    std::uint64_t bound = all;
    auto child = [&](std::size_t i) { return upperIn(tables, t[i], depth + 1); };
    auto constantChild = [&](std::size_t i) -> std::optional<std::uint64_t> {
      if (t[i].isBitVectorValue() && width(t[i]) <= 64)
        return std::stoull(t[i].getBitVectorValue(10));
      return std::nullopt;
    };
    switch (t.getKind()) {
    case cvc5::Kind::BITVECTOR_ZERO_EXTEND:
      bound = width(t[0]) <= 64 ? child(0) : all;
      break;
    case cvc5::Kind::BITVECTOR_SIGN_EXTEND:
      if (signBitZeroIn(tables, t[0], depth + 1))
        bound = child(0); // a sign extension of a non-negative value is a zero extension
      break;
    case cvc5::Kind::BITVECTOR_EXTRACT: {
      cvc5::Op op = t.getOp();
      if (op.getNumIndices() == 2 && std::stoul(op[1].getIntegerValue()) == 0 && width(t[0]) <= 64)
        bound = std::min(child(0), all);
      break;
    }
    case cvc5::Kind::BITVECTOR_ADD:
    case cvc5::Kind::BITVECTOR_MULT: {
      // The bounds' sum or product, when it cannot carry out of the width (then no child's value wraps).
      bool add = t.getKind() == cvc5::Kind::BITVECTOR_ADD;
      std::uint64_t folded = add ? 0 : 1;
      bool over = false;
      for (std::size_t i = 0; i < t.getNumChildren() && !over; ++i)
        over = add ? __builtin_add_overflow(folded, child(i), &folded)
                   : __builtin_mul_overflow(folded, child(i), &folded);
      bound = !over && folded <= all ? folded : all;
      break;
    }
    case cvc5::Kind::ITE:
      bound = std::max(child(1), child(2));
      break;
    case cvc5::Kind::BITVECTOR_AND:
      for (std::size_t i = 0; i < t.getNumChildren(); ++i)
        bound = std::min(bound, child(i));
      break;
    case cvc5::Kind::BITVECTOR_LSHR:
      if (auto c = constantChild(1))
        bound = *c >= 64 ? 0 : child(0) >> *c;
      break;
    case cvc5::Kind::BITVECTOR_UREM:
      if (auto c = constantChild(1); c && *c > 0)
        bound = std::min(child(0), *c - 1);
      break;
    case cvc5::Kind::BITVECTOR_UDIV:
      if (auto c = constantChild(1); c && *c > 0)
        bound = child(0) / *c;
      break;
    default:
      break;
    }
    tables.upper.emplace(t, bound);
    return bound;
  }

  /// Sums and products bound below only where upperIn shows they cannot carry out of the width.
  std::uint64_t lowerIn(BoundTables &tables, const cvc5::Term &t, unsigned depth) {
    unsigned w = width(t);
    if (w > 64 || depth > 200)
      return 0;
    if (t.isBitVectorValue())
      return std::stoull(t.getBitVectorValue(10));
    if (auto known = tables.lower.find(t); known != tables.lower.end())
      return known->second;
    std::uint64_t all = w >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1;
    std::uint64_t bound = 0;
    auto child = [&](std::size_t i) { return lowerIn(tables, t[i], depth + 1); };
    switch (t.getKind()) {
    case cvc5::Kind::BITVECTOR_ZERO_EXTEND:
      bound = width(t[0]) <= 64 ? child(0) : 0;
      break;
    case cvc5::Kind::BITVECTOR_SIGN_EXTEND:
      if (signBitZeroIn(tables, t[0], depth + 1))
        bound = child(0);
      break;
    case cvc5::Kind::BITVECTOR_ADD:
    case cvc5::Kind::BITVECTOR_MULT:
      // Without carry out of the width (upperBound below all ones), the bounds' sum or product bounds it.
      if (upperIn(tables, t, depth) < all) {
        bool add = t.getKind() == cvc5::Kind::BITVECTOR_ADD;
        bound = add ? 0 : 1;
        for (std::size_t i = 0; i < t.getNumChildren(); ++i)
          bound = add ? bound + child(i) : bound * child(i);
      }
      break;
    case cvc5::Kind::ITE:
      bound = std::min(child(1), child(2));
      break;
    case cvc5::Kind::BITVECTOR_LSHR:
      if (t[1].isBitVectorValue() && width(t[1]) <= 64) {
        std::uint64_t c = std::stoull(t[1].getBitVectorValue(10));
        bound = c >= 64 ? 0 : child(0) >> c;
      }
      break;
    case cvc5::Kind::BITVECTOR_UDIV:
      if (t[1].isBitVectorValue() && width(t[1]) <= 64 && std::stoull(t[1].getBitVectorValue(10)) > 0)
        bound = child(0) / std::stoull(t[1].getBitVectorValue(10));
      break;
    default:
      break;
    }
    tables.lower.emplace(t, bound);
    return bound;
  }

  BoundTables m_structural, m_asserted;
  std::unordered_map<cvc5::Term, std::uint64_t> m_facts; ///< what boundVariable was told, alone
  cvc5::Solver &m_solver;
  std::map<std::string, unsigned> m_names;
};

/// `offset` is origin + k·size with the whole word inside [origin, origin + bytes) (bytes ≥ size): a read
/// there is one of the region's words of that size, whole.
inline cvc5::Term wholeWordAt(TermFactory &tf, const cvc5::Term &offset, std::uint64_t origin,
                              std::uint64_t bytes, unsigned size) {
  cvc5::Term from = tf.op(cvc5::Kind::BITVECTOR_SUB, {offset, tf.constant(64, origin)});
  cvc5::Term aligned =
      (size & (size - 1)) == 0
          ? tf.eq(tf.op(cvc5::Kind::BITVECTOR_AND, {from, tf.constant(64, size - 1)}), tf.constant(64, 0))
          : tf.eq(tf.op(cvc5::Kind::BITVECTOR_UREM, {from, tf.constant(64, size)}), tf.constant(64, 0));
  return tf.land(
      tf.land(tf.ule(tf.constant(64, origin), offset), tf.ule(from, tf.constant(64, bytes - size))), aligned);
}

/// Whether `t` is a multiple of `size` by its form: a constant multiple, a product or left shift with such a
/// factor, a sum or ite of such terms. False when the form does not show it.
inline bool isMultipleOf(const cvc5::Term &t, unsigned size, int depth = 0) {
  if (size <= 1)
    return true;
  if (depth > 32 || (size & (size - 1)) != 0)
    return false;
  if (t.isBitVectorValue())
    return std::stoull(t.getBitVectorValue(10)) % size == 0;
  switch (t.getKind()) {
  case cvc5::Kind::BITVECTOR_MULT:
    for (const cvc5::Term &c : t)
      if (isMultipleOf(c, size, depth + 1))
        return true;
    return false;
  case cvc5::Kind::BITVECTOR_SHL: {
    cvc5::Term by = t[1];
    if (isMultipleOf(t[0], size, depth + 1))
      return true;
    return by.isBitVectorValue() &&
           (1ull << std::min<std::uint64_t>(std::stoull(by.getBitVectorValue(10)), 63)) % size == 0;
  }
  case cvc5::Kind::BITVECTOR_ADD:
    for (const cvc5::Term &c : t)
      if (!isMultipleOf(c, size, depth + 1))
        return false;
    return true;
  case cvc5::Kind::ITE:
    return isMultipleOf(t[1], size, depth + 1) && isMultipleOf(t[2], size, depth + 1);
  default:
    return false;
  }
}

namespace detail {

/// The value of a bit-vector constant of at most 64 bits.
inline std::uint64_t constantOf(const cvc5::Term &t) {
  return std::stoull(t.getBitVectorValue(10));
}

} // namespace detail

inline cvc5::Term chooseBeyondArray(TermFactory &tf, const cvc5::Term &c, const SymPointer &a,
                                    const SymPointer &b) {
  if (a.beyondArray.isNull() && b.beyondArray.isNull())
    return {};
  cvc5::Term no = tf.boolean(false);
  return tf.ite(c, a.beyondArray.isNull() ? no : a.beyondArray, b.beyondArray.isNull() ? no : b.beyondArray);
}

} // namespace clcapture::encode
