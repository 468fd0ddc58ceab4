//===- DependenceSlice.cpp - What the queries can depend on, before encoding ----===//

#include "DependenceSlice.h"

#include "clcapture/model/Builtins.h"

#include <algorithm>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <vector>

namespace clcapture::encode {

namespace {

/// SPIR's private (0) and generic (4) address spaces: memory a work-item's own stores may be read back from.
bool mayBePrivate(const llvm::Value *pointer) {
  unsigned space = pointer->getType()->getPointerAddressSpace();
  return space == 0 || space == 4;
}

/// A call whose only effect is its value: a pure built-in without a guard, or an intrinsic that touches no
/// memory and takes no pointer.
bool pureCall(const llvm::CallBase &call) {
  const llvm::Function *callee = call.getCalledFunction();
  if (!callee || call.getType()->isVoidTy() || call.getType()->isPointerTy())
    return false;
  for (const llvm::Value *arg : call.args())
    if (arg->getType()->isPointerTy())
      return false;
  if (llvm::isa<llvm::IntrinsicInst>(call))
    return !call.mayReadOrWriteMemory();
  model::Builtin b = model::classifyBuiltin(*callee);
  // mul24/mad24 state a guard (IntegerBuiltins.cpp): kept whole.
  return b.kind == model::BuiltinKind::Pure && b.name != "mul24" && b.name != "mad24";
}

/// The operand of a plain write that is the value it stores, or null.
const llvm::Value *storedOperand(const llvm::Instruction &inst) {
  if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst))
    return store->isAtomic() ? nullptr : store->getValueOperand();
  const auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
  if (!call || !call->getCalledFunction() || llvm::isa<llvm::IntrinsicInst>(call) || call->arg_size() == 0)
    return nullptr;
  model::Builtin b = model::classifyBuiltin(*call->getCalledFunction());
  if (b.kind == model::BuiltinKind::VectorStore)
    return call->getArgOperand(0);
  if (b.kind == model::BuiltinKind::ImageWrite)
    return call->getArgOperand(call->arg_size() - 1);
  return nullptr;
}

/// The pointer through which a plain write may put its value in private memory, or null.
const llvm::Value *privateTarget(const llvm::Instruction &inst) {
  const llvm::Value *pointer = nullptr;
  if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst))
    pointer = store->getPointerOperand();
  else if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&inst); call && storedOperand(inst))
    pointer = call->getArgOperand(call->arg_size() - 1);
  return pointer && pointer->getType()->isPointerTy() && mayBePrivate(pointer) ? pointer : nullptr;
}

/// The objects `pointer` may point into; null among them when one is not a private variable (alloca).
std::vector<const llvm::Value *> variablesOf(const llvm::Value *pointer) {
  llvm::SmallVector<const llvm::Value *, 4> objects;
  llvm::getUnderlyingObjects(pointer, objects);
  std::vector<const llvm::Value *> out;
  for (const llvm::Value *o : objects)
    out.push_back(llvm::isa<llvm::AllocaInst>(o) ? o : nullptr);
  return out;
}

/// Whether the encoder visits `inst` whatever the slice (DependenceSlice::visits).
bool keptWhole(const llvm::Instruction &inst) {
  if (inst.isTerminator() || inst.getType()->isPointerTy() || llvm::isa<llvm::AllocaInst>(inst) ||
      inst.mayReadOrWriteMemory() || llvm::isa<llvm::FenceInst>(inst))
    return true;
  if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&inst))
    return !pureCall(*call);
  switch (inst.getOpcode()) {
  case llvm::Instruction::SDiv:
  case llvm::Instruction::UDiv:
  case llvm::Instruction::SRem:
  case llvm::Instruction::URem:
    return true; // a division by zero's guard
  case llvm::Instruction::ICmp:
    return inst.getOperand(0)->getType()->isPtrOrPtrVectorTy(); // addresses of different objects: a guard
  default:
    return false;
  }
}

} // namespace

DependenceSlice DependenceSlice::of(const llvm::Function &kernel, bool storedValues) {
  DependenceSlice slice;
  slice.m_whole = false;
  std::vector<const llvm::Value *> work;
  auto need = [&](const llvm::Value *v) {
    if (llvm::isa<llvm::Instruction>(v) && slice.m_needed.insert(v).second)
      work.push_back(v);
  };
  // Writes that may put a value in private memory, with the variables they may write (null: unknown).
  std::vector<std::pair<const llvm::Instruction *, std::vector<const llvm::Value *>>> privateWrites;
  for (const llvm::Instruction &inst : llvm::instructions(kernel)) {
    if (const llvm::Value *target = privateTarget(inst))
      privateWrites.emplace_back(&inst, variablesOf(target));
    if (!keptWhole(inst))
      continue;
    slice.m_visited.insert(&inst);
    const llvm::Value *stored = storedValues ? nullptr : storedOperand(inst);
    for (const llvm::Value *op : inst.operands())
      if (op != stored)
        need(op);
    if (llvm::isa<llvm::CallBase>(inst) || inst.getType()->isPointerTy())
      need(&inst); // calls and pointers are encoded whole: what they compute is built anyway
  }
  // What a needed read of private memory may return: the values written to its variables.
  std::vector<bool> broughtIn(privateWrites.size(), false);
  auto readsPrivate = [&](const llvm::Value *pointer) {
    std::vector<const llvm::Value *> read = variablesOf(pointer);
    bool anyVariable = std::find(read.begin(), read.end(), nullptr) != read.end();
    for (std::size_t i = 0; i < privateWrites.size(); ++i) {
      if (broughtIn[i])
        continue;
      const auto &[write, written] = privateWrites[i];
      bool meets = anyVariable;
      for (const llvm::Value *w : written)
        meets = meets || w == nullptr || std::find(read.begin(), read.end(), w) != read.end();
      if (!meets)
        continue;
      broughtIn[i] = true;
      if (const llvm::Value *stored = storedOperand(*write))
        need(stored);
    }
  };
  while (!work.empty()) {
    const auto *inst = llvm::cast<llvm::Instruction>(work.back());
    work.pop_back();
    for (const llvm::Value *op : inst->operands())
      need(op);
    if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(inst);
        load && mayBePrivate(load->getPointerOperand()))
      readsPrivate(load->getPointerOperand());
    else if (const auto *call = llvm::dyn_cast<llvm::CallBase>(inst))
      for (const llvm::Value *arg : call->args())
        if (arg->getType()->isPointerTy() && mayBePrivate(arg))
          readsPrivate(arg);
  }
  slice.m_visited.insert(slice.m_needed.begin(), slice.m_needed.end());
  return slice;
}

bool DependenceSlice::visits(const llvm::Instruction &inst) const {
  return m_whole || m_visited.count(&inst) != 0;
}

bool DependenceSlice::encodes(const llvm::Instruction &inst) const {
  return m_whole || m_needed.count(&inst) != 0;
}

bool DependenceSlice::available(const llvm::Value *v) const {
  const auto *inst = llvm::dyn_cast<llvm::Instruction>(v);
  return !inst || encodes(*inst) || (visits(*inst) && !llvm::isa<llvm::LoadInst>(inst));
}

} // namespace clcapture::encode
