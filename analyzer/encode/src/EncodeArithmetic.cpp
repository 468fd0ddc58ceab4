//===- EncodeArithmetic.cpp - Integer arithmetic, comparisons, casts, select, vector lanes -===//

#include "ThreadEncoderImpl.h"

namespace clcapture::encode {

format::Status ThreadEncoder::visitCastInst(llvm::CastInst &inst) {
  using namespace llvm;
  auto *cast = &inst;
  Type *to = cast->getType();
  if (to->isPointerTy()) {
    if (!cast->getOperand(0)->getType()->isPointerTy())
      return format::fail("an integer turned into a pointer at " + placeOf(&inst));
    auto p = pointer(cast->getOperand(0));
    if (!p)
      return format::fail("a pointer the encoder cannot follow at " + placeOf(&inst));
    if (isa<AddrSpaceCastInst>(cast) &&
        to->getPointerAddressSpace() != static_cast<unsigned>(MemorySpace::Generic))
      p->space = static_cast<MemorySpace>(to->getPointerAddressSpace());
    m_pointers[&inst] = *p;
    return {};
  }
  if (cast->getOperand(0)->getType()->isPointerTy()) {
    auto p = pointer(cast->getOperand(0));
    if (!p || to->isVectorTy() || !to->isIntegerTy() || to->isIntegerTy(1)) {
      unknownResult(inst, "an address turned into an integer");
      return {};
    }
    m_values[&inst] =
        addressBits(*p, to->getIntegerBitWidth(), "an address turned into an integer at " + placeOf(&inst));
    return {};
  }
  auto v = operandValue(inst, 0);
  if (v && (isa<FPToSIInst>(cast) || isa<FPToUIInst>(cast)) && to->isIntegerTy() && !to->isIntegerTy(1))
    return encodeFloatToInteger(inst, *v);
  if (!v || to->isVectorTy() || cast->getOperand(0)->getType()->isVectorTy() || to->isFloatingPointTy() ||
      cast->getOperand(0)->getType()->isFloatingPointTy()) {
    // Bit-casts between same-sized scalars keep the bits; conversions to and from floating point do not
    // matter to addresses and are left unknown.
    if (v && isa<BitCastInst>(cast) && !to->isVectorTy() && !cast->getOperand(0)->getType()->isVectorTy()) {
      m_values[&inst] = *v;
      return {};
    }
    unknownResult(inst, "a floating-point or vector value");
    return {};
  }
  cvc5::Term t = v->term;
  unsigned bits = to->getIntegerBitWidth();
  switch (cast->getOpcode()) {
  case Instruction::Trunc:
    if (bits == 1)
      t = m_tf.toBool(m_tf.resize(t, 1, false));
    else
      t = m_tf.resize(t, bits, false);
    break;
  case Instruction::ZExt:
  case Instruction::SExt: {
    bool isSigned = cast->getOpcode() == Instruction::SExt;
    if (t.getSort().isBoolean())
      t = isSigned ? m_tf.ite(t, m_tf.constant(bits, ~0ull >> (64 - bits)), m_tf.constant(bits, 0))
                   : m_tf.ite(t, m_tf.constant(bits, 1), m_tf.constant(bits, 0));
    else
      t = m_tf.resize(t, bits, isSigned);
    break;
  }
  default:
    unknownResult(inst, "a conversion");
    return {};
  }
  m_values[&inst] = SymValue{t, v->how};
  return {};
}

namespace {

/// Whether `t` has a constant or an array read among its subterms (at most 4,096 looked at: past that, yes).
bool mentionsDataOrConstants(const cvc5::Term &t) {
  std::vector<cvc5::Term> todo{t};
  for (unsigned seen = 0; !todo.empty(); ++seen) {
    if (seen > 4096)
      return true;
    cvc5::Term u = todo.back();
    todo.pop_back();
    if (u.isBitVectorValue() || u.getKind() == cvc5::Kind::SELECT)
      return true;
    for (const cvc5::Term &child : u)
      todo.push_back(child);
  }
  return false;
}

} // namespace

/// `(int) x` of a half, float or double scalar (fptosi, fptoui): the value rounded toward zero (C99
/// 6.3.1.4), exact while it fits the integer type. Out of range or NaN the result is implementation-defined
/// (OpenCL 1.2 §6.2.3.3): the solver's conversion is then any value, and a witness must avoid it (a guard,
/// docs/semantics.md row 21).
format::Status ThreadEncoder::encodeFloatToInteger(llvm::CastInst &inst, const SymValue &v) {
  llvm::Type *from = inst.getOperand(0)->getType();
  unsigned exponent = from->isHalfTy() ? 5 : from->isFloatTy() ? 8 : from->isDoubleTy() ? 11 : 0;
  unsigned significand = from->isHalfTy() ? 11 : from->isFloatTy() ? 24 : from->isDoubleTy() ? 53 : 0;
  unsigned bits = inst.getType()->getIntegerBitWidth();
  if (!exponent || v.term.getSort().isBoolean() || m_tf.width(v.term) != exponent + significand ||
      bits > 64) {
    unknownResult(inst, "a floating-point conversion");
    return {};
  }
  // An operand built from free symbols alone (floating-point arithmetic is not modelled: its result is any
  // value) converts to any value: a fresh one says so without the conversion's terms, which only slow the
  // solver (clFFT transpose_square's (size_t)row, a choice between two such values: 1.6 s → 18.5 s with
  // them). Captured words (constants) and memory reads (array selects) are what the conversion is for.
  if (!mentionsDataOrConstants(v.term)) {
    unknownResult(inst, "a floating-point or vector value");
    return {};
  }
  bool isSigned = llvm::isa<llvm::FPToSIInst>(inst);
  cvc5::Solver &solver = m_tf.solver();
  cvc5::Term x = solver.mkTerm(
      solver.mkOp(cvc5::Kind::FLOATINGPOINT_TO_FP_FROM_IEEE_BV, {exponent, significand}), {v.term});
  cvc5::Term rtz = solver.mkRoundingMode(cvc5::RoundingMode::ROUND_TOWARD_ZERO);
  cvc5::Term result = solver.mkTerm(
      solver.mkOp(isSigned ? cvc5::Kind::FLOATINGPOINT_TO_SBV : cvc5::Kind::FLOATINGPOINT_TO_UBV, {bits}),
      {rtz, x});
  // In range: x is a number and its truncation lies in [least, greatest], i.e. x < 2^top and x ≥ −2^top
  // (signed) or x > −1 (unsigned). Powers of two are exact in every format; where 2^top lies beyond the
  // format (half to a 32-bit int), every finite x is below it.
  auto power = [&](int e, bool negative) { // ±2^e, e at most the format's greatest exponent
    std::uint64_t biased = static_cast<std::uint64_t>(e + (1 << (exponent - 1)) - 1);
    std::uint64_t ieee = (static_cast<std::uint64_t>(negative) << (exponent + significand - 1)) |
                         (biased << (significand - 1));
    return solver.mkTerm(solver.mkOp(cvc5::Kind::FLOATINGPOINT_TO_FP_FROM_IEEE_BV, {exponent, significand}),
                         {m_tf.constant(exponent + significand, ieee)});
  };
  int greatestExponent = (1 << (exponent - 1)) - 1;
  int top = static_cast<int>(isSigned ? bits - 1 : bits);
  cvc5::Term inRange = m_tf.lnot(m_tf.lor(solver.mkTerm(cvc5::Kind::FLOATINGPOINT_IS_NAN, {x}),
                                          solver.mkTerm(cvc5::Kind::FLOATINGPOINT_IS_INF, {x})));
  if (top <= greatestExponent) {
    inRange = m_tf.land(inRange, solver.mkTerm(cvc5::Kind::FLOATINGPOINT_LT, {x, power(top, false)}));
    if (isSigned)
      inRange = m_tf.land(inRange, solver.mkTerm(cvc5::Kind::FLOATINGPOINT_GEQ, {x, power(top, true)}));
  }
  if (!isSigned)
    inRange = m_tf.land(inRange, solver.mkTerm(cvc5::Kind::FLOATINGPOINT_GT, {x, power(0, true)}));
  guard(inst, m_tf.lnot(inRange),
        "a floating-point value out of its integer type's range converted at " + placeOf(&inst));
  m_values[&inst] = SymValue{result, v.how};
  return {};
}

format::Status ThreadEncoder::visitBinaryOperator(llvm::BinaryOperator &inst) {
  using namespace llvm;
  auto *bin = &inst;
  auto *vectorType = dyn_cast<FixedVectorType>(bin->getType());
  bool integerVector = vectorType && vectorType->getElementType()->isIntegerTy() &&
                       !vectorType->getElementType()->isIntegerTy(1);
  if (!bin->getType()->isIntegerTy() && !integerVector) {
    unknownResult(inst, "a floating-point value");
    return {};
  }
  auto a = operandValue(inst, 0), b = operandValue(inst, 1);
  if (!a || !b) {
    unknownResult(inst, "an operand the encoder does not model");
    return {};
  }
  Exactness how = a->how & b->how;
  if (a->term.getSort().isBoolean()) {
    cvc5::Kind k;
    switch (bin->getOpcode()) {
    case Instruction::And:
      k = cvc5::Kind::AND;
      break;
    case Instruction::Or:
      k = cvc5::Kind::OR;
      break;
    case Instruction::Xor:
      k = cvc5::Kind::XOR;
      break;
    default:
      unknownResult(inst, "an arithmetic on booleans");
      return {};
    }
    m_values[&inst] = SymValue{m_tf.op(k, {a->term, b->term}), how};
    return {};
  }
  cvc5::Kind k;
  switch (bin->getOpcode()) {
  case Instruction::Add:
    k = cvc5::Kind::BITVECTOR_ADD;
    break;
  case Instruction::Sub:
    k = cvc5::Kind::BITVECTOR_SUB;
    break;
  case Instruction::Mul:
    k = cvc5::Kind::BITVECTOR_MULT;
    break;
  case Instruction::UDiv:
    k = cvc5::Kind::BITVECTOR_UDIV;
    break;
  case Instruction::SDiv:
    k = cvc5::Kind::BITVECTOR_SDIV;
    break;
  case Instruction::URem:
    k = cvc5::Kind::BITVECTOR_UREM;
    break;
  case Instruction::SRem:
    k = cvc5::Kind::BITVECTOR_SREM;
    break;
  case Instruction::Shl:
    k = cvc5::Kind::BITVECTOR_SHL;
    break;
  case Instruction::LShr:
    k = cvc5::Kind::BITVECTOR_LSHR;
    break;
  case Instruction::AShr:
    k = cvc5::Kind::BITVECTOR_ASHR;
    break;
  case Instruction::And:
    k = cvc5::Kind::BITVECTOR_AND;
    break;
  case Instruction::Or:
    k = cvc5::Kind::BITVECTOR_OR;
    break;
  case Instruction::Xor:
    k = cvc5::Kind::BITVECTOR_XOR;
    break;
  default:
    unknownResult(inst, "an operation the encoder does not model");
    return {};
  }
  // OpenCL 1.2 §6.3: "A divide by zero with integer types does not cause an exception but will result in
  // an unspecified value". SMT-LIB fixes x / 0 and x % 0, so a divisor that may be 0 gives a fresh value
  // there (sound for proofs), and a witness must not divide by zero (guard).
  bool division = k == cvc5::Kind::BITVECTOR_UDIV || k == cvc5::Kind::BITVECTOR_SDIV ||
                  k == cvc5::Kind::BITVECTOR_UREM || k == cvc5::Kind::BITVECTOR_SREM;
  cvc5::Term byZero = m_tf.boolean(false);
  auto apply = [&](const cvc5::Term &x, const cvc5::Term &y) {
    cvc5::Term r = m_tf.op(k, {x, y});
    if (!division || (y.isBitVectorValue() && y.getBitVectorValue(2).find('1') != std::string::npos))
      return r;
    cvc5::Term zero = m_tf.eq(y, m_tf.constant(m_tf.width(y), 0));
    byZero = m_tf.lor(byZero, zero);
    return m_tf.ite(zero, m_tf.fresh(y.getSort(), name("quotient" + std::to_string(m_fresh++))), r);
  };
  cvc5::Term out;
  if (integerVector) {
    // Lane by lane: no carry or shift crosses from one lane into the next.
    unsigned lanes = vectorType->getNumElements();
    unsigned bits = a->term.getSort().getBitVectorSize() / lanes;
    for (unsigned i = 0; i < lanes; ++i) {
      cvc5::Term r = apply(m_tf.extract(a->term, (i + 1) * bits - 1, i * bits),
                           m_tf.extract(b->term, (i + 1) * bits - 1, i * bits));
      out = i == 0 ? r : m_tf.concat(r, out);
    }
  } else {
    out = apply(a->term, b->term);
  }
  guard(inst, byZero, "a division by zero at " + placeOf(&inst));
  m_values[&inst] = SymValue{out, how};
  return {};
}

/// A floating-point comparison, exactly (IEEE 754 on the operands' bits, OpenCL 1.2 §6.3 relational
/// operators): ordered predicates are false on a NaN, unordered ones true. Scalars of half, float and
/// double only; fast-math flags (no NaNs, no infinities) make such operands undefined, so the result is then
/// marked inexact.
format::Status ThreadEncoder::visitFCmpInst(llvm::FCmpInst &inst) {
  using namespace llvm;
  Type *type = inst.getOperand(0)->getType();
  auto a = operandValue(inst, 0), b = operandValue(inst, 1);
  unsigned exponent = 0, significand = 0;
  if (type->isHalfTy()) {
    exponent = 5;
    significand = 11;
  } else if (type->isFloatTy()) {
    exponent = 8;
    significand = 24;
  } else if (type->isDoubleTy()) {
    exponent = 11;
    significand = 53;
  }
  if (!a || !b || !exponent || a->term.getSort().isBoolean() || b->term.getSort().isBoolean() ||
      m_tf.width(a->term) != exponent + significand || m_tf.width(b->term) != exponent + significand) {
    unknownResult(inst, "a floating-point comparison at " + placeOf(&inst));
    return {};
  }
  cvc5::Solver &solver = m_tf.solver();
  auto fp = [&](const cvc5::Term &bits) {
    return solver.mkTerm(solver.mkOp(cvc5::Kind::FLOATINGPOINT_TO_FP_FROM_IEEE_BV, {exponent, significand}),
                         {bits});
  };
  cvc5::Term x = fp(a->term), y = fp(b->term);
  cvc5::Term unordered = m_tf.lor(solver.mkTerm(cvc5::Kind::FLOATINGPOINT_IS_NAN, {x}),
                                  solver.mkTerm(cvc5::Kind::FLOATINGPOINT_IS_NAN, {y}));
  auto rel = [&](cvc5::Kind k) { return solver.mkTerm(k, {x, y}); };
  cvc5::Term eq = rel(cvc5::Kind::FLOATINGPOINT_EQ), lt = rel(cvc5::Kind::FLOATINGPOINT_LT),
             le = rel(cvc5::Kind::FLOATINGPOINT_LEQ), gt = rel(cvc5::Kind::FLOATINGPOINT_GT),
             ge = rel(cvc5::Kind::FLOATINGPOINT_GEQ);
  cvc5::Term r;
  switch (inst.getPredicate()) {
  case CmpInst::FCMP_FALSE:
    r = m_tf.boolean(false);
    break;
  case CmpInst::FCMP_TRUE:
    r = m_tf.boolean(true);
    break;
  case CmpInst::FCMP_OEQ:
    r = eq;
    break; // false on NaN already
  case CmpInst::FCMP_OGT:
    r = gt;
    break;
  case CmpInst::FCMP_OGE:
    r = ge;
    break;
  case CmpInst::FCMP_OLT:
    r = lt;
    break;
  case CmpInst::FCMP_OLE:
    r = le;
    break;
  case CmpInst::FCMP_ONE:
    r = m_tf.land(m_tf.lnot(unordered), m_tf.lnot(eq));
    break;
  case CmpInst::FCMP_ORD:
    r = m_tf.lnot(unordered);
    break;
  case CmpInst::FCMP_UEQ:
    r = m_tf.lor(unordered, eq);
    break;
  case CmpInst::FCMP_UGT:
    r = m_tf.lor(unordered, gt);
    break;
  case CmpInst::FCMP_UGE:
    r = m_tf.lor(unordered, ge);
    break;
  case CmpInst::FCMP_ULT:
    r = m_tf.lor(unordered, lt);
    break;
  case CmpInst::FCMP_ULE:
    r = m_tf.lor(unordered, le);
    break;
  case CmpInst::FCMP_UNE:
    r = m_tf.lnot(eq);
    break; // true on NaN
  case CmpInst::FCMP_UNO:
    r = unordered;
    break;
  default:
    unknownResult(inst, "a floating-point comparison at " + placeOf(&inst));
    return {};
  }
  Exactness how = a->how & b->how;
  if (inst.hasNoNaNs() || inst.hasNoInfs())
    how = how & Exactness{"a floating-point comparison under fast-math flags at " + placeOf(&inst)};
  m_values[&inst] = SymValue{r, how};
  return {};
}

format::Status ThreadEncoder::visitICmpInst(llvm::ICmpInst &inst) {
  using namespace llvm;
  auto *cmp = &inst;
  if (cmp->getOperand(0)->getType()->isPointerTy()) {
    auto p = pointer(cmp->getOperand(0)), q = pointer(cmp->getOperand(1));
    if (!p || !q || (!cmp->isEquality() && !cmp->isUnsigned())) {
      unknownResult(inst, "a comparison of addresses");
      return {};
    }
    cvc5::Term sameObject = m_tf.eq(p->object, q->object);
    if (cmp->isEquality()) {
      cvc5::Term same = m_tf.land(sameObject, m_tf.eq(p->offset, q->offset));
      m_values[&inst] =
          SymValue{cmp->getPredicate() == ICmpInst::ICMP_EQ ? same : m_tf.lnot(same), p->how & q->how};
      return {};
    }
    // An ordering of addresses (C99 6.5.8: defined between pointers into one object, where the offsets
    // decide). The null pointer is address 0, and a global or constant buffer never lies there (row 12 of
    // docs/semantics.md), so such a pointer is above NULL; local and private memory may start at address
    // 0. Anything else (two objects) is an unknown that a witness must not rest on (guard).
    auto order = [&](const cvc5::Term &x, const cvc5::Term &y) {
      switch (cmp->getPredicate()) {
      case ICmpInst::ICMP_ULT:
        return m_tf.ult(x, y);
      case ICmpInst::ICMP_ULE:
        return m_tf.ule(x, y);
      case ICmpInst::ICMP_UGT:
        return m_tf.ult(y, x);
      default:
        return m_tf.ule(y, x);
      }
    };
    cvc5::Term known = sameObject;
    cvc5::Term unknown =
        m_tf.fresh(m_tf.solver().getBooleanSort(), name("address_order" + std::to_string(m_fresh++)));
    cvc5::Term result = unknown;
    auto globalSpace = [](MemorySpace sp) {
      return sp == MemorySpace::Global || sp == MemorySpace::Constant;
    };
    if (globalSpace(p->space) && globalSpace(q->space)) {
      cvc5::Term null = m_tf.constant(64, kNullObject), zero = m_tf.constant(64, 0),
                 one = m_tf.constant(64, 1);
      auto isNull = [&](const SymPointer &x) {
        return m_tf.land(m_tf.eq(x.object, null), m_tf.eq(x.offset, zero));
      };
      auto intoObject = [&](const SymPointer &x) { return m_tf.lnot(m_tf.eq(x.object, null)); };
      cvc5::Term pAbove = m_tf.land(intoObject(*p), isNull(*q)),
                 qAbove = m_tf.land(isNull(*p), intoObject(*q));
      result = m_tf.ite(pAbove, order(one, zero), m_tf.ite(qAbove, order(zero, one), result));
      known = m_tf.lor(known, m_tf.lor(pAbove, qAbove));
    }
    result = m_tf.ite(sameObject, order(p->offset, q->offset), result);
    guard(inst, m_tf.lnot(known), "a comparison of addresses of different objects at " + placeOf(&inst));
    m_values[&inst] = SymValue{result, p->how & q->how};
    return {};
  }
  auto a = operandValue(inst, 0), b = operandValue(inst, 1);
  if (!a || !b || cmp->getOperand(0)->getType()->isVectorTy()) {
    unknownResult(inst, "a comparison the encoder does not model");
    return {};
  }
  cvc5::Term x = a->term, y = b->term;
  if (x.getSort().isBoolean()) {
    x = m_tf.toBits(x);
    y = m_tf.toBits(y);
  }
  cvc5::Term t;
  switch (cmp->getPredicate()) {
  case ICmpInst::ICMP_EQ:
    t = m_tf.eq(x, y);
    break;
  case ICmpInst::ICMP_NE:
    t = m_tf.lnot(m_tf.eq(x, y));
    break;
  case ICmpInst::ICMP_ULT:
    t = m_tf.op(cvc5::Kind::BITVECTOR_ULT, {x, y});
    break;
  case ICmpInst::ICMP_ULE:
    t = m_tf.op(cvc5::Kind::BITVECTOR_ULE, {x, y});
    break;
  case ICmpInst::ICMP_UGT:
    t = m_tf.op(cvc5::Kind::BITVECTOR_UGT, {x, y});
    break;
  case ICmpInst::ICMP_UGE:
    t = m_tf.op(cvc5::Kind::BITVECTOR_UGE, {x, y});
    break;
  case ICmpInst::ICMP_SLT:
    t = m_tf.op(cvc5::Kind::BITVECTOR_SLT, {x, y});
    break;
  case ICmpInst::ICMP_SLE:
    t = m_tf.op(cvc5::Kind::BITVECTOR_SLE, {x, y});
    break;
  case ICmpInst::ICMP_SGT:
    t = m_tf.op(cvc5::Kind::BITVECTOR_SGT, {x, y});
    break;
  case ICmpInst::ICMP_SGE:
    t = m_tf.op(cvc5::Kind::BITVECTOR_SGE, {x, y});
    break;
  default:
    unknownResult(inst, "a comparison");
    return {};
  }
  m_values[&inst] = SymValue{t, a->how & b->how};
  return {};
}

format::Status ThreadEncoder::visitSelectInst(llvm::SelectInst &inst) {
  using namespace llvm;
  auto *sel = &inst;
  auto c = value(sel->getCondition());
  if (!c || sel->getCondition()->getType()->isVectorTy()) {
    unknownResult(inst, "a selection the encoder does not model");
    return {};
  }
  if (sel->getType()->isPointerTy()) {
    auto p = pointer(sel->getTrueValue()), q = pointer(sel->getFalseValue());
    if (!p || !q || p->space != q->space)
      return format::fail("a pointer selected between objects the encoder cannot follow at " +
                          placeOf(&inst));
    SymPointer r = *p;
    r.object = m_tf.ite(c->term, p->object, q->object);
    r.offset = m_tf.ite(c->term, p->offset, q->offset);
    r.beyondArray = chooseBeyondArray(m_tf, c->term, *p, *q);
    r.how = c->how & p->how & q->how;
    m_pointers[&inst] = r;
    return {};
  }
  auto t = value(sel->getTrueValue()), f = value(sel->getFalseValue());
  if (!t || !f) {
    unknownResult(inst, "a selection the encoder does not model");
    return {};
  }
  m_values[&inst] = SymValue{m_tf.ite(c->term, t->term, f->term), c->how & t->how & f->how};
  return {};
}

format::Status ThreadEncoder::visitFreezeInst(llvm::FreezeInst &inst) {
  if (auto v = operandValue(inst, 0))
    m_values[&inst] = *v;
  else
    unknownResult(inst, "a frozen value");
  return {};
}

format::Status ThreadEncoder::visitFenceInst(llvm::FenceInst &) {
  return {};
}

namespace {

/// A vector <N x iK> (or of floats) is one bit-vector of N·K bits, lane i in bits [i·K, (i+1)·K): inserting,
/// extracting and shuffling lanes at constant positions are exact; anything else is an unknown.
unsigned laneBits(const llvm::DataLayout &layout, llvm::Type *vector) {
  auto *v = llvm::dyn_cast<llvm::FixedVectorType>(vector);
  if (!v || v->getElementType()->isIntegerTy(1))
    return 0;
  return static_cast<unsigned>(layout.getTypeSizeInBits(v->getElementType()).getFixedValue());
}

cvc5::Term lane(TermFactory &tf, const cvc5::Term &vec, unsigned bits, unsigned i) {
  return tf.extract(vec, (i + 1) * bits - 1, i * bits);
}

cvc5::Term joinLanes(TermFactory &tf, const std::vector<cvc5::Term> &lanes) { // lane 0 in the low bits
  cvc5::Term out = lanes[0];
  for (std::size_t i = 1; i < lanes.size(); ++i)
    out = tf.concat(lanes[i], out);
  return out;
}

} // namespace

format::Status ThreadEncoder::visitInsertElementInst(llvm::InsertElementInst &inst) {
  using namespace llvm;
  auto *ins = &inst;
  auto notLanes = [&]() -> format::Status {
    unknownResult(inst, "a value the encoder does not model");
    return {};
  };
  unsigned bits = laneBits(m_s.layout, ins->getType());
  auto *index = dyn_cast<ConstantInt>(ins->getOperand(2));
  std::optional<SymValue> vec;
  if (isa<UndefValue>(ins->getOperand(0))) // building a vector lane by lane (or a splat): start from zeros
    vec = SymValue{
        m_tf.constant(static_cast<unsigned>(m_s.layout.getTypeSizeInBits(ins->getType()).getFixedValue()), 0),
        {}};
  else if (auto *c = dyn_cast<Constant>(ins->getOperand(0)); c && bits) {
    // A constant vector with undefined lanes, the rest filled in lane by lane — `(int2)(0, y)` is
    // insertelement <0, poison>, y, 1: its undefined lanes start from zero, like an undefined vector.
    unsigned n = cast<FixedVectorType>(ins->getType())->getNumElements();
    std::vector<cvc5::Term> lanes;
    for (unsigned i = 0; i < n; ++i) {
      Constant *e = c->getAggregateElement(i);
      std::optional<SymValue> v;
      if (e && isa<UndefValue>(e))
        v = SymValue{m_tf.constant(bits, 0), {}};
      else if (e && (isa<ConstantInt>(e) || isa<ConstantFP>(e)))
        v = value(e);
      if (!v || !v->how.exact() || v->term.getSort().isBoolean()) {
        lanes.clear();
        break;
      }
      lanes.push_back(v->term);
    }
    vec = lanes.size() == n ? std::optional<SymValue>(SymValue{joinLanes(m_tf, lanes), {}})
                            : value(ins->getOperand(0));
  } else
    vec = value(ins->getOperand(0));
  auto elt = value(ins->getOperand(1));
  if (!bits || !index || !vec || !elt || elt->term.getSort().isBoolean())
    return notLanes();
  unsigned n = cast<FixedVectorType>(ins->getType())->getNumElements();
  std::vector<cvc5::Term> lanes;
  for (unsigned i = 0; i < n; ++i)
    lanes.push_back(i == index->getZExtValue() ? elt->term : lane(m_tf, vec->term, bits, i));
  m_values[&inst] = SymValue{joinLanes(m_tf, lanes), vec->how & elt->how};
  return {};
}

format::Status ThreadEncoder::visitExtractElementInst(llvm::ExtractElementInst &inst) {
  using namespace llvm;
  auto *ext = &inst;
  auto notLanes = [&]() -> format::Status {
    unknownResult(inst, "a value the encoder does not model");
    return {};
  };
  unsigned bits = laneBits(m_s.layout, ext->getVectorOperandType());
  auto *index = dyn_cast<ConstantInt>(ext->getIndexOperand());
  auto vec = value(ext->getVectorOperand());
  if (!bits || !index || !vec)
    return notLanes();
  m_values[&inst] =
      SymValue{lane(m_tf, vec->term, bits, static_cast<unsigned>(index->getZExtValue())), vec->how};
  return {};
}

format::Status ThreadEncoder::visitShuffleVectorInst(llvm::ShuffleVectorInst &inst) {
  using namespace llvm;
  auto *shuf = &inst;
  auto notLanes = [&]() -> format::Status {
    unknownResult(inst, "a value the encoder does not model");
    return {};
  };
  unsigned bits = laneBits(m_s.layout, shuf->getType());
  // An undefined operand is never picked by a defined mask entry; its lanes can be anything: zeros.
  auto operandOrZero = [&](llvm::Value *v) -> std::optional<SymValue> {
    if (isa<UndefValue>(v))
      return SymValue{
          m_tf.constant(static_cast<unsigned>(m_s.layout.getTypeSizeInBits(v->getType()).getFixedValue()), 0),
          {}};
    return value(v);
  };
  auto a = operandOrZero(shuf->getOperand(0)), b = operandOrZero(shuf->getOperand(1));
  if (!bits || !a || !b)
    return notLanes();
  unsigned inputs = cast<FixedVectorType>(shuf->getOperand(0)->getType())->getNumElements();
  std::vector<cvc5::Term> lanes;
  Exactness how = a->how & b->how;
  for (int m : shuf->getShuffleMask()) {
    if (m < 0) {
      lanes.push_back(m_tf.fresh(m_tf.bv(bits), name("undef_lane")));
      how = how & Exactness{"an undefined vector lane at " + placeOf(&inst)};
    } else {
      unsigned u = static_cast<unsigned>(m);
      lanes.push_back(u < inputs ? lane(m_tf, a->term, bits, u) : lane(m_tf, b->term, bits, u - inputs));
    }
  }
  m_values[&inst] = SymValue{joinLanes(m_tf, lanes), how};
  return {};
}

} // namespace clcapture::encode
