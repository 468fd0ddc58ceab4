//===- ThreadEncoder.cpp - The walk, operand values and pointers -===//

#include "ConstantAddress.h"
#include "ThreadEncoderImpl.h"

#include <chrono>
#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Instructions.h>

namespace clcapture::encode {

std::string placeOf(const llvm::Instruction *inst) {
  if (inst) {
    if (const llvm::DebugLoc &loc = inst->getDebugLoc())
      return loc->getFilename().str() + ":" + std::to_string(loc.getLine());
    return inst->getFunction()->getName().str();
  }
  return "the kernel";
}

cvc5::Sort ThreadEncoder::sortOf(llvm::Type *type) {
  if (type->isIntegerTy(1))
    return m_tf.solver().getBooleanSort();
  unsigned bits = static_cast<unsigned>(m_s.layout.getTypeSizeInBits(type).getFixedValue());
  return m_tf.bv(bits ? bits : 8);
}

SymValue ThreadEncoder::freshValue(llvm::Type *type, const std::string &why) {
  return SymValue{m_tf.fresh(sortOf(type), name("v" + std::to_string(m_fresh++))), Exactness{why}};
}

std::optional<SymValue> ThreadEncoder::value(const llvm::Value *v) {
  if (auto it = m_values.find(v); it != m_values.end())
    return it->second;
  if (auto it = m_s.sharedValues.find(v); it != m_s.sharedValues.end())
    return it->second;
  if (auto *c = llvm::dyn_cast<llvm::ConstantInt>(v)) {
    if (c->getType()->isIntegerTy(1))
      return SymValue{m_tf.boolean(c->isOne()), {}};
    unsigned bits = c->getBitWidth();
    if (bits <= 64)
      return SymValue{m_tf.constant(bits, c->getZExtValue()), {}};
    return SymValue{m_tf.solver().mkBitVector(bits, llvm::toString(c->getValue(), 10, false), 10), {}};
  }
  if (auto *f = llvm::dyn_cast<llvm::ConstantFP>(v)) {
    llvm::APInt bits = f->getValueAPF().bitcastToAPInt();
    return SymValue{m_tf.constant(bits.getBitWidth(), bits.getZExtValue()), {}};
  }
  if (llvm::isa<llvm::UndefValue>(v) || llvm::isa<llvm::PoisonValue>(v)) {
    // Undefined: any value (each use may differ; one fresh value per use site is enough for soundness).
    return freshValue(v->getType(), "an undefined value");
  }
  if (llvm::isa<llvm::ConstantAggregateZero>(v) || llvm::isa<llvm::ConstantPointerNull>(v)) {
    unsigned bits = static_cast<unsigned>(m_s.layout.getTypeSizeInBits(v->getType()).getFixedValue());
    if (v->getType()->isIntegerTy(1))
      return SymValue{m_tf.boolean(false), {}};
    return SymValue{m_tf.constant(bits, 0), {}};
  }
  if (auto *vc = llvm::dyn_cast<llvm::Constant>(v); vc && v->getType()->isVectorTy()) {
    // A constant vector of integers or floats: its lanes joined, lane 0 in the low bits.
    if (auto *vt = llvm::dyn_cast<llvm::FixedVectorType>(v->getType());
        vt && !vt->getElementType()->isIntegerTy(1)) {
      cvc5::Term out;
      bool ok = true;
      for (unsigned i = 0; ok && i < vt->getNumElements(); ++i) {
        llvm::Constant *e = vc->getAggregateElement(i);
        std::optional<SymValue> lane;
        if (e && (llvm::isa<llvm::ConstantInt>(e) || llvm::isa<llvm::ConstantFP>(e)))
          lane = value(e);
        ok = lane && lane->how.exact();
        if (ok)
          out = i == 0 ? lane->term : m_tf.concat(lane->term, out);
      }
      if (ok)
        return SymValue{out, {}};
    }
  }
  if (llvm::isa<llvm::Constant>(v) && !v->getType()->isPointerTy()) {
    // Other aggregate constants: their bits do not matter to any access (values only).
    return freshValue(v->getType(), "a vector or aggregate constant");
  }
  return std::nullopt;
}

std::optional<SymPointer> ThreadEncoder::pointer(const llvm::Value *v) {
  if (auto it = m_pointers.find(v); it != m_pointers.end())
    return it->second;
  if (auto it = m_s.sharedPointers.find(v); it != m_s.sharedPointers.end())
    return it->second;
  // NULL (or an undefined pointer), or NULL plus a constant, folded by Clang to an integer address (`char *p
  // = NULL; p[5]`): no object of the launch lies in the first page, so an access there is a null dereference
  // (docs/semantics.md rows 37a, 37j). An address past it is not followed (the access names it:
  // unfollowedPointerText).
  std::optional<std::uint64_t> fromNull =
      llvm::isa<llvm::ConstantPointerNull>(v) || llvm::isa<llvm::UndefValue>(v)
          ? std::optional<std::uint64_t>(0)
          : nullPageAddress(v);
  if (fromNull) {
    SymPointer p;
    p.space = static_cast<MemorySpace>(v->getType()->getPointerAddressSpace());
    p.object = m_tf.constant(64, kNullObject);
    p.offset = m_tf.constant(64, *fromNull);
    return p;
  }
  if (auto *ce = llvm::dyn_cast<llvm::ConstantExpr>(v)) {
    // GEP and casts of module variables, folded into constants by Clang.
    llvm::Instruction *inst = ce->getAsInstruction();
    std::optional<SymPointer> result;
    if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(inst)) {
      if (auto base = pointer(gep->getPointerOperand())) {
        llvm::APInt offset(64, 0);
        if (gep->accumulateConstantOffset(m_s.layout, offset)) {
          result = *base;
          result->offset = m_tf.add(base->offset, m_tf.constant(64, offset.getZExtValue()));
        }
      }
    } else if (inst->isCast() && inst->getOperand(0)->getType()->isPointerTy()) {
      result = pointer(inst->getOperand(0));
      if (result && llvm::isa<llvm::AddrSpaceCastInst>(inst) &&
          inst->getType()->getPointerAddressSpace() != static_cast<unsigned>(MemorySpace::Generic))
        result->space = static_cast<MemorySpace>(inst->getType()->getPointerAddressSpace());
    }
    inst->deleteValue();
    return result;
  }
  return std::nullopt;
}

void ThreadEncoder::unknownResult(llvm::Instruction &inst, const std::string &why) {
  if (!inst.getType()->isVoidTy() && !inst.getType()->isPointerTy())
    m_values[&inst] = freshValue(inst.getType(), why + " at " + placeOf(&inst));
}

void ThreadEncoder::guard(llvm::Instruction &inst, const cvc5::Term &undefined, const std::string &what) {
  if (undefined.isBooleanValue() && !undefined.getBooleanValue())
    return;
  cvc5::Term violated = m_tf.land(m_reach[inst.getParent()], undefined);
  if (violated.isBooleanValue() && !violated.getBooleanValue())
    return;
  m_s.guards[m_thread].push_back(WitnessGuard{violated, what, &inst});
}

format::Status ThreadEncoder::visitTerminator(llvm::Instruction &inst) {
  if (llvm::isa<llvm::BranchInst>(inst) || llvm::isa<llvm::SwitchInst>(inst) ||
      llvm::isa<llvm::ReturnInst>(inst) || llvm::isa<llvm::UnreachableInst>(inst))
    return {}; // control flow is read off the edges (EncodeControlFlow.cpp)
  return visitInstruction(inst);
}

/// Anything no visit method covers: a memory access the method does not model stops the encoding; a
/// value becomes an unknown.
format::Status ThreadEncoder::visitInstruction(llvm::Instruction &inst) {
  if (inst.mayReadOrWriteMemory())
    return format::fail("the instruction '" + std::string(inst.getOpcodeName()) + "' at " + placeOf(&inst) +
                        " is not modelled");
  unknownResult(inst, "a value the encoder does not model");
  return {};
}

format::Status ThreadEncoder::run() {
  llvm::ReversePostOrderTraversal<llvm::Function *> rpo(&m_s.kernel);
  unsigned index = 0;
  for (llvm::BasicBlock *block : rpo)
    m_rpoIndex[block] = index++;
  for (llvm::BasicBlock *block : rpo) {
    if (auto status = enterBlock(*block); !status)
      return status;
    for (llvm::Instruction &inst : *block) {
      if (!m_s.slice.visits(inst))
        continue; // nothing the queries read depends on it (DependenceSlice.h)
      if (++m_visited % 256 == 0) {
        if (m_s.options.overMemory && m_s.options.overMemory())
          return format::fail("the memory budget ran out while encoding");
        if (m_s.options.deadline && std::chrono::steady_clock::now() > *m_s.options.deadline)
          return format::fail("the time limit ran out while encoding");
      }
      if (auto status = visit(inst); !status)
        return status;
      if (m_thread == 0 && (m_values.count(&inst) || m_pointers.count(&inst)))
        m_s.builtForA.insert(&inst);
    }
    m_epochOut[block] = m_epoch;
    m_doneOut[block] = m_done;
  }
  return {};
}

format::Status encodeThread(EncodingState &state, unsigned thread) {
  ThreadEncoder encoder(state, thread);
  return encoder.run();
}

} // namespace clcapture::encode
