//===- EncodeMemory.cpp - Addresses, loads, stores, atomics, access records -===//

#include "ConstantAddress.h"
#include "ThreadEncoderImpl.h"
#include "VectorLanes.h"

#include <algorithm>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Operator.h>
#include <set>

namespace clcapture::encode {

format::Status ThreadEncoder::visitAllocaInst(llvm::AllocaInst &inst) {
  using namespace llvm;
  auto *alloca = &inst;
  SymPointer p;
  p.space = MemorySpace::Private;
  p.object = m_tf.constant(64, kPrivateObject + m_nextPrivate++);
  if (inst.getAllocationSizeInBits(m_s.layout)) {
    std::uint64_t bytes = inst.getAllocationSizeInBits(m_s.layout)->getFixedValue() / 8;
    m_privateBytes[kPrivateObject + m_nextPrivate - 1] = bytes;
    // The same numbering for both work-items: one region for the bounds query, named as the source does.
    m_s.objectRegions[kPrivateObject + m_nextPrivate - 1] = {{0, bytes}};
    if (inst.hasName()) // `s`, or `s.i` once inlined (LLVM's suffix): a source name has no '.'
      m_s.objectNames.emplace(kPrivateObject + m_nextPrivate - 1,
                              inst.getName().str().substr(0, inst.getName().find('.')));
  }
  p.offset = m_tf.constant(64, 0);
  m_pointers[alloca] = p;
  m_privateAllocas[kPrivateObject + m_nextPrivate - 1] = alloca;
  return {};
}

format::Status ThreadEncoder::visitGetElementPtrInst(llvm::GetElementPtrInst &inst) {
  using namespace llvm;
  auto *gep = &inst;
  auto base = pointer(gep->getPointerOperand());
  if (!base)
    return format::fail("an address computed from " + unfollowedPointerText(gep->getPointerOperand()) +
                        " at " + placeOf(&inst));
  if (gep->getType()->isVectorTy())
    return format::fail("a vector of pointers at " + placeOf(&inst));
  MapVector<Value *, APInt> variable;
  APInt constant(64, 0);
  if (!gep->collectOffset(m_s.layout, 64, variable, constant))
    return format::fail("an address the encoder cannot compute at " + placeOf(&inst));
  SymPointer p = *base;
  cvc5::Term offset = m_tf.add(base->offset, m_tf.constant(64, constant.getZExtValue()));
  for (auto &[index, scale] : variable) {
    auto v = value(index);
    if (!v || v->term.getSort().isBoolean())
      return format::fail("an address the encoder cannot compute at " + placeOf(&inst));
    offset =
        m_tf.add(offset, m_tf.mul(m_tf.resize(v->term, 64, true), m_tf.constant(64, scale.getZExtValue())));
    p.how = p.how & v->how;
  }
  p.offset = offset;
  if (m_s.options.memorySafety)
    if (auto beyond = indexBeyondArray(*gep)) // its indices' exactness is already the pointer's
      p.beyondArray = p.beyondArray.isNull() ? *beyond : m_tf.lor(p.beyondArray, *beyond);
  m_pointers[gep] = p;
  return {};
}

std::optional<cvc5::Term> ThreadEncoder::indexBeyondArray(llvm::GetElementPtrInst &gep) {
  // Operand 1 steps over whole objects (pointer arithmetic); the indices after it select inside the
  // source element type, and an index into an array type must stay below its length (C99 §6.5.6 ¶8).
  llvm::Type *current = gep.getSourceElementType();
  std::optional<cvc5::Term> beyond;
  for (unsigned k = 2; k < gep.getNumOperands() && current; ++k) {
    llvm::Value *index = gep.getOperand(k);
    if (auto *array = llvm::dyn_cast<llvm::ArrayType>(current)) {
      std::uint64_t length = array->getNumElements();
      current = array->getElementType();
      if (length == 0) // a flexible array member: no length to check
        continue;
      auto v = value(index);
      if (!v || v->term.getSort().isBoolean())
        continue;
      cvc5::Term wide = m_tf.resize(v->term, 64, true);
      if (m_tf.upperBoundAsserted(wide) < length) // below the length for every execution (row 37d)
        continue;
      cvc5::Term outside = m_tf.ule(m_tf.constant(64, length), wide);
      beyond = beyond ? m_tf.lor(*beyond, outside) : outside;
    } else if (auto *structure = llvm::dyn_cast<llvm::StructType>(current)) {
      auto *field = llvm::dyn_cast<llvm::ConstantInt>(index);
      current = field ? structure->getElementType(static_cast<unsigned>(field->getZExtValue())) : nullptr;
    } else if (auto *vector = llvm::dyn_cast<llvm::VectorType>(current)) {
      current = vector->getElementType();
    } else {
      current = nullptr;
    }
  }
  return beyond;
}

namespace {

/// Whether a value reaches, through integer and comparison operations (not floating-point arithmetic, whose
/// results are open anyway), a branch or switch condition, a select's condition, an address (an index or a
/// pointer operand) or a call's argument.
bool decidesControlOrAddress(const llvm::Instruction &from) {
  std::vector<const llvm::Value *> work{&from};
  std::set<const llvm::Value *> seen;
  while (!work.empty() && seen.size() < 256) {
    const llvm::Value *v = work.back();
    work.pop_back();
    if (!seen.insert(v).second)
      continue;
    for (const llvm::User *user : v->users()) {
      if (llvm::isa<llvm::BranchInst>(user) || llvm::isa<llvm::SwitchInst>(user) ||
          llvm::isa<llvm::GetElementPtrInst>(user) || llvm::isa<llvm::IntToPtrInst>(user) ||
          llvm::isa<llvm::CallBase>(user))
        return true;
      if (auto *sel = llvm::dyn_cast<llvm::SelectInst>(user)) {
        if (sel->getCondition() == v)
          return true;
        work.push_back(sel);
      } else if (auto *load = llvm::dyn_cast<llvm::LoadInst>(user)) {
        if (load->getPointerOperand() == v)
          return true;
      } else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(user)) {
        if (store->getPointerOperand() == v)
          return true;
      } else if (auto *op = llvm::dyn_cast<llvm::Instruction>(user)) {
        if (op->isBinaryOp() && op->getType()->isFPOrFPVectorTy())
          continue; // open: the relation does not carry through
        if (llvm::isa<llvm::CastInst>(op) || op->isBinaryOp() || llvm::isa<llvm::CmpInst>(op) ||
            llvm::isa<llvm::PHINode>(op) || llvm::isa<llvm::FreezeInst>(op) ||
            llvm::isa<llvm::ExtractElementInst>(op) || llvm::isa<llvm::InsertElementInst>(op) ||
            llvm::isa<llvm::ShuffleVectorInst>(op))
          work.push_back(op);
      }
    }
  }
  return !work.empty(); // too far to follow: assume it does
}

} // namespace

format::Status ThreadEncoder::visitLoadInst(llvm::LoadInst &inst) {
  using namespace llvm;
  auto *load = &inst;
  auto p = pointer(load->getPointerOperand());
  if (!p)
    return format::fail("a load through " + unfollowedPointerText(load->getPointerOperand()) + " at " +
                        placeOf(&inst));
  unsigned bytes = static_cast<unsigned>(m_s.layout.getTypeStoreSize(load->getType()).getFixedValue());
  llvm::Type *scalar = load->getType()->getScalarType();
  unsigned element = static_cast<unsigned>(m_s.layout.getTypeStoreSize(scalar).getFixedValue());
  LaneRange lanes = lanesRead(*load);
  if (lanes.none) {
    // `v.x = e` on a vector in memory: Clang loads the vector only to put it back around the new lane.
  } else {
    SymPointer at = *p;
    if (lanes.first > 0)
      at.offset = m_tf.add(p->offset, m_tf.constant(64, std::uint64_t{lanes.first} * element));
    std::uint64_t size = lanes.whole ? bytes : std::uint64_t{lanes.last - lanes.first + 1} * element;
    recordAccess(inst, at, m_tf.constant(64, size), {}, true, false, load->isAtomic(), element, nullptr);
  }
  if (load->getType()->isPointerTy()) {
    // A pointer variable or array of pointers (or events) in private memory: the pointer stored last.
    if (p->space == MemorySpace::Private)
      if (auto r = privatePointerAt(inst, *p,
                                    static_cast<MemorySpace>(load->getType()->getPointerAddressSpace()))) {
        m_pointers[&inst] = *r;
        return {};
      }
    // A pointer read from global or local memory (pointer chasing): any object and offset of its address
    // space — sound for proofs (an access through it may meet any other; setUpReadOnlyTables takes its
    // writes to reach anything), an abstraction for witnesses. A generic pointer could point into local
    // or global memory, which race by different rules: not followed.
    auto space = static_cast<MemorySpace>(load->getType()->getPointerAddressSpace());
    if (space != MemorySpace::Global && space != MemorySpace::Constant && space != MemorySpace::Local)
      return format::fail("a generic pointer loaded from memory at " + placeOf(&inst) + " (pointer chasing)");
    SymPointer any;
    any.space = space;
    any.object = m_tf.fresh(m_tf.bv(64), name("loaded_object" + std::to_string(m_fresh)));
    any.offset = m_tf.fresh(m_tf.bv(64), name("loaded_offset" + std::to_string(m_fresh++)));
    any.how = Exactness{"a pointer loaded from memory at " + placeOf(&inst)};
    m_pointers[&inst] = any;
    return {};
  }
  if (!m_s.slice.encodes(inst)) {
    // Nothing the queries read depends on the value (DependenceSlice.h): the access and its guard only.
    if (p->space != MemorySpace::Private)
      guardRead(inst, load->getType(), *p);
    return {};
  }
  if (p->space == MemorySpace::Private)
    if (auto v = privateValueAt(inst, *p)) {
      m_values[&inst] = *v;
      return {};
    }
  SymValue v = loadValue(inst, load->getType(), *p);
  m_values[&inst] = v;
  // Memory read through one array by both work-items (captured bytes, open contents) needs no fact.
  auto readOnlyTable = [&](const SymPointer &at) {
    if (!at.object.isBitVectorValue())
      return false;
    std::uint64_t object = std::stoull(at.object.getBitVectorValue(10));
    return m_s.openContents.count(object) != 0 || m_s.capturedTables.count(object) != 0;
  };
  // An open value read by a plain whole load of shared memory, that decides control flow or an address:
  // stateUniformReads relates it to the other work-item's read of the same place. (Values that only flow
  // into stored data are left alone: each such fact costs the solver, and they rarely decide a race.)
  if (p->space != MemorySpace::Private && !load->isAtomic() && lanes.whole && !v.how.exact() &&
      !v.term.getSort().isBoolean() && !readOnlyTable(*p) && decidesControlOrAddress(inst))
    if (auto id = m_s.siteOf.find({&inst, 0}); id != m_s.siteOf.end())
      m_s.records[m_thread][id->second].loaded = v.term;
  return {};
}

format::Status ThreadEncoder::visitStoreInst(llvm::StoreInst &inst) {
  using namespace llvm;
  auto *store = &inst;
  auto p = pointer(store->getPointerOperand());
  if (!p)
    return format::fail("a store through " + unfollowedPointerText(store->getPointerOperand()) + " at " +
                        placeOf(&inst));
  Type *type = store->getValueOperand()->getType();
  unsigned bytes = static_cast<unsigned>(m_s.layout.getTypeStoreSize(type).getFixedValue());
  unsigned element =
      static_cast<unsigned>(m_s.layout.getTypeStoreSize(type->getScalarType()).getFixedValue());
  if (p->space == MemorySpace::Private) {
    std::optional<SymPointer> stored = type->isPointerTy() ? pointer(store->getValueOperand()) : std::nullopt;
    std::optional<SymValue> v = type->isPointerTy() ? std::nullopt : value(store->getValueOperand());
    notePrivateStore(inst, *p, m_tf.constant(64, bytes), stored ? &*stored : nullptr, v ? &*v : nullptr);
    // Private memory never races (docs/contract.md §5); privateValueAt / privatePointerAt read it back. A
    // site only for the bounds query (recordAccess keeps it when EncodeOptions::memorySafety).
    recordAccess(inst, *p, m_tf.constant(64, bytes), {}, false, true, false, element, nullptr);
    return {};
  }
  LaneRange lanes = lanesWritten(*store);
  if (!lanes.whole) {
    SymPointer at = *p;
    at.offset = m_tf.add(p->offset, m_tf.constant(64, std::uint64_t{lanes.first} * element));
    // Only the inserted lanes change: the store puts back what the same vector load read elsewhere.
    SymValue stored = storedValue(*store->getValueOperand(), "a vector value");
    unsigned bits =
        static_cast<unsigned>(m_s.layout.getTypeSizeInBits(type->getScalarType()).getFixedValue());
    stored.term = m_tf.extract(stored.term, (lanes.last + 1) * bits - 1, lanes.first * bits);
    recordAccess(inst, at, m_tf.constant(64, std::uint64_t{lanes.last - lanes.first + 1} * element), {},
                 false, true, store->isAtomic(), element, &stored);
    noteSlicedValue(inst, *store->getValueOperand());
    return {};
  }
  // A pointer stored to global or local memory: its bits are an address (addressBits), the same for two
  // work-items that store the same pointer — enough to find same-value stores benign.
  std::optional<SymValue> v;
  if (!type->isPointerTy())
    v = value(store->getValueOperand());
  else if (auto stored = pointer(store->getValueOperand()))
    v = addressBits(*stored, bytes * 8, "an address stored to memory at " + placeOf(&inst));
  SymValue stored = v ? *v
                      : SymValue{m_tf.fresh(m_tf.bv(bytes * 8), name("s" + std::to_string(m_fresh++))),
                                 Exactness{m_s.slice.available(store->getValueOperand())
                                               ? "a stored value the encoder does not model"
                                               : "a stored value outside the dependence slice"}};
  if (stored.term.getSort().isBoolean())
    stored.term = m_tf.toBits(stored.term);
  recordAccess(inst, *p, m_tf.constant(64, bytes), {}, false, true, store->isAtomic(), element, &stored);
  noteSlicedValue(inst, *store->getValueOperand());
  return {};
}

format::Status ThreadEncoder::visitAtomicRMWInst(llvm::AtomicRMWInst &inst) {
  auto p = pointer(inst.getPointerOperand());
  if (!p)
    return format::fail("an atomic operation on " + unfollowedPointerText(inst.getPointerOperand()) + " at " +
                        placeOf(&inst));
  unsigned bytes = static_cast<unsigned>(m_s.layout.getTypeStoreSize(inst.getType()).getFixedValue());
  recordAccess(inst, *p, m_tf.constant(64, bytes), {}, true, true, true, bytes, nullptr);
  unknownResult(inst, "the value an atomic operation returns");
  return {};
}

format::Status ThreadEncoder::visitAtomicCmpXchgInst(llvm::AtomicCmpXchgInst &inst) {
  auto p = pointer(inst.getPointerOperand());
  if (!p)
    return format::fail("an atomic operation on " + unfollowedPointerText(inst.getPointerOperand()) + " at " +
                        placeOf(&inst));
  unsigned bytes =
      static_cast<unsigned>(m_s.layout.getTypeStoreSize(inst.getOperand(1)->getType()).getFixedValue());
  recordAccess(inst, *p, m_tf.constant(64, bytes), {}, true, true, true, bytes, nullptr);
  unknownResult(inst, "the value an atomic operation returns");
  return {};
}

namespace {

/// The constants an ite tree of constants can take; nullopt for any other term or more than `limit`.
std::optional<std::set<std::uint64_t>> constantLeaves(const cvc5::Term &t, std::size_t limit = 16) {
  if (t.isBitVectorValue())
    return std::set<std::uint64_t>{std::stoull(t.getBitVectorValue(10))};
  if (t.getKind() != cvc5::Kind::ITE)
    return std::nullopt;
  auto a = constantLeaves(t[1], limit), b = constantLeaves(t[2], limit);
  if (!a || !b)
    return std::nullopt;
  a->insert(b->begin(), b->end());
  if (a->size() > limit)
    return std::nullopt;
  return a;
}

} // namespace

SymValue ThreadEncoder::addressBits(const SymPointer &ptr, unsigned bits, const std::string &why) {
  if (m_s.objectAddresses.isNull())
    m_s.objectAddresses = m_tf.fresh(m_tf.solver().mkArraySort(m_tf.bv(64), m_tf.bv(64)), "object_address");
  cvc5::Term address = m_tf.add(m_tf.op(cvc5::Kind::SELECT, {m_s.objectAddresses, ptr.object}), ptr.offset);
  return SymValue{m_tf.resize(address, bits, false), Exactness{why}};
}

void ThreadEncoder::notePrivateStore(llvm::Instruction &inst, const SymPointer &at, cvc5::Term bytes,
                                     const SymPointer *stored, const SymValue *value) {
  PrivateStore e;
  e.block = inst.getParent();
  e.object = at.object;
  e.offset = at.offset;
  e.bytes = std::move(bytes);
  if (stored)
    e.pointer = *stored;
  if (value)
    e.value = *value;
  m_privateStores.push_back(std::move(e));
}

namespace {

/// Whether a private variable's address is only loaded from and stored to (through getelementptr): then
/// every write to it is a StoreInst the encoder sees (no call, no escaped pointer writes it).
bool onlyLoadedAndStored(const llvm::AllocaInst &alloca) {
  std::vector<const llvm::Value *> work{&alloca};
  std::set<const llvm::Value *> seen;
  while (!work.empty()) {
    const llvm::Value *v = work.back();
    work.pop_back();
    if (!seen.insert(v).second)
      continue;
    for (const llvm::User *user : v->users()) {
      if (auto *load = llvm::dyn_cast<llvm::LoadInst>(user)) {
        if (load->getPointerOperand() != v)
          return false;
      } else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(user)) {
        if (store->getPointerOperand() != v || store->getValueOperand() == v)
          return false;
      } else if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(user)) {
        if (gep->getPointerOperand() != v)
          return false;
        work.push_back(gep);
      } else if (auto *intr = llvm::dyn_cast<llvm::IntrinsicInst>(user)) {
        if (!intr->isLifetimeStartOrEnd() && !llvm::isa<llvm::DbgInfoIntrinsic>(intr))
          return false;
      } else {
        return false;
      }
    }
  }
  return true;
}

} // namespace

std::optional<SymValue> ThreadEncoder::privateValueAt(llvm::LoadInst &load, const SymPointer &at) {
  // A vector is read back whole from a store of the same vector type (its value term, as stored).
  if (!at.object.isBitVectorValue() || (load.getType()->isVectorTy() && !readAsBytes(load.getType())))
    return std::nullopt;
  std::uint64_t object = std::stoull(at.object.getBitVectorValue(10));
  auto alloca = m_privateAllocas.find(object);
  if (alloca == m_privateAllocas.end())
    return std::nullopt;
  auto followed = m_followedAllocas.find(alloca->second);
  if (followed == m_followedAllocas.end())
    followed = m_followedAllocas.emplace(alloca->second, onlyLoadedAndStored(*alloca->second)).first;
  if (!followed->second)
    return std::nullopt;
  std::string where = placeOf(&load);
  cvc5::Sort sort = sortOf(load.getType());
  std::uint64_t bytes = m_s.layout.getTypeStoreSize(load.getType()).getFixedValue();
  auto fresh = [&] { return m_tf.fresh(sort, name("pv" + std::to_string(m_fresh++))); };
  cvc5::Term result = fresh();
  bool covered = false;                   // an unconditional store to exactly this place comes first
  std::set<std::uint64_t> coveredOffsets; // constant offsets stored unconditionally with the load's size
  Exactness stores;
  const llvm::Loop *loop = m_loops.getLoopFor(load.getParent());
  for (const PrivateStore &e : m_privateStores) {
    if (e.object != at.object)
      continue; // another variable (every store to this one has its constant object: onlyLoadedAndStored)
    if (loop && loop->contains(e.block))
      return SymValue{
          fresh(), Exactness{"a private variable kept across iterations of the loop at " + loopPlace(*loop)}};
    cvc5::Term reach = m_reach[e.block];
    Exactness how = m_reachHow[e.block];
    // A store in a loop the load is not in: its value term is the encoded (arbitrary) iteration's, not
    // necessarily the last one's — the bytes are open.
    bool inLoop = m_loops.getLoopFor(e.block) != nullptr;
    bool sameSize = e.bytes.isBitVectorValue() && std::stoull(e.bytes.getBitVectorValue(10)) == bytes;
    if (e.value && sameSize && e.value->term.getSort() == sort && !inLoop) {
      result = m_tf.ite(m_tf.land(reach, m_tf.eq(e.offset, at.offset)), e.value->term, result);
      stores = stores & how & e.value->how;
      if (reach.isBooleanValue() && reach.getBooleanValue() && e.offset == at.offset)
        covered = true;
      if (reach.isBooleanValue() && reach.getBooleanValue() && e.offset.isBitVectorValue())
        coveredOffsets.insert(std::stoull(e.offset.getBitVectorValue(10)));
    } else {
      cvc5::Term overlap = m_tf.land(m_tf.ult(e.offset, m_tf.add(at.offset, m_tf.constant(64, bytes))),
                                     m_tf.ult(at.offset, m_tf.add(e.offset, e.bytes)));
      result = m_tf.ite(m_tf.land(reach, overlap), fresh(), result);
      stores = stores &
               Exactness{inLoop ? "a private variable written in the loop at " +
                                      loopPlace(*m_loops.getLoopFor(e.block))
                                : "a private variable read at " + where + " over bytes written otherwise"};
    }
  }
  // A read at a computed offset is covered when every slot of the variable is (a small one, read in whole
  // slots): a read outside the variable is undefined, and a witness must not need one (guard).
  auto size = m_privateBytes.find(object);
  if (!covered && !at.offset.isBitVectorValue() && size != m_privateBytes.end() &&
      size->second <= 64 * bytes && isMultipleOf(at.offset, static_cast<unsigned>(bytes))) {
    covered = true;
    for (std::uint64_t off = 0; covered && off + bytes <= size->second; off += bytes)
      covered = coveredOffsets.count(off) != 0;
    if (covered)
      guard(load, m_tf.lnot(m_tf.ule(at.offset, m_tf.constant(64, size->second - bytes))),
            "a read outside a private variable at " + where);
  }
  Exactness initial =
      covered ? Exactness{}
              : Exactness{"a private variable read at " + where + " that may not have been written"};
  return SymValue{result, initial & stores & at.how};
}

/// A pointer read back from private memory is the one the last store to the same place wrote on this
/// work-item's path: a fold over the stores in encoding order (reverse post-order), each guarded by its
/// block's reach and an address match. Before any store the pointer is unknown (inexact) — unless every
/// address the read can have is written first, unconditionally, in straight-line order. A read inside a
/// loop that the loop itself may write is unknown (another iteration's store may be the last).
std::optional<SymPointer> ThreadEncoder::privatePointerAt(llvm::Instruction &inst, const SymPointer &at,
                                                          MemorySpace space) {
  std::string where = placeOf(&inst);
  SymPointer result;
  result.space = space;
  result.object = m_tf.fresh(m_tf.bv(64), name("pobj" + std::to_string(m_fresh)));
  result.offset = m_tf.fresh(m_tf.bv(64), name("poff" + std::to_string(m_fresh++)));
  result.how = Exactness{"a pointer read from private memory at " + where + " that may not have been stored"};
  cvc5::Term pointerBytes = m_tf.constant(64, m_s.layout.getPointerSize(0));
  const llvm::Loop *loop = m_loops.getLoopFor(inst.getParent());
  auto objects = constantLeaves(at.object), offsets = constantLeaves(at.offset);
  std::set<std::pair<std::uint64_t, std::uint64_t>> covered; // (object, offset) stored unconditionally
  Exactness stores;
  std::optional<MemorySpace> storedSpace;
  for (const PrivateStore &e : m_privateStores) {
    if (e.object.isBitVectorValue() && at.object.isBitVectorValue() && e.object != at.object)
      continue; // another variable
    if (loop && loop->contains(e.block)) {
      SymPointer unknown = result;
      unknown.how =
          Exactness{"a pointer kept in private memory across iterations of the loop at " + loopPlace(*loop)};
      return unknown;
    }
    cvc5::Term reach = m_reach[e.block];
    Exactness how = m_reachHow[e.block];
    cvc5::Term sameObject = m_tf.eq(e.object, at.object);
    // A store in a loop the read is not in: its terms are the encoded (arbitrary) iteration's, not
    // necessarily the last one's — read back as an unknown pointer, like other bytes.
    if (e.pointer && !m_loops.getLoopFor(e.block)) {
      if (space == MemorySpace::Generic) {
        if (storedSpace && *storedSpace != e.pointer->space)
          return std::nullopt; // pointers into different address spaces through one generic variable
        storedSpace = e.pointer->space;
      }
      cvc5::Term match = m_tf.land(reach, m_tf.land(sameObject, m_tf.eq(e.offset, at.offset)));
      result.object = m_tf.ite(match, e.pointer->object, result.object);
      result.offset = m_tf.ite(match, e.pointer->offset, result.offset);
      result.beyondArray = chooseBeyondArray(m_tf, match, *e.pointer, result);
      stores = stores & how & e.pointer->how;
      if (reach.isBooleanValue() && reach.getBooleanValue() && e.object.isBitVectorValue() &&
          e.offset.isBitVectorValue())
        covered.insert(
            {std::stoull(e.object.getBitVectorValue(10)), std::stoull(e.offset.getBitVectorValue(10))});
    } else {
      // Other bytes over the place: a pointer read back from them is unknown.
      cvc5::Term overlap = m_tf.land(m_tf.ult(e.offset, m_tf.add(at.offset, pointerBytes)),
                                     m_tf.ult(at.offset, m_tf.add(e.offset, e.bytes)));
      cvc5::Term match = m_tf.land(reach, m_tf.land(sameObject, overlap));
      result.object =
          m_tf.ite(match, m_tf.fresh(m_tf.bv(64), name("pobj" + std::to_string(m_fresh))), result.object);
      result.offset =
          m_tf.ite(match, m_tf.fresh(m_tf.bv(64), name("poff" + std::to_string(m_fresh++))), result.offset);
      stores = stores & Exactness{"a pointer read from private memory at " + where + " over other data"};
      for (auto it = covered.begin(); it != covered.end();)
        it = e.object.isBitVectorValue() && it->first == std::stoull(e.object.getBitVectorValue(10))
                 ? covered.erase(it)
                 : std::next(it);
    }
  }
  if (storedSpace)
    result.space = *storedSpace;
  // Every address the read can have was stored unconditionally first: the unknown start is never read.
  // A read at an offset that is not one of a few constants (events + i) is covered when every slot of
  // the variable is: a read outside the variable is out of bounds (undefined behaviour).
  bool allCovered = objects.has_value();
  if (allCovered)
    for (std::uint64_t o : *objects) {
      if (offsets) {
        for (std::uint64_t off : *offsets)
          allCovered = allCovered && covered.count({o, off});
        continue;
      }
      auto size = m_privateBytes.find(o);
      std::uint64_t step = m_s.layout.getPointerSize(0);
      allCovered = allCovered && size != m_privateBytes.end() && size->second <= 64 * step;
      for (std::uint64_t off = 0; allCovered && off < size->second; off += step)
        allCovered = covered.count({o, off}) != 0;
    }
  result.how = (allCovered ? Exactness{} : result.how) & stores & at.how;
  return result;
}

void ThreadEncoder::recordAccess(llvm::Instruction &inst, const SymPointer &ptr, cvc5::Term size,
                                 Exactness sizeHow, bool reads, bool writes, bool atomic,
                                 unsigned elementSize, const SymValue *stored, unsigned role,
                                 bool collective) {
  if (ptr.space == MemorySpace::Private && !m_s.options.memorySafety)
    return; // private memory never races (docs/contract.md §5); a site only for the bounds query
  unsigned id = m_s.siteFor(&inst, role);
  AccessSite &site = m_s.sites[id];
  // Constant memory is global memory the kernel may not write (OpenCL 1.2 §6.5.3): a `constant` argument
  // that is the same buffer as a written `global` one races with its writes, so both are Global here.
  site.space = ptr.space == MemorySpace::Local     ? MemorySpace::Local
               : ptr.space == MemorySpace::Private ? MemorySpace::Private
                                                   : MemorySpace::Global;
  site.reads = reads;
  site.writes = writes;
  site.atomic = atomic;
  site.collective = collective;
  site.elementSize = elementSize ? elementSize : 1;
  if (size.isBitVectorValue())
    site.sizeBytes = static_cast<unsigned>(std::stoull(size.getBitVectorValue(10)));
  if (m_thread == 0) {
    if (ptr.object.isBitVectorValue()) {
      std::uint64_t object = std::stoull(ptr.object.getBitVectorValue(10));
      auto named = m_s.objectNames.find(object);
      site.object = named != m_s.objectNames.end() ? named->second : "";
    }
  }
  AccessRecord &r = m_s.records[m_thread][id];
  r.present = true;
  r.reach = m_reach[inst.getParent()];
  r.reachHow = m_reachHow[inst.getParent()];
  r.pointer = ptr;
  r.size = size;
  r.sizeHow = sizeHow;
  r.localEpoch = m_epoch.first;
  r.globalEpoch = m_epoch.second;
  r.done = m_done.term;
  r.doneHow = m_done.how;
  r.tagBit = m_tf.constant(64, 0);
  if (collective)
    if (auto tag = m_s.copyTags.find(&inst); tag != m_s.copyTags.end())
      r.tagBit = m_tf.constant(64, 1ull << tag->second);
  if (stored) {
    r.hasValue = true;
    r.value = *stored;
  }
  if (m_thread == 0 && m_s.options.memorySafety) { // a bounds witness names them
    std::vector<const llvm::Value *> roots;
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst))
      roots.push_back(load->getPointerOperand());
    else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst))
      roots.push_back(store->getPointerOperand());
    else if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&inst))
      roots.push_back(rmw->getPointerOperand());
    else if (auto *cas = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&inst))
      roots.push_back(cas->getPointerOperand());
    else if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst)) {
      // Pointer arguments, and the scalar offset of vload/vstore; not the values an atomic or a store writes.
      llvm::Function *callee = call->getCalledFunction();
      bool vector = callee && (callee->getName().contains("vload") || callee->getName().contains("vstore"));
      for (const llvm::Use &arg : call->args())
        if (arg->getType()->isPointerTy() || (vector && arg->getType()->isIntegerTy()))
          roots.push_back(arg.get());
    }
    r.indexVariables = indexVariables(roots);
  }
}

std::vector<std::pair<std::string, cvc5::Term>>
ThreadEncoder::indexVariables(const std::vector<const llvm::Value *> &roots) {
  std::vector<std::pair<std::string, cvc5::Term>> out;
  std::set<const llvm::Value *> seen;
  std::set<std::string> names;
  std::vector<const llvm::Value *> todo(roots.rbegin(), roots.rend());
  while (!todo.empty() && seen.size() < 64 && out.size() < 4) {
    const llvm::Value *v = todo.back();
    todo.pop_back();
    if (!seen.insert(v).second)
      continue;
    if (const auto *phi = llvm::dyn_cast<llvm::PHINode>(v)) {
      // mem2reg names a variable's PHI after it: `xx.0` for `xx`. Integers only (not a float accumulator).
      std::string name = phi->getName().str().substr(0, phi->getName().find('.'));
      if (phi->getType()->isIntegerTy() && !name.empty() && name != "retval" && name != "cleanup" &&
          names.insert(name).second)
        if (auto term = value(phi))
          out.emplace_back(name, term->term);
      continue;
    }
    const auto *inst = llvm::dyn_cast<llvm::Instruction>(v);
    if (!inst || llvm::isa<llvm::LoadInst>(inst) ||
        (llvm::isa<llvm::CallBase>(inst) && !llvm::isa<llvm::IntrinsicInst>(inst)))
      continue; // reads and calls are named elsewhere (table reads, work-item ids)
    for (const llvm::Use &operand : llvm::reverse(inst->operands()))
      todo.push_back(operand.get());
  }
  return out;
}

SymValue ThreadEncoder::storedValue(llvm::Value &operand, const std::string &what) {
  if (auto v = value(&operand))
    return *v;
  return freshValue(operand.getType(),
                    m_s.slice.available(&operand) ? what : "a stored value outside the dependence slice");
}

void ThreadEncoder::noteSlicedValue(llvm::Instruction &inst, const llvm::Value &operand) {
  if (m_s.slice.available(&operand))
    return;
  if (auto id = m_s.siteOf.find({&inst, 0}); id != m_s.siteOf.end())
    m_s.records[m_thread][id->second].valueSliced = true;
}

} // namespace clcapture::encode
