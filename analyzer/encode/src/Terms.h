//===- Terms.h - Symbolic values and the CVC5 term helpers the encoder uses -*- C++ -*-===//
//
// Internal to encode/. A symbolic value is a CVC5 term plus whether it is exact (a function of work-item
// ids, captured values and loop iteration variables only) and, if not, the first abstraction it went
// through, named for the user ("value read from global memory at k.cl:12").
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cvc5/cvc5.h>

#include <cstdint>
#include <map>
#include <string>

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

enum class Space { Private = 0, Global = 1, Constant = 2, Local = 3, Generic = 4 };

/// A pointer: the object it points into and a byte offset, both terms (an object id is a 64-bit constant
/// when the pointer's provenance is known, an ite when it depends on control flow).
struct SymPointer {
  Space space = Space::Private;
  cvc5::Term object;
  cvc5::Term offset; ///< 64-bit
  Exactness how;
};

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
  cvc5::Term op(cvc5::Kind kind, const std::vector<cvc5::Term> &children) { return m_solver.mkTerm(kind, children); }
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
  cvc5::Term eq(const cvc5::Term &a, const cvc5::Term &b) { return m_solver.mkTerm(cvc5::Kind::EQUAL, {a, b}); }
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

  /// `t` zero- or sign-extended, or truncated, to `to` bits.
  cvc5::Term resize(const cvc5::Term &t, unsigned to, bool isSigned) {
    unsigned from = width(t);
    if (from == to)
      return t;
    if (from > to)
      return m_solver.mkTerm(m_solver.mkOp(cvc5::Kind::BITVECTOR_EXTRACT, {to - 1, 0}), {t});
    return m_solver.mkTerm(
        m_solver.mkOp(isSigned ? cvc5::Kind::BITVECTOR_SIGN_EXTEND : cvc5::Kind::BITVECTOR_ZERO_EXTEND, {to - from}),
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

private:
  cvc5::Solver &m_solver;
  std::map<std::string, unsigned> m_names;
};

} // namespace clcapture::encode
