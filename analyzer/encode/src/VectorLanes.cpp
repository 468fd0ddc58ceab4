//===- VectorLanes.cpp - Which lanes a vector load or store really touches -===//

#include "VectorLanes.h"

#include <algorithm>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

namespace clcapture::encode {

/// The load a `shufflevector` of it keeps lanes of in place, and the lanes the other operand puts in
/// (lo..hi), when every lane is one or the other: Clang's code for `p->zy = e` or `p->wzyx = e` on a vector
/// lvalue (`shufflevector (load p), e', <0, 5, 4, 3>`). Null when a lane moves, is undefined, or none is put.
namespace {

const llvm::Value *shuffledInto(const llvm::ShuffleVectorInst &shuffle, unsigned &lo, unsigned &hi) {
  auto *type = llvm::cast<llvm::FixedVectorType>(shuffle.getType());
  unsigned n = type->getNumElements();
  for (unsigned side = 0; side < 2; ++side) {
    const llvm::Value *kept = shuffle.getOperand(side);
    auto *keptType = llvm::dyn_cast<llvm::FixedVectorType>(kept->getType());
    if (!llvm::isa<llvm::LoadInst>(kept) || !keptType || keptType->getNumElements() != n)
      continue;
    bool inPlace = true;
    lo = ~0u;
    hi = 0;
    for (unsigned lane = 0; lane < n && inPlace; ++lane) {
      int m = shuffle.getMaskValue(lane);
      if (m < 0) {
        inPlace = false; // an undefined lane
      } else if ((static_cast<unsigned>(m) < n) == (side == 0)) {
        inPlace = static_cast<unsigned>(m) % n == lane; // from the load: kept only in its own place
      } else {
        lo = std::min(lo, lane);
        hi = std::max(hi, lane);
      }
    }
    if (inPlace && lo != ~0u)
      return kept;
  }
  return nullptr;
}

} // namespace

/// A store of `insertelement(…insertelement(load p, …)…)` back to p — Clang's code for `p->x = e` on a
/// vector lvalue — writes only the inserted lanes; so does a store of a shufflevector that keeps the other
/// lanes of `load p` in place (shuffledInto).
LaneRange lanesWritten(const llvm::StoreInst &store) {
  LaneRange r;
  auto *vt = llvm::dyn_cast<llvm::FixedVectorType>(store.getValueOperand()->getType());
  if (!vt || store.isAtomic() || store.isVolatile())
    return r;
  const llvm::Value *v = store.getValueOperand();
  unsigned lo = ~0u, hi = 0;
  if (auto *shuffle = llvm::dyn_cast<llvm::ShuffleVectorInst>(v)) {
    if (!shuffle->hasOneUse())
      return r;
    v = shuffledInto(*shuffle, lo, hi);
    if (!v)
      return r;
  }
  while (auto *ins = llvm::dyn_cast<llvm::InsertElementInst>(v)) {
    auto *index = llvm::dyn_cast<llvm::ConstantInt>(ins->getOperand(2));
    if (!index || !ins->hasOneUse())
      return r;
    lo = std::min(lo, static_cast<unsigned>(index->getZExtValue()));
    hi = std::max(hi, static_cast<unsigned>(index->getZExtValue()));
    v = ins->getOperand(0);
  }
  auto *load = llvm::dyn_cast<llvm::LoadInst>(v);
  if (!load || lo == ~0u || !load->hasOneUse() || load->isVolatile() || load->isAtomic() ||
      load->getPointerOperand() != store.getPointerOperand() || load->getParent() != store.getParent())
    return r;
  for (const llvm::Instruction *i = load->getNextNode(); i && i != &store; i = i->getNextNode())
    if (i->mayWriteToMemory())
      return r; // something in between could change the lanes put back
  r.whole = false;
  r.first = lo;
  r.last = hi;
  return r;
}

namespace {

/// Whether an unused vector load is Clang's code for the target of a swizzle assignment of every lane
/// (`p->wzyx = e`): Clang loads the vector, builds the new one from `e` alone and stores it back, all at the
/// one source place of the assignment. A load of its own statement (`float4 t = p[i]; p[i] = v;`) has
/// another place, and stays a read.
bool wholeSwizzleTarget(const llvm::LoadInst &load) {
  const llvm::DebugLoc &at = load.getDebugLoc();
  if (!at)
    return false;
  for (const llvm::Instruction *i = load.getNextNode(); i; i = i->getNextNode()) {
    if (auto *store = llvm::dyn_cast<llvm::StoreInst>(i))
      return store->getPointerOperand() == load.getPointerOperand() &&
             store->getValueOperand()->getType() == load.getType() && !store->isVolatile() &&
             !store->isAtomic() && store->getDebugLoc() && store->getDebugLoc().getLine() == at.getLine() &&
             store->getDebugLoc().getCol() == at.getCol();
    if (i->mayReadOrWriteMemory())
      return false;
  }
  return false;
}

} // namespace

/// A vector load that only feeds a lane store back to the same place (lanesWritten) reads nothing: it is
/// Clang's code for `p->x = e`, which reads nothing in the source. Any other load reads the whole vector.
LaneRange lanesRead(const llvm::LoadInst &load) {
  LaneRange r;
  if (!llvm::isa<llvm::FixedVectorType>(load.getType()) || load.isAtomic() || load.isVolatile())
    return r;
  if (load.use_empty()) {
    if (wholeSwizzleTarget(load)) {
      r.whole = false;
      r.none = true;
    }
    return r; // otherwise an unused read is still a read (`float4 t = p[i];`)
  }
  if (load.hasOneUse())
    if (auto *shuffle = llvm::dyn_cast<llvm::ShuffleVectorInst>(*load.user_begin());
        shuffle && shuffle->hasOneUse())
      if (auto *store = llvm::dyn_cast<llvm::StoreInst>(*shuffle->user_begin()))
        if (store->getValueOperand() == shuffle && !lanesWritten(*store).whole) {
          r.whole = false;
          r.none = true;
          return r;
        }
  if (load.hasOneUse())
    if (auto *ins = llvm::dyn_cast<llvm::InsertElementInst>(*load.user_begin())) {
      const llvm::Value *v = ins;
      while (v->hasOneUse() && llvm::isa<llvm::InsertElementInst>(*v->user_begin()))
        v = *v->user_begin();
      if (v->hasOneUse())
        if (auto *store = llvm::dyn_cast<llvm::StoreInst>(*v->user_begin()))
          if (store->getValueOperand() == v && !lanesWritten(*store).whole) {
            r.whole = false;
            r.none = true;
            return r;
          }
    }
  // A vector load taken apart lane by lane still reads every lane: Clang emits the same whole-vector load
  // for `float2 s = p[0]` (a read of both lanes in the source) as for `p[0].y`, and Oclgrind sees it too.
  return r;
}

} // namespace clcapture::encode
