//===- EncodeCalls.cpp - Calls: intrinsics, work-item queries, atomic and vector built-ins -===//

#include "ThreadEncoderImpl.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Operator.h>

namespace clcapture::encode {

using model::BuiltinKind;

namespace {

/// The size of the element a copy's pointer indexes (`buf[i]` or `tmp[l]` of a struct array: the struct), for
/// reporting an element index; 1 (bytes) where the pointer is not an element of an array.
unsigned indexedElementBytesOf(const llvm::DataLayout &layout, const llvm::Value *p) {
  auto *gep = llvm::dyn_cast<llvm::GEPOperator>(p->stripPointerCasts());
  if (!gep || gep->getNumIndices() == 0)
    return 1;
  llvm::Type *element = gep->getSourceElementType();
  if (gep->getNumIndices() > 1) {
    llvm::SmallVector<llvm::Value *, 4> outer(gep->idx_begin(), std::prev(gep->idx_end()));
    auto *array = llvm::dyn_cast_or_null<llvm::ArrayType>(
        llvm::GetElementPtrInst::getIndexedType(gep->getSourceElementType(), outer));
    if (!array)
      return 1; // a struct's field
    element = array->getElementType();
  }
  if (!element->isSized())
    return 1;
  std::uint64_t bytes = layout.getTypeAllocSize(element).getFixedValue();
  return bytes > 0 && bytes <= (1u << 20) ? static_cast<unsigned>(bytes) : 1;
}

} // namespace

format::Status ThreadEncoder::visitCallBase(llvm::CallBase &call) {
  llvm::Function *callee = call.getCalledFunction();
  if (!callee)
    return format::fail("an indirect call at " + placeOf(&call));
  if (auto *intr = llvm::dyn_cast<llvm::IntrinsicInst>(&call))
    return encodeIntrinsic(*intr);
  model::Builtin b = model::classifyBuiltin(*callee);
  switch (b.kind) {
  case BuiltinKind::GlobalId:
  case BuiltinKind::LocalId:
  case BuiltinKind::GroupId:
  case BuiltinKind::GlobalSize:
  case BuiltinKind::LocalSize:
  case BuiltinKind::EnqueuedLocalSize:
  case BuiltinKind::NumGroups:
  case BuiltinKind::GlobalOffset:
  case BuiltinKind::WorkDim:
  case BuiltinKind::GlobalLinearId:
  case BuiltinKind::LocalLinearId:
    return encodeWorkItemQuery(call, b);
  case BuiltinKind::AsyncCopy:
    return encodeAsyncCopy(call, b);
  case BuiltinKind::WaitEvents:
    return encodeWaitEvents(call);
  case BuiltinKind::Barrier:
    return encodeBarrier(call);
  case BuiltinKind::WorkGroupCollective:
    return encodeCollective(call, b);
  case BuiltinKind::ImageRead:
  case BuiltinKind::ImageWrite:
    return encodeImageAccess(call, b.kind == BuiltinKind::ImageWrite);
  case BuiltinKind::ImageQuery:
    if (!call.getType()->isVoidTy()) {
      if (auto known = imageQuery(call, b.name))
        m_values[&call] = *known;
      else
        m_values[&call] =
            freshValue(call.getType(), "the image's " + b.name.substr(std::string("get_image_").size()) +
                                           " (not in the capture)");
    }
    return {};
  case BuiltinKind::MemFence:
  case BuiltinKind::NoEffect:
    if (!call.getType()->isVoidTy())
      m_values[&call] = freshValue(call.getType(), "the result of " + b.name);
    return {};
  case BuiltinKind::AtomicRmw:
  case BuiltinKind::AtomicLoad:
  case BuiltinKind::AtomicStore:
    return encodeAtomicBuiltin(call, b);
  case BuiltinKind::VectorLoad:
  case BuiltinKind::VectorStore:
    return encodeVectorMemory(call, b);
  case BuiltinKind::Pure:
    if (auto exact = integerBuiltin(call, b.name)) {
      m_values[&call] = *exact;
      return {};
    }
    if (!call.getType()->isVoidTy())
      m_values[&call] = freshValue(call.getType(), "the result of " + b.name);
    return {};
  case BuiltinKind::MathWithOutput: {
    // The second result goes to *out: the same gentype (sincos, fract, modf) or an int per lane (frexp,
    // remquo, lgamma_r) — a write of those bytes, with a value the encoder does not compute.
    llvm::Value *out = call.getArgOperand(call.arg_size() - 1);
    auto p = pointer(out);
    if (!p)
      return format::fail(b.name + " writing through a pointer the encoder cannot follow at " +
                          placeOf(&call));
    llvm::Type *type = call.getType();
    bool intOut = b.name == "frexp" || b.name == "remquo" || b.name == "lgamma_r";
    unsigned lanes = type->isVectorTy() ? llvm::cast<llvm::FixedVectorType>(type)->getNumElements() : 1;
    unsigned element =
        intOut ? 4
               : static_cast<unsigned>(m_s.layout.getTypeStoreSize(type->getScalarType()).getFixedValue());
    std::uint64_t bytes =
        intOut ? std::uint64_t{4} * lanes : m_s.layout.getTypeStoreSize(type).getFixedValue();
    SymValue stored{
        m_tf.fresh(m_tf.bv(static_cast<unsigned>(bytes * 8)), name("out" + std::to_string(m_fresh++))),
        Exactness{"the value " + b.name + " stores at " + placeOf(&call)}};
    recordAccess(call, *p, m_tf.constant(64, bytes), {}, false, true, false, element, &stored);
    if (p->space == MemorySpace::Private)
      notePrivateStore(call, *p, m_tf.constant(64, bytes), nullptr);
    m_values[&call] = freshValue(type, "the result of " + b.name);
    return {};
  }
  case BuiltinKind::Unsupported:
    if (b.declaredByProgram)
      return format::fail("a call at " + placeOf(&call) + " to '" + b.name +
                          "', which the program declares without a body (not an OpenCL C built-in)");
    break;
  }
  return format::fail("the built-in " + b.name + " at " + placeOf(&call) + " is not modelled");
}

format::Status ThreadEncoder::encodeIntrinsic(llvm::IntrinsicInst &call) {
  switch (call.getIntrinsicID()) {
  case llvm::Intrinsic::dbg_declare:
  case llvm::Intrinsic::dbg_value:
  case llvm::Intrinsic::dbg_label:
  case llvm::Intrinsic::lifetime_start:
  case llvm::Intrinsic::lifetime_end:
  case llvm::Intrinsic::assume:
  case llvm::Intrinsic::experimental_noalias_scope_decl:
    return {};
  case llvm::Intrinsic::memcpy:
  case llvm::Intrinsic::memmove:
  case llvm::Intrinsic::memset: {
    // A copy writes every byte of [dst, dst + len) and reads every byte of [src, src + len), in the barrier
    // interval it is in; memmove reads all its source before it writes (as if through a temporary), so it
    // reads and writes the same bytes as memcpy. One instruction, two accesses: the read is role 1, its own
    // site. The values copied are not tracked: a later read of global or local memory is an unknown
    // anyway, a private variable whose address reaches a call is not read back (privateValueAt), and a
    // pointer read back from the bytes written in private memory is unknown (notePrivateStore, no
    // pointer). No stored value: never benign.
    auto dst = pointer(call.getArgOperand(0));
    auto len = value(call.getArgOperand(2));
    if (!dst || !len || len->term.getSort().isBoolean())
      return format::fail("a memory copy the encoder cannot follow at " + placeOf(&call));
    std::optional<SymPointer> src;
    if (call.getIntrinsicID() != llvm::Intrinsic::memset) {
      src = pointer(call.getArgOperand(1));
      if (!src)
        return format::fail("a memory copy the encoder cannot follow at " + placeOf(&call));
    }
    cvc5::Term size = m_tf.resize(len->term, 64, false);
    recordAccess(call, *dst, size, len->how, false, true, false,
                 indexedElementBytesOf(m_s.layout, call.getArgOperand(0)), nullptr);
    if (dst->space == MemorySpace::Private)
      notePrivateStore(call, *dst, size, nullptr);
    if (src)
      recordAccess(call, *src, size, len->how, true, false, false,
                   indexedElementBytesOf(m_s.layout, call.getArgOperand(1)), nullptr, /*role=*/1);
    return {};
  }
  case llvm::Intrinsic::smax:
  case llvm::Intrinsic::smin:
  case llvm::Intrinsic::umax:
  case llvm::Intrinsic::umin: {
    auto a = value(call.getArgOperand(0)), b = value(call.getArgOperand(1));
    if (!a || !b || a->term.getSort().isBoolean())
      break;
    cvc5::Kind less =
        call.getIntrinsicID() == llvm::Intrinsic::smax || call.getIntrinsicID() == llvm::Intrinsic::smin
            ? cvc5::Kind::BITVECTOR_SLT
            : cvc5::Kind::BITVECTOR_ULT;
    bool max =
        call.getIntrinsicID() == llvm::Intrinsic::smax || call.getIntrinsicID() == llvm::Intrinsic::umax;
    cvc5::Term lt = m_tf.op(less, {a->term, b->term});
    m_values[&call] =
        SymValue{max ? m_tf.ite(lt, b->term, a->term) : m_tf.ite(lt, a->term, b->term), a->how & b->how};
    return {};
  }
  default:
    break;
  }
  for (llvm::Value *arg : call.args())
    if (arg->getType()->isPointerTy())
      return format::fail("the intrinsic " + call.getCalledFunction()->getName().str() + " at " +
                          placeOf(&call));
  if (!call.getType()->isVoidTy())
    m_values[&call] =
        freshValue(call.getType(), "the result of " + call.getCalledFunction()->getName().str());
  return {};
}

format::Status ThreadEncoder::encodeWorkItemQuery(llvm::CallBase &call, const model::Builtin &b) {
  auto dimension = [&]() -> std::optional<unsigned> {
    if (call.arg_size() < 1)
      return std::nullopt;
    if (auto *c = llvm::dyn_cast<llvm::ConstantInt>(call.getArgOperand(0)))
      return static_cast<unsigned>(c->getZExtValue());
    return std::nullopt;
  };
  auto idResult = [&](const std::array<cvc5::Term, 3> &terms, const char *what) -> format::Status {
    auto d = dimension();
    if (!d)
      return format::fail(std::string(what) + " with a dimension that is not constant at " + placeOf(&call));
    cvc5::Term t = *d < 3 ? terms[*d] : m_tf.constant(64, 0);
    unsigned bits = static_cast<unsigned>(call.getType()->getIntegerBitWidth());
    m_values[&call] = SymValue{m_tf.resize(t, bits, false), {}};
    return {};
  };
  const ThreadIdTerms &ids = m_s.ids[m_thread];
  switch (b.kind) {
  case BuiltinKind::GlobalId:
    return idResult(ids.global, "get_global_id");
  case BuiltinKind::LocalId:
    return idResult(ids.local, "get_local_id");
  case BuiltinKind::GroupId:
    return idResult(ids.group, "get_group_id");
  case BuiltinKind::GlobalSize:
    return idResult(m_s.globalSize, "get_global_size");
  case BuiltinKind::LocalSize:
    return idResult(ids.localSize, "get_local_size");
  case BuiltinKind::EnqueuedLocalSize:
    return idResult(m_s.localSize, "get_enqueued_local_size");
  case BuiltinKind::NumGroups:
    return idResult(m_s.numGroups, "get_num_groups");
  case BuiltinKind::GlobalOffset:
    return idResult(m_s.globalOffset, "get_global_offset");
  case BuiltinKind::WorkDim: {
    unsigned bits = static_cast<unsigned>(call.getType()->getIntegerBitWidth());
    m_values[&call] = SymValue{m_tf.constant(bits, m_s.launch.workDim), {}};
    return {};
  }
  case BuiltinKind::GlobalLinearId:
  case BuiltinKind::LocalLinearId: {
    // OpenCL 2.0 §6.13.1: ((id2 * size1) + id1) * size0 + id0, global ids taken relative to the offset.
    bool global = b.kind == BuiltinKind::GlobalLinearId;
    const auto &id = global ? ids.global : ids.local;
    const auto &size = global ? m_s.globalSize : ids.localSize;
    auto rel = [&](unsigned d) {
      return global ? m_tf.op(cvc5::Kind::BITVECTOR_SUB, {id[d], m_s.globalOffset[d]}) : id[d];
    };
    cvc5::Term t = m_tf.add(m_tf.mul(m_tf.add(m_tf.mul(rel(2), size[1]), rel(1)), size[0]), rel(0));
    m_values[&call] = SymValue{m_tf.resize(t, call.getType()->getIntegerBitWidth(), false), {}};
    return {};
  }
  default:
    break;
  }
  return format::fail("the built-in " + b.name + " at " + placeOf(&call) + " is not modelled");
}

namespace {

/// The memory_scope an OpenCL 2.0 `_explicit` atomic names (its last argument, after the memory order);
/// memory_scope_device for every other atomic (OpenCL 1.x atomics, or no scope given). nullopt: not constant.
std::optional<std::uint64_t> atomicScope(llvm::CallBase &call, const model::Builtin &b) {
  constexpr std::uint64_t kDevice = 2; // __OPENCL_MEMORY_SCOPE_DEVICE
  const std::string &n = b.name;
  if (n.size() < 9 || n.compare(n.size() - 9, 9, "_explicit") != 0)
    return kDevice;
  unsigned operands = b.kind == model::BuiltinKind::AtomicLoad ? 1 : 2; // object [, operand]
  if (call.arg_size() < operands + 2)
    return kDevice; // (object, [operand,] order): memory_scope_device
  if (auto *c = llvm::dyn_cast<llvm::ConstantInt>(call.getArgOperand(call.arg_size() - 1)))
    return c->getZExtValue();
  return std::nullopt;
}

} // namespace

std::optional<std::int64_t> counterStep(const llvm::CallBase &call, const model::Builtin &b) {
  if (b.kind != BuiltinKind::AtomicRmw || call.getType()->isVoidTy())
    return std::nullopt;
  if (b.name == "atomic_inc" || b.name == "atom_inc")
    return 1;
  if ((b.name == "atomic_add" || b.name == "atom_add" || b.name == "atomic_fetch_add") &&
      call.arg_size() >= 2)
    if (auto *c = llvm::dyn_cast<llvm::ConstantInt>(call.getArgOperand(1)); c && !c->isZero())
      return c->getSExtValue();
  return std::nullopt;
}

format::Status ThreadEncoder::encodeAtomicBuiltin(llvm::CallBase &call, const model::Builtin &b) {
  auto p = call.arg_size() ? pointer(call.getArgOperand(0)) : std::nullopt;
  if (!p)
    return format::fail("an atomic operation on a pointer the encoder cannot follow at " + placeOf(&call));
  llvm::Type *valueType =
      call.getType()->isVoidTy() && call.arg_size() > 1 ? call.getArgOperand(1)->getType() : call.getType();
  unsigned bytes = static_cast<unsigned>(m_s.layout.getTypeStoreSize(valueType).getFixedValue());
  bool reads = b.kind != BuiltinKind::AtomicStore, writes = b.kind != BuiltinKind::AtomicLoad;
  // OpenCL 2.0 §3.3.4: an atomic is atomic only among the work-items of its memory scope. Work-group
  // scope on global memory: atomic within a group, a race between groups. Work-item or sub-group scope
  // (or a scope that is not constant): treated as no atomicity at all between work-items.
  constexpr std::uint64_t kWorkGroup = 1, kDevice = 2, kAllDevices = 3;
  std::optional<std::uint64_t> scope = atomicScope(call, b);
  bool groupScoped = scope && *scope == kWorkGroup && p->space != MemorySpace::Local;
  bool atomic = scope && (*scope == kWorkGroup || *scope == kDevice || *scope == kAllDevices);
  // atomic_cmpxchg(p, expected, desired) reads always and writes only when it reads `expected`: a read
  // site, and a write site whose reach requires success (CompareExchange).
  bool compareExchange = (b.name == "atomic_cmpxchg" || b.name == "atom_cmpxchg") && call.arg_size() == 3 &&
                         !call.getType()->isVoidTy();
  recordAccess(call, *p, m_tf.constant(64, bytes), {}, reads, writes && !compareExchange, atomic, bytes,
               nullptr);
  if (p->space != MemorySpace::Private)
    m_s.sites[m_s.siteFor(&call)].groupScopedAtomic = groupScoped;
  if (!call.getType()->isVoidTy()) {
    std::string what = "the value " + b.name + " returns at " + placeOf(&call);
    SymValue result = freshValue(call.getType(), what);
    if (compareExchange)
      recordCompareExchange(call, *p, bytes, atomic, groupScoped, result);
    // A counter: every atomic_inc (or atomic_add of one constant) of a location returns a different value
    // to each work-item — stated after encoding, when every write to that memory is known, and only under
    // the conditions stateCounterFacts checks (no wrap, scope of the memory).
    std::optional<std::int64_t> step = counterStep(call, b);
    if (step && atomic && result.term.getSort().isBitVector()) {
      unsigned width = result.term.getSort().getBitVectorSize();
      std::uint64_t mask = width >= 64 ? ~0ull : (1ull << width) - 1;
      CounterResult c{m_s.siteFor(&call),
                      static_cast<std::uint64_t>(*step) & mask,
                      m_loops.getLoopFor(call.getParent()) != nullptr,
                      p->space == MemorySpace::Local || (scope && *scope == kWorkGroup),
                      m_reach[call.getParent()],
                      p->object,
                      p->offset,
                      result.term,
                      p->space == MemorySpace::Local ? m_epoch.first : m_epoch.second,
                      false,
                      what};
      // Exact where a real execution can give these results (a guard, stated by guardCounterResults): a
      // counter that starts open and is only counted (openCounterCalls). Not a work-group-scoped atomic on
      // global memory: groups share that counter without atomicity between them.
      c.exactWithGuard = m_s.openCounterCalls.count(&call) && !c.inLoop && p->object.isBitVectorValue() &&
                         p->how.exact() && m_reachHow[call.getParent()].exact() &&
                         (p->space == MemorySpace::Local || !c.groupScoped);
      if (c.exactWithGuard)
        result.how = Exactness{};
      m_s.counterResults[m_thread].push_back(std::move(c));
    }
    m_values[&call] = result;
  }
  return {};
}

void ThreadEncoder::recordCompareExchange(llvm::CallBase &call, const SymPointer &at, unsigned bytes,
                                          bool atomic, bool groupScoped, const SymValue &result) {
  auto expected = value(call.getArgOperand(1)), desired = value(call.getArgOperand(2));
  recordAccess(call, at, m_tf.constant(64, bytes), {}, false, true, atomic, bytes, nullptr, 1);
  if (at.space == MemorySpace::Private)
    return;
  unsigned id = m_s.siteFor(&call, 1);
  m_s.sites[id].groupScopedAtomic = groupScoped;
  if (!expected || !desired || !result.term.getSort().isBitVector() ||
      expected->term.getSort() != result.term.getSort() || desired->term.getSort() != result.term.getSort())
    return; // the write is taken to happen whenever the call is reached
  // The write happens exactly when the old value is `expected`. Whether it does is read off the result,
  // whose value is open; the reach's exactness stays the block's: under OpenCL 1.2's wording the call
  // stores (old == cmp ? val : old) in every case, so a race witnessed through a successful store is a
  // race by either reading.
  cvc5::Term success = m_tf.eq(result.term, expected->term);
  AccessRecord &r = m_s.records[m_thread][id];
  r.reach = m_tf.land(r.reach, success);
  CompareExchange c;
  c.site = id;
  c.inLoop = m_loops.getLoopFor(call.getParent()) != nullptr;
  c.local = at.space == MemorySpace::Local;
  c.reach = m_reach[call.getParent()];
  c.object = at.object;
  c.offset = at.offset;
  c.expected = expected->term;
  c.desired = desired->term;
  c.success = success;
  c.epoch = c.local ? m_epoch.first : m_epoch.second;
  if (atomic && !groupScoped)
    m_s.compareExchanges[m_thread].push_back(std::move(c));
}

format::Status ThreadEncoder::encodeVectorMemory(llvm::CallBase &call, const model::Builtin &b) {
  bool load = b.kind == BuiltinKind::VectorLoad;
  unsigned offsetArg = load ? 0 : 1, pointerArg = load ? 1 : 2;
  if (call.arg_size() <= pointerArg)
    return format::fail("an unexpected " + b.name + " at " + placeOf(&call));
  auto p = pointer(call.getArgOperand(pointerArg));
  auto offset = value(call.getArgOperand(offsetArg));
  if (!p || !offset)
    return format::fail(b.name + " on a pointer the encoder cannot follow at " + placeOf(&call));
  unsigned element = b.halfPrecision ? 2 : 0;
  if (!element) {
    llvm::Type *vector = load ? call.getType() : call.getArgOperand(0)->getType();
    llvm::Type *scalar =
        vector->isVectorTy() ? llvm::cast<llvm::VectorType>(vector)->getElementType() : vector;
    element = static_cast<unsigned>(m_s.layout.getTypeStoreSize(scalar).getFixedValue());
  }
  // OpenCL 1.2 §6.12.7: vloadn reads n elements at p + offset * n.
  std::uint64_t bytes = static_cast<std::uint64_t>(element) * b.vectorWidth;
  SymPointer at = *p;
  at.offset = m_tf.add(p->offset, m_tf.mul(m_tf.resize(offset->term, 64, false), m_tf.constant(64, bytes)));
  at.how = p->how & offset->how;
  SymValue stored;
  if (!load)
    stored = storedValue(*call.getArgOperand(0), "a vector value");
  recordAccess(call, at, m_tf.constant(64, bytes), {}, load, !load, false, element, load ? nullptr : &stored);
  if (!load)
    noteSlicedValue(call, *call.getArgOperand(0));
  if (load)
    m_values[&call] = freshValue(call.getType(), "a vector read from memory at " + placeOf(&call));
  return {};
}

} // namespace clcapture::encode
