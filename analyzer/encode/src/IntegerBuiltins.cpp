//===- IntegerBuiltins.cpp - min, max, clamp, abs, mul24, mad24, exactly -===//

#include "ThreadEncoderImpl.h"

namespace clcapture::encode {

std::optional<SymValue> ThreadEncoder::integerBuiltin(llvm::CallBase &call, const std::string &name) {
  // Scalars, and vectors lane by lane (a vector is one value, lane 0 in the low bits: row 14).
  llvm::Type *type = call.getType();
  auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
  llvm::Type *element = vector ? vector->getElementType() : type;
  if (!element->isIntegerTy() || element->isIntegerTy(1))
    return std::nullopt;
  if (name != "min" && name != "max" && name != "clamp" && name != "abs" && name != "mul24" &&
      name != "mad24")
    return std::nullopt;
  // Signedness from the first parameter's mangled type: _Z3minii (int), _Z3minjj (uint), _Z3minmm (ulong),
  // _Z5mad24Dv4_iS_S_ (int4).
  std::string mangled = call.getCalledFunction()->getName().str();
  std::size_t at = 2, length = 0;
  while (at < mangled.size() && mangled[at] >= '0' && mangled[at] <= '9')
    length = length * 10 + static_cast<std::size_t>(mangled[at++] - '0');
  at += length;
  if (mangled.rfind("_Z", 0) != 0 || at >= mangled.size())
    return std::nullopt;
  if (vector) {
    if (mangled.compare(at, 2, "Dv") != 0)
      return std::nullopt;
    at = mangled.find('_', at);
    if (at == std::string::npos || ++at >= mangled.size())
      return std::nullopt;
  }
  char mangledType = mangled[at];
  bool isSigned = mangledType == 'c' || mangledType == 'a' || mangledType == 's' || mangledType == 'i' ||
                  mangledType == 'l';
  if (!isSigned && mangledType != 'h' && mangledType != 't' && mangledType != 'j' && mangledType != 'm')
    return std::nullopt;
  std::vector<SymValue> args;
  for (llvm::Value *arg : call.args()) {
    auto v = value(arg);
    if (!v || v->term.getSort().isBoolean() || arg->getType() != type)
      return std::nullopt;
    args.push_back(*v);
  }
  Exactness how;
  for (const SymValue &v : args)
    how = how & v.how;
  unsigned lanes = vector ? vector->getNumElements() : 1;
  unsigned w = element->getIntegerBitWidth();
  cvc5::Term result, outside = m_tf.boolean(false);
  for (unsigned lane = 0; lane < lanes; ++lane) {
    std::vector<cvc5::Term> laneArgs;
    for (const SymValue &v : args)
      laneArgs.push_back(vector ? m_tf.extract(v.term, (lane + 1) * w - 1, lane * w) : v.term);
    auto r = integerBuiltinLane(name, isSigned, laneArgs, outside);
    if (!r)
      return std::nullopt;
    result = lane == 0 ? *r : m_tf.concat(*r, result);
  }
  if (name == "mul24" || name == "mad24")
    // Outside the 24-bit range the result is implementation-defined: a witness must keep the operands in it.
    guard(call, outside, name + " outside its 24-bit range at " + placeOf(&call));
  return SymValue{result, how};
}

std::optional<cvc5::Term> ThreadEncoder::integerBuiltinLane(const std::string &name, bool isSigned,
                                                            const std::vector<cvc5::Term> &args,
                                                            cvc5::Term &outside) {
  cvc5::Kind less = isSigned ? cvc5::Kind::BITVECTOR_SLT : cvc5::Kind::BITVECTOR_ULT;
  auto lt = [&](const cvc5::Term &a, const cvc5::Term &b) { return m_tf.op(less, {a, b}); };
  auto minOf = [&](const cvc5::Term &a, const cvc5::Term &b) { return m_tf.ite(lt(b, a), b, a); };
  auto maxOf = [&](const cvc5::Term &a, const cvc5::Term &b) { return m_tf.ite(lt(a, b), b, a); };
  if ((name == "min" || name == "max") && args.size() == 2)
    return name == "min" ? minOf(args[0], args[1]) : maxOf(args[0], args[1]);
  // mul24/mad24 (OpenCL 1.2 §6.12.3): defined only for operands in 24-bit range, where they equal the
  // full product — which is what they compute for every launch they are defined on.
  if ((name == "mul24" && args.size() == 2) || (name == "mad24" && args.size() == 3)) {
    unsigned w = args[0].getSort().getBitVectorSize();
    for (unsigned i = 0; i < 2 && w > 24; ++i) {
      const cvc5::Term &x = args[i];
      std::uint64_t mask = w == 64 ? ~0ull : (1ull << w) - 1;
      cvc5::Term low = m_tf.constant(w, (~0ull << 23) & mask); // -2^23
      cvc5::Term out =
          isSigned ? m_tf.lor(m_tf.op(cvc5::Kind::BITVECTOR_SLT, {x, low}),
                              m_tf.op(cvc5::Kind::BITVECTOR_SGT, {x, m_tf.constant(w, (1ull << 23) - 1)}))
                   : m_tf.op(cvc5::Kind::BITVECTOR_UGT, {x, m_tf.constant(w, (1ull << 24) - 1)});
      outside = m_tf.lor(outside, out);
    }
    cvc5::Term product = m_tf.mul(args[0], args[1]);
    return name == "mul24" ? product : m_tf.add(product, args[2]);
  }
  if (name == "clamp" && args.size() == 3) // OpenCL: min(max(x, lo), hi)
    return minOf(maxOf(args[0], args[1]), args[2]);
  if (name == "abs" && args.size() == 1) {
    // abs returns the unsigned type of the same width: |x| for signed, x for unsigned.
    if (!isSigned)
      return args[0];
    cvc5::Term zero = m_tf.constant(args[0].getSort().getBitVectorSize(), 0);
    return m_tf.ite(lt(args[0], zero), m_tf.op(cvc5::Kind::BITVECTOR_NEG, {args[0]}), args[0]);
  }
  return std::nullopt;
}

} // namespace clcapture::encode
