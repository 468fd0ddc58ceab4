//===- PointerRoots.cpp - Which memory objects a kernel's pointers reach ----===//

#include "PointerRoots.h"

#include "clcapture/model/Builtins.h"

#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Operator.h>

namespace clcapture::encode::detail {

std::optional<std::set<const llvm::Value *>> rootsOf(const llvm::Value *v, int depth) {
  if (depth > 64)
    return std::nullopt;
  v = v->stripPointerCasts();
  if (llvm::isa<llvm::Argument>(v) || llvm::isa<llvm::GlobalVariable>(v) || llvm::isa<llvm::AllocaInst>(v))
    return std::set<const llvm::Value *>{v};
  if (auto *gep = llvm::dyn_cast<llvm::GEPOperator>(v))
    return rootsOf(gep->getPointerOperand(), depth + 1);
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(v)) {
    // A pointer read back from a private variable or array: any pointer stored to those allocas.
    auto places = rootsOf(load->getPointerOperand(), depth + 1);
    if (!places)
      return std::nullopt;
    for (const llvm::Value *place : *places)
      if (!llvm::isa<llvm::AllocaInst>(place))
        return std::nullopt;
    std::set<const llvm::Value *> all;
    for (const llvm::Instruction &inst : llvm::instructions(*load->getFunction()))
      if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst))
        if (store->getValueOperand()->getType()->isPointerTy()) {
          auto to = rootsOf(store->getPointerOperand(), depth + 1);
          if (!to)
            return std::nullopt;
          bool hits = false;
          for (const llvm::Value *t : *to)
            hits = hits || places->count(t);
          if (!hits)
            continue;
          auto r = rootsOf(store->getValueOperand(), depth + 1);
          if (!r)
            return std::nullopt;
          all.insert(r->begin(), r->end());
        }
    return all;
  }
  if (auto *cast = llvm::dyn_cast<llvm::AddrSpaceCastOperator>(v))
    return rootsOf(cast->getPointerOperand(), depth + 1);
  std::vector<const llvm::Value *> from;
  if (auto *phi = llvm::dyn_cast<llvm::PHINode>(v))
    for (const llvm::Value *in : phi->incoming_values())
      from.push_back(in);
  else if (auto *sel = llvm::dyn_cast<llvm::SelectInst>(v))
    from = {sel->getTrueValue(), sel->getFalseValue()};
  else
    return std::nullopt;
  std::set<const llvm::Value *> all;
  static thread_local std::set<const llvm::Value *> visiting;
  if (!visiting.insert(v).second)
    return all; // a cycle through phis: its other inputs decide
  for (const llvm::Value *in : from) {
    auto r = rootsOf(in, depth + 1);
    if (!r) {
      visiting.erase(v);
      return std::nullopt;
    }
    all.insert(r->begin(), r->end());
  }
  visiting.erase(v);
  return all;
}

std::vector<std::pair<const llvm::Instruction *, const llvm::Value *>>
writtenPointers(llvm::Function &kernel) {
  std::vector<std::pair<const llvm::Instruction *, const llvm::Value *>> out;
  for (llvm::Instruction &inst : llvm::instructions(kernel)) {
    if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst))
      out.emplace_back(&inst, store->getPointerOperand());
    else if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&inst))
      out.emplace_back(&inst, rmw->getPointerOperand());
    else if (auto *cx = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&inst))
      out.emplace_back(&inst, cx->getPointerOperand());
    else if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst)) {
      llvm::Function *callee = call->getCalledFunction();
      if (!callee)
        continue;
      if (auto *intr = llvm::dyn_cast<llvm::IntrinsicInst>(call)) {
        if (intr->getIntrinsicID() == llvm::Intrinsic::memcpy ||
            intr->getIntrinsicID() == llvm::Intrinsic::memmove ||
            intr->getIntrinsicID() == llvm::Intrinsic::memset)
          out.emplace_back(&inst, call->getArgOperand(0));
        continue;
      }
      model::Builtin b = model::classifyBuiltin(*callee);
      if (b.kind == model::BuiltinKind::AtomicRmw || b.kind == model::BuiltinKind::AtomicStore ||
          b.kind == model::BuiltinKind::AsyncCopy)
        out.emplace_back(&inst, call->getArgOperand(0));
      else if (b.kind == model::BuiltinKind::WaitEvents || b.kind == model::BuiltinKind::WorkGroupCollective)
        continue; // they write no memory
      else if (b.kind == model::BuiltinKind::VectorStore && call->arg_size() > 2)
        out.emplace_back(&inst, call->getArgOperand(2));
      else
        for (llvm::Value *arg : call->args())
          if (arg->getType()->isPointerTy())
            out.emplace_back(&inst, arg);
    }
  }
  return out;
}

} // namespace clcapture::encode::detail
