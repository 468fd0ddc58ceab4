//===- ThreadEncoder.cpp - One work-item's symbolic execution of the kernel -===//

#include "ThreadEncoder.h"

#include "clcapture/model/Builtins.h"

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Operator.h>

namespace clcapture::encode {

using model::BuiltinKind;

std::string placeOf(const llvm::Instruction *inst) {
  if (inst) {
    if (const llvm::DebugLoc &loc = inst->getDebugLoc())
      return loc->getFilename().str() + ":" + std::to_string(loc.getLine());
    return inst->getFunction()->getName().str();
  }
  return "the kernel";
}

/// Where a loop is, for messages: its start location (from the loop metadata), else the first instruction
/// of its blocks with a real line (the header's first one is often compiler-made, line 0).
std::string loopPlace(const llvm::Loop &loop) {
  if (const llvm::DebugLoc start = loop.getStartLoc(); start && start.getLine() != 0)
    return start->getFilename().str() + ":" + std::to_string(start.getLine());
  for (const llvm::BasicBlock *block : loop.blocks())
    for (const llvm::Instruction &inst : *block)
      if (const llvm::DebugLoc &loc = inst.getDebugLoc(); loc && loc.getLine() != 0)
        return placeOf(&inst);
  return placeOf(loop.getHeader()->getFirstNonPHI());
}

/// Which lanes of a vector a load or store really touches (Clang's code for vector components).
struct LaneRange {
  bool whole = true;      ///< all of it (anything not matching the patterns below)
  bool none = false;      ///< nothing: the load only feeds a lane store back to the same place
  unsigned first = 0, last = 0;
};

/// A store of `insertelement(…insertelement(load p, …)…)` back to p — Clang's code for `p->x = e` on a
/// vector lvalue — writes only the inserted lanes.
LaneRange lanesWritten(const llvm::StoreInst &store) {
  LaneRange r;
  auto *vt = llvm::dyn_cast<llvm::FixedVectorType>(store.getValueOperand()->getType());
  if (!vt || store.isAtomic() || store.isVolatile())
    return r;
  const llvm::Value *v = store.getValueOperand();
  unsigned lo = ~0u, hi = 0;
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

/// A vector load that only feeds a lane store back to the same place (lanesWritten) reads nothing: it is
/// Clang's code for `p->x = e`, which reads nothing in the source. Any other load reads the whole vector.
LaneRange lanesRead(const llvm::LoadInst &load) {
  LaneRange r;
  if (!llvm::isa<llvm::FixedVectorType>(load.getType()) || load.isAtomic() || load.isVolatile() || load.use_empty())
    return r;
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

namespace {

class ThreadEncoder {
public:
  ThreadEncoder(EncodingState &state, unsigned thread)
      : m_s(state), m_tf(state.tf), m_thread(thread), m_dom(state.kernel), m_loops(m_dom),
        m_tli(m_tlii), m_ac(state.kernel), m_scev(state.kernel, m_tli, m_ac, m_dom, m_loops) {}

  format::Status run();

private:
  // --- values ---
  std::string name(const std::string &what) const { return what + (m_thread == 0 ? "_A" : "_B"); }
  SymValue freshValue(llvm::Type *type, const std::string &why);
  cvc5::Sort sortOf(llvm::Type *type);
  std::optional<SymValue> value(const llvm::Value *v);
  std::optional<SymPointer> pointer(const llvm::Value *v);
  format::Status encodeInstruction(llvm::Instruction &inst);
  format::Status encodeCall(llvm::CallBase &call);
  format::Status encodePhi(llvm::PHINode &phi);
  /// `role` tells apart two accesses of one instruction (an async copy's write and read); `collective`
  /// marks an access the whole work-group makes together (an async copy).
  void recordAccess(llvm::Instruction &inst, const SymPointer &ptr, cvc5::Term size, Exactness sizeHow,
                    bool reads, bool writes, bool atomic, unsigned elementSize, const SymValue *stored,
                    unsigned role = 0, bool collective = false);
  SymValue loadValue(llvm::Instruction &inst, llvm::Type *type, const SymPointer &ptr, bool wordwise = true);
  enum class LaneResult { Done, NotLanes };
  LaneResult encodeVectorLanes(llvm::Instruction &inst);
  format::Status encodeImageAccess(llvm::CallBase &call, bool write);
  /// min, max, clamp, abs, mul24 and mad24 on scalar integers, exactly; nullopt for anything else (then: an unknown).
  std::optional<SymValue> integerBuiltin(llvm::CallBase &call, const std::string &name);
  std::optional<SymValue> fromScev(const llvm::SCEV *s);

  // --- control flow ---
  cvc5::Term edge(const llvm::BasicBlock *from, const llvm::BasicBlock *to, Exactness &how);
  bool isBackEdge(const llvm::BasicBlock *from, const llvm::BasicBlock *to) const;
  format::Status enterBlock(llvm::BasicBlock &block);
  format::Status enterLoop(llvm::Loop &loop);

  EncodingState &m_s;
  TermFactory &m_tf;
  unsigned m_thread;
  llvm::DominatorTree m_dom;
  llvm::LoopInfo m_loops;
  llvm::TargetLibraryInfoImpl m_tlii;
  llvm::TargetLibraryInfo m_tli;
  llvm::AssumptionCache m_ac;
  llvm::ScalarEvolution m_scev;

  std::map<const llvm::Value *, SymValue> m_values;
  std::map<const llvm::Value *, SymPointer> m_pointers;
  std::map<const llvm::BasicBlock *, cvc5::Term> m_reach;
  std::map<const llvm::BasicBlock *, Exactness> m_reachHow;
  std::map<const llvm::BasicBlock *, std::pair<cvc5::Term, cvc5::Term>> m_epochOut; ///< (local, global)
  std::pair<cvc5::Term, cvc5::Term> m_epoch;
  /// How many wait_group_events this work-item has passed (16-bit), per block's end and now.
  std::map<const llvm::BasicBlock *, cvc5::Term> m_waitsOut;
  cvc5::Term m_waits;
  std::map<const llvm::Loop *, cvc5::Term> m_iteration; ///< 64-bit iteration variable of a loop
  std::map<const llvm::Loop *, cvc5::Term> m_loopEntry;  ///< the loop is entered
  std::map<const llvm::Loop *, Exactness> m_loopHow;
  std::map<const llvm::BasicBlock *, unsigned> m_rpoIndex;
  unsigned m_fresh = 0;
  std::uint64_t m_nextPrivate = 0;
};

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
    if (auto *vt = llvm::dyn_cast<llvm::FixedVectorType>(v->getType()); vt && !vt->getElementType()->isIntegerTy(1)) {
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
  if (llvm::isa<llvm::ConstantPointerNull>(v) || llvm::isa<llvm::UndefValue>(v)) {
    SymPointer p;
    p.space = static_cast<Space>(v->getType()->getPointerAddressSpace());
    p.object = m_tf.constant(64, 0);
    p.offset = m_tf.constant(64, 0);
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
          inst->getType()->getPointerAddressSpace() != static_cast<unsigned>(Space::Generic))
        result->space = static_cast<Space>(inst->getType()->getPointerAddressSpace());
    }
    inst->deleteValue();
    return result;
  }
  return std::nullopt;
}

bool ThreadEncoder::isBackEdge(const llvm::BasicBlock *from, const llvm::BasicBlock *to) const {
  auto f = m_rpoIndex.find(from), t = m_rpoIndex.find(to);
  return f != m_rpoIndex.end() && t != m_rpoIndex.end() && f->second >= t->second;
}

cvc5::Term ThreadEncoder::edge(const llvm::BasicBlock *from, const llvm::BasicBlock *to, Exactness &how) {
  auto reach = m_reach.find(from);
  if (reach == m_reach.end())
    return m_tf.boolean(false);
  how = how & m_reachHow[from];
  const llvm::Instruction *term = from->getTerminator();
  cvc5::Term cond = m_tf.boolean(true);
  if (auto *br = llvm::dyn_cast<llvm::BranchInst>(term)) {
    if (br->isConditional() && br->getSuccessor(0) != br->getSuccessor(1)) {
      auto c = value(br->getCondition());
      if (!c)
        c = freshValue(br->getCondition()->getType(), "a branch condition the encoder does not model");
      how = how & c->how;
      cond = br->getSuccessor(0) == to ? c->term : m_tf.lnot(c->term);
    }
  } else if (auto *sw = llvm::dyn_cast<llvm::SwitchInst>(term)) {
    auto c = value(sw->getCondition());
    if (!c)
      c = freshValue(sw->getCondition()->getType(), "a switch condition the encoder does not model");
    how = how & c->how;
    cvc5::Term any = m_tf.boolean(false), toHere = m_tf.boolean(false);
    for (auto &kase : sw->cases()) {
      cvc5::Term match = m_tf.eq(c->term, value(kase.getCaseValue())->term);
      any = m_tf.lor(any, match);
      if (kase.getCaseSuccessor() == to)
        toHere = m_tf.lor(toHere, match);
    }
    if (sw->getDefaultDest() == to)
      toHere = m_tf.lor(toHere, m_tf.lnot(any));
    cond = toHere;
  }
  // Leaving a loop: the edge is taken at the loop's last iteration, which the encoding does not single
  // out (it encodes one arbitrary iteration). The exit is reached whenever the loop was entered (loops
  // terminate); with several exits, which one is taken is left open.
  const llvm::Loop *inner = m_loops.getLoopFor(from);
  const llvm::Loop *exited = nullptr;
  for (const llvm::Loop *l = inner; l && !l->contains(to); l = l->getParentLoop())
    exited = l;
  if (exited) {
    llvm::SmallVector<llvm::BasicBlock *, 4> exits;
    exited->getUniqueExitBlocks(exits);
    cvc5::Term entered = m_loopEntry[exited];
    if (exits.size() == 1)
      return entered;
    how = how & Exactness{"which exit of the loop at " + loopPlace(*exited) +
                          " is taken"};
    return m_tf.land(entered, m_tf.fresh(m_tf.solver().getBooleanSort(), name("exit" + std::to_string(m_fresh++))));
  }
  return m_tf.land(reach->second, cond);
}

std::optional<SymValue> ThreadEncoder::fromScev(const llvm::SCEV *s) {
  using namespace llvm;
  auto width = [&](const SCEV *e) { return static_cast<unsigned>(m_scev.getTypeSizeInBits(e->getType())); };
  if (auto *c = dyn_cast<SCEVConstant>(s)) {
    const APInt &v = c->getAPInt();
    if (v.getBitWidth() > 64)
      return std::nullopt;
    return SymValue{m_tf.constant(v.getBitWidth(), v.getZExtValue()), {}};
  }
  if (auto *u = dyn_cast<SCEVUnknown>(s)) {
    if (u->getType()->isPointerTy())
      return std::nullopt;
    auto v = value(u->getValue());
    if (v && v->term.getSort().isBoolean())
      return std::nullopt;
    return v;
  }
  if (auto *cast = dyn_cast<SCEVCastExpr>(s)) {
    auto op = fromScev(cast->getOperand());
    if (!op || isa<SCEVPtrToIntExpr>(cast))
      return std::nullopt;
    bool isSigned = isa<SCEVSignExtendExpr>(cast);
    return SymValue{m_tf.resize(op->term, width(s), isSigned), op->how};
  }
  if (auto *nary = dyn_cast<SCEVNAryExpr>(s)) {
    if (auto *rec = dyn_cast<SCEVAddRecExpr>(s)) {
      if (!rec->isAffine())
        return std::nullopt;
      auto it = m_iteration.find(rec->getLoop());
      if (it == m_iteration.end())
        return std::nullopt;
      auto start = fromScev(rec->getStart()), step = fromScev(rec->getStepRecurrence(m_scev));
      if (!start || !step)
        return std::nullopt;
      unsigned w = width(s);
      cvc5::Term k = m_tf.resize(it->second, w, false);
      return SymValue{m_tf.add(start->term, m_tf.mul(step->term, k)), start->how & step->how};
    }
    std::optional<SymValue> acc;
    for (const SCEV *operand : nary->operands()) {
      auto v = fromScev(operand);
      if (!v)
        return std::nullopt;
      if (!acc) {
        acc = v;
        continue;
      }
      cvc5::Kind kind;
      switch (s->getSCEVType()) {
      case scAddExpr:
        kind = cvc5::Kind::BITVECTOR_ADD;
        break;
      case scMulExpr:
        kind = cvc5::Kind::BITVECTOR_MULT;
        break;
      case scUMaxExpr:
        acc->term = m_tf.ite(m_tf.ult(acc->term, v->term), v->term, acc->term);
        acc->how = acc->how & v->how;
        continue;
      case scSMaxExpr:
        acc->term = m_tf.ite(m_tf.op(cvc5::Kind::BITVECTOR_SLT, {acc->term, v->term}), v->term, acc->term);
        acc->how = acc->how & v->how;
        continue;
      case scUMinExpr:
      case scSequentialUMinExpr:
        acc->term = m_tf.ite(m_tf.ult(v->term, acc->term), v->term, acc->term);
        acc->how = acc->how & v->how;
        continue;
      case scSMinExpr:
        acc->term = m_tf.ite(m_tf.op(cvc5::Kind::BITVECTOR_SLT, {v->term, acc->term}), v->term, acc->term);
        acc->how = acc->how & v->how;
        continue;
      default:
        return std::nullopt;
      }
      acc->term = m_tf.op(kind, {acc->term, v->term});
      acc->how = acc->how & v->how;
    }
    return acc;
  }
  if (auto *div = dyn_cast<SCEVUDivExpr>(s)) {
    auto l = fromScev(div->getLHS()), r = fromScev(div->getRHS());
    if (!l || !r)
      return std::nullopt;
    return SymValue{m_tf.op(cvc5::Kind::BITVECTOR_UDIV, {l->term, r->term}), l->how & r->how};
  }
  return std::nullopt;
}

format::Status ThreadEncoder::enterLoop(llvm::Loop &loop) {
  for (llvm::BasicBlock *block : loop.blocks())
    for (llvm::Instruction &inst : *block)
      if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst))
        if (call->getCalledFunction() &&
            model::classifyBuiltin(*call->getCalledFunction()).kind == BuiltinKind::Barrier)
          return format::fail("the loop at " + loopPlace(loop) +
                              " contains a barrier and its trip count is not a small constant for this launch");
  cvc5::Term k = m_tf.fresh(m_tf.bv(64), name("iter" + std::to_string(m_iteration.size())));
  m_iteration[&loop] = k;
  Exactness how;
  const llvm::SCEV *taken = m_scev.getBackedgeTakenCount(&loop);
  cvc5::Term bound = m_tf.boolean(true);
  if (auto t = llvm::isa<llvm::SCEVCouldNotCompute>(taken) ? std::nullopt : fromScev(taken)) {
    bound = m_tf.ule(k, m_tf.resize(t->term, 64, false));
    how = t->how;
  } else {
    how = Exactness{"the trip count of the loop at " + loopPlace(loop)};
  }
  m_loopHow[&loop] = how;
  (void)bound;
  m_loopEntry[&loop] = m_tf.boolean(false); // filled in by enterBlock for the header
  return {};
}

format::Status ThreadEncoder::enterBlock(llvm::BasicBlock &block) {
  Exactness how;
  cvc5::Term reach = m_tf.boolean(&block == &m_s.kernel.getEntryBlock());
  std::pair<cvc5::Term, cvc5::Term> epoch{m_tf.constant(16, 0), m_tf.constant(16, 0)};
  cvc5::Term waits = m_tf.constant(16, 0);
  bool firstEdge = true;
  llvm::Loop *loop = m_loops.getLoopFor(&block);
  bool header = loop && loop->getHeader() == &block;
  if (header)
    if (auto status = enterLoop(*loop); !status)
      return status;
  for (llvm::BasicBlock *pred : llvm::predecessors(&block)) {
    if (isBackEdge(pred, &block)) {
      if (!header)
        return format::fail("irreducible control flow at " + placeOf(block.getFirstNonPHI()));
      continue;
    }
    cvc5::Term e = edge(pred, &block, how);
    auto out = m_epochOut.find(pred);
    if (out != m_epochOut.end()) {
      const cvc5::Term &predWaits = m_waitsOut[pred];
      if (firstEdge) {
        epoch = out->second;
        waits = predWaits;
      } else {
        epoch.first = m_tf.ite(e, out->second.first, epoch.first);
        epoch.second = m_tf.ite(e, out->second.second, epoch.second);
        waits = m_tf.ite(e, predWaits, waits);
      }
      firstEdge = false;
    }
    reach = m_tf.lor(reach, e);
  }
  if (header) {
    m_loopEntry[loop] = reach;
    // This iteration is a real one: k ≤ the number of times the back edge is taken. When that number is
    // not known exactly (a data-dependent break), its upper bound still limits k (sound: no real iteration
    // is left out), but a witness may then be an iteration that never runs (inexact, set by enterLoop).
    const llvm::SCEV *taken = m_scev.getBackedgeTakenCount(loop);
    if (llvm::isa<llvm::SCEVCouldNotCompute>(taken))
      taken = m_scev.getSymbolicMaxBackedgeTakenCount(loop);
    if (!llvm::isa<llvm::SCEVCouldNotCompute>(taken))
      if (auto t = fromScev(taken))
        reach = m_tf.land(reach, m_tf.ule(m_iteration[loop], m_tf.resize(t->term, 64, false)));
    how = how & m_loopHow[loop];
  }
  m_reach[&block] = reach;
  m_reachHow[&block] = how;
  m_epoch = epoch;
  m_waits = waits;
  return {};
}

format::Status ThreadEncoder::encodePhi(llvm::PHINode &phi) {
  llvm::Loop *loop = m_loops.getLoopFor(phi.getParent());
  bool header = loop && loop->getHeader() == phi.getParent();
  if (header) {
    // An induction variable is a function of the iteration; any other loop-carried value is unknown.
    if (!phi.getType()->isPointerTy() && !phi.getType()->isIntegerTy(1))
      if (auto v = fromScev(m_scev.getSCEV(&phi))) {
        m_values[&phi] = *v;
        return {};
      }
    if (phi.getType()->isPointerTy()) {
      // A pointer induction (p += stride): the object stays the one it starts in, the offset is open.
      llvm::Value *start = nullptr;
      for (unsigned i = 0; i < phi.getNumIncomingValues(); ++i)
        if (!loop->contains(phi.getIncomingBlock(i)))
          start = phi.getIncomingValue(i);
      auto base = start ? pointer(start) : std::nullopt;
      if (!base)
        return format::fail("a pointer that changes across iterations at " + placeOf(&phi));
      SymPointer p = *base;
      if (auto *rec = llvm::dyn_cast<llvm::SCEVAddRecExpr>(m_scev.getSCEV(&phi));
          rec && rec->isAffine() && m_iteration.count(loop))
        if (auto step = fromScev(rec->getStepRecurrence(m_scev))) {
          p.offset = m_tf.add(base->offset, m_tf.mul(m_tf.resize(step->term, 64, true), m_iteration[loop]));
          p.how = p.how & step->how;
          m_pointers[&phi] = p;
          return {};
        }
      p.offset = m_tf.fresh(m_tf.bv(64), name("poff" + std::to_string(m_fresh++)));
      p.how = Exactness{"a pointer moved across iterations of the loop at " + placeOf(&phi)};
      m_pointers[&phi] = p;
      return {};
    }
    m_values[&phi] = freshValue(phi.getType(), "a value carried across iterations of the loop at " + placeOf(&phi));
    return {};
  }
  // An ordinary join: the value of the edge that was taken.
  std::optional<SymValue> result;
  std::optional<SymPointer> presult;
  for (unsigned i = phi.getNumIncomingValues(); i-- > 0;) {
    llvm::BasicBlock *from = phi.getIncomingBlock(i);
    Exactness how;
    cvc5::Term taken = edge(from, phi.getParent(), how);
    llvm::Value *in = phi.getIncomingValue(i);
    const llvm::Loop *fromLoop = m_loops.getLoopFor(from);
    bool leavesLoop = fromLoop && !fromLoop->contains(phi.getParent());
    if (phi.getType()->isPointerTy()) {
      auto p = pointer(in);
      if (!p)
        return format::fail("a pointer the encoder cannot follow at " + placeOf(&phi));
      if (leavesLoop)
        p->how = p->how & Exactness{"a value leaving the loop at " + placeOf(from->getTerminator())};
      if (!presult) {
        presult = p;
      } else {
        if (p->space != presult->space)
          return format::fail("a pointer into different address spaces at " + placeOf(&phi));
        presult->object = m_tf.ite(taken, p->object, presult->object);
        presult->offset = m_tf.ite(taken, p->offset, presult->offset);
        presult->how = presult->how & p->how & how;
      }
      continue;
    }
    std::optional<SymValue> v;
    if (leavesLoop) {
      // The value at the loop's last iteration, when ScalarEvolution knows it; otherwise unknown.
      if (!in->getType()->isIntegerTy(1) && in->getType()->isIntegerTy())
        v = fromScev(m_scev.getSCEVAtScope(in, m_loops.getLoopFor(phi.getParent())));
      if (!v)
        v = freshValue(phi.getType(), "a value leaving the loop at " + placeOf(from->getTerminator()));
    } else {
      v = value(in);
    }
    if (!v)
      v = freshValue(phi.getType(), "a value the encoder does not model at " + placeOf(&phi));
    if (!result) {
      result = v;
    } else {
      result->term = m_tf.ite(taken, v->term, result->term);
      result->how = result->how & v->how & how;
    }
  }
  if (presult)
    m_pointers[&phi] = *presult;
  else if (result)
    m_values[&phi] = *result;
  return {};
}

void ThreadEncoder::recordAccess(llvm::Instruction &inst, const SymPointer &ptr, cvc5::Term size,
                                 Exactness sizeHow, bool reads, bool writes, bool atomic, unsigned elementSize,
                                 const SymValue *stored, unsigned role, bool collective) {
  if (ptr.space == Space::Private)
    return; // private memory never races (SPEC §5)
  unsigned id = m_s.siteFor(&inst, role);
  AccessSite &site = m_s.sites[id];
  site.space = ptr.space == Space::Local ? MemorySpace::Local
               : ptr.space == Space::Constant ? MemorySpace::Constant
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
  r.waits = m_waits;
  if (stored) {
    r.hasValue = true;
    r.value = *stored;
  }
}

namespace {

/// Whether `t` is a multiple of `size` by its form: a constant multiple, a product or left shift with such a
/// factor, a sum or ite of such terms. False when the form does not show it.
bool isMultipleOf(const cvc5::Term &t, unsigned size, int depth = 0) {
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
    return by.isBitVectorValue() && (1ull << std::min<std::uint64_t>(std::stoull(by.getBitVectorValue(10)), 63)) % size == 0;
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

} // namespace

SymValue ThreadEncoder::loadValue(llvm::Instruction &inst, llvm::Type *type, const SymPointer &ptr, bool wordwise) {
  // Read-only buffers with captured bytes are read exactly; anything another work-item may write is an
  // unknown (the adversarial abstraction), and so is private memory, which the encoder does not track.
  if (ptr.object.isBitVectorValue() && !type->isIntegerTy(1) && !type->isVectorTy()) {
    std::uint64_t object = std::stoull(ptr.object.getBitVectorValue(10));
    auto table = m_s.capturedTables.find(object);
    auto raw = wordwise ? m_s.capturedBytes.find(object) : m_s.capturedBytes.end();
    unsigned size = static_cast<unsigned>(m_s.layout.getTypeStoreSize(type).getFixedValue());
    if (raw != m_s.capturedBytes.end() && size <= 8 && raw->second.second.size() / size <= 1024) {
      // Aligned reads as a choice among the captured words: far easier for the solver than an array of
      // byte stores. An unaligned offset falls back to the byte table below.
      const auto &[origin, data] = raw->second;
      unsigned bits = static_cast<unsigned>(m_s.layout.getTypeSizeInBits(type).getFixedValue());
      bool little = m_s.launch.endianness == format::Endianness::Little;
      auto wordAt = [&](std::size_t at) {
        std::uint64_t word = 0;
        for (unsigned i = 0; i < size; ++i)
          word |= static_cast<std::uint64_t>(data[at + (little ? i : size - 1 - i)]) << (8 * i);
        return m_tf.resize(m_tf.constant(size * 8, word), bits, false);
      };
      // The byte table is needed only for unaligned offsets: an offset that is origin + k·size by
      // construction reads a whole word or lies outside the captured bytes, which are open either way — a
      // fresh value, far cheaper for the solver than an array of byte stores. (Choosing the word by the
      // bits of k instead of comparing whole offsets was measured slower: 34 s against 16 s on a 64-entry
      // permutation.)
      cvc5::Term result = isMultipleOf(ptr.offset, size) && origin % size == 0
                              ? m_tf.fresh(m_tf.bv(bits), "outside_captured_" + std::to_string(object))
                              : loadValue(inst, type, ptr, /*wordwise=*/false).term;
      for (std::size_t at = 0; at + size <= data.size(); at += size)
        result = m_tf.ite(m_tf.eq(ptr.offset, m_tf.constant(64, origin + at)), wordAt(at), result);
      return SymValue{result, ptr.how};
    }
    if (table != m_s.capturedTables.end()) {
      unsigned bytes = size;
      cvc5::Term result;
      for (unsigned i = 0; i < bytes; ++i) {
        cvc5::Term at = m_tf.add(ptr.offset, m_tf.constant(64, i));
        cvc5::Term byte = m_tf.op(cvc5::Kind::SELECT, {table->second, at});
        bool little = m_s.launch.endianness == format::Endianness::Little;
        result = result.isNull() ? byte : little ? m_tf.concat(byte, result) : m_tf.concat(result, byte);
      }
      unsigned bits = static_cast<unsigned>(m_s.layout.getTypeSizeInBits(type).getFixedValue());
      return SymValue{m_tf.resize(result, bits, false), ptr.how};
    }
  }
  const char *where = ptr.space == Space::Local    ? "local"
                      : ptr.space == Space::Private ? "private"
                      : ptr.space == Space::Constant ? "constant"
                                                     : "global";
  return freshValue(type, std::string("a value read from ") + where + " memory at " + placeOf(&inst));
}

format::Status ThreadEncoder::encodeCall(llvm::CallBase &call) {
  llvm::Function *callee = call.getCalledFunction();
  if (!callee)
    return format::fail("an indirect call at " + placeOf(&call));
  if (auto *intr = llvm::dyn_cast<llvm::IntrinsicInst>(&call)) {
    switch (intr->getIntrinsicID()) {
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
      auto dst = pointer(call.getArgOperand(0));
      auto len = value(call.getArgOperand(2));
      if (!dst || !len)
        return format::fail("a memory copy the encoder cannot follow at " + placeOf(&call));
      cvc5::Term size = m_tf.resize(len->term, 64, false);
      recordAccess(call, *dst, size, len->how, false, true, false, 1, nullptr);
      if (intr->getIntrinsicID() != llvm::Intrinsic::memset) {
        // One instruction, two accesses: the read gets its own site through the source operand's use.
        auto src = pointer(call.getArgOperand(1));
        if (!src)
          return format::fail("a memory copy the encoder cannot follow at " + placeOf(&call));
        if (src->space != Space::Private)
          return format::fail("a memory copy from global or local memory at " + placeOf(&call) +
                              " (not modelled yet)");
      }
      return {};
    }
    case llvm::Intrinsic::smax:
    case llvm::Intrinsic::smin:
    case llvm::Intrinsic::umax:
    case llvm::Intrinsic::umin: {
      auto a = value(call.getArgOperand(0)), b = value(call.getArgOperand(1));
      if (!a || !b || a->term.getSort().isBoolean())
        break;
      cvc5::Kind less = intr->getIntrinsicID() == llvm::Intrinsic::smax || intr->getIntrinsicID() == llvm::Intrinsic::smin
                            ? cvc5::Kind::BITVECTOR_SLT
                            : cvc5::Kind::BITVECTOR_ULT;
      bool max = intr->getIntrinsicID() == llvm::Intrinsic::smax || intr->getIntrinsicID() == llvm::Intrinsic::umax;
      cvc5::Term lt = m_tf.op(less, {a->term, b->term});
      m_values[&call] = SymValue{max ? m_tf.ite(lt, b->term, a->term) : m_tf.ite(lt, a->term, b->term), a->how & b->how};
      return {};
    }
    default:
      break;
    }
    for (llvm::Value *arg : call.args())
      if (arg->getType()->isPointerTy())
        return format::fail("the intrinsic " + callee->getName().str() + " at " + placeOf(&call));
    if (!call.getType()->isVoidTy())
      m_values[&call] = freshValue(call.getType(), "the result of " + callee->getName().str());
    return {};
  }

  model::Builtin b = model::classifyBuiltin(*callee);
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
  case BuiltinKind::EnqueuedLocalSize:
    return idResult(m_s.localSize, "get_local_size");
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
    const auto &size = global ? m_s.globalSize : m_s.localSize;
    auto rel = [&](unsigned d) {
      return global ? m_tf.op(cvc5::Kind::BITVECTOR_SUB, {id[d], m_s.globalOffset[d]}) : id[d];
    };
    cvc5::Term t = m_tf.add(m_tf.mul(m_tf.add(m_tf.mul(rel(2), size[1]), rel(1)), size[0]), rel(0));
    m_values[&call] = SymValue{m_tf.resize(t, call.getType()->getIntegerBitWidth(), false), {}};
    return {};
  }
  case BuiltinKind::AsyncCopy: {
    // OpenCL 1.2 §6.12.10: the work-group copies n elements together, complete at wait_group_events.
    // The copy writes dst and reads src (the strided side: n elements `stride` apart, its whole span).
    auto dst = pointer(call.getArgOperand(0)), src = pointer(call.getArgOperand(1));
    auto n = value(call.getArgOperand(2));
    std::optional<SymValue> stride;
    if (b.strided)
      stride = value(call.getArgOperand(3));
    if (!dst || !src || !n || (b.strided && !stride))
      return format::fail("an async_work_group_copy the encoder cannot follow at " + placeOf(&call));
    cvc5::Term count = m_tf.resize(n->term, 64, false), element = m_tf.constant(64, b.elementBytes);
    cvc5::Term dense = m_tf.mul(count, element);
    Exactness how = n->how;
    cvc5::Term dstSize = dense, srcSize = dense;
    if (b.strided) {
      // ((n − 1) · stride + 1) elements: the gaps are inside the span, so a witness there is not real.
      cvc5::Term span = m_tf.mul(m_tf.add(m_tf.mul(m_tf.op(cvc5::Kind::BITVECTOR_SUB, {count, m_tf.constant(64, 1)}),
                                                   m_tf.resize(stride->term, 64, false)),
                                          m_tf.constant(64, 1)),
                                 element);
      Exactness gaps{"the span of the strided copy at " + placeOf(&call) + ", gaps included"};
      bool stridedIsDst = dst->space != Space::Local;
      (stridedIsDst ? dstSize : srcSize) = span;
      how = how & stride->how;
      if (!(stride->term.isBitVectorValue() && std::stoull(stride->term.getBitVectorValue(10)) == 1))
        how = how & gaps;
    }
    recordAccess(call, *dst, dstSize, how, false, true, false, b.elementBytes, nullptr, 0, true);
    recordAccess(call, *src, srcSize, how, true, false, false, b.elementBytes, nullptr, 1, true);
    if (!call.getType()->isVoidTy() && !call.getType()->isPointerTy())
      m_values[&call] = freshValue(call.getType(), "an event");
    return {};
  }
  case BuiltinKind::ImageRead:
  case BuiltinKind::ImageWrite:
    return encodeImageAccess(call, b.kind == BuiltinKind::ImageWrite);
  case BuiltinKind::ImageQuery:
    if (!call.getType()->isVoidTy())
      m_values[&call] = freshValue(call.getType(), "the image's " + b.name.substr(std::string("get_image_").size()) +
                                                       " (images are captured by kind only)");
    return {};
  case BuiltinKind::WaitEvents:
    // Every copy this work-item's group started is complete: later accesses are ordered after them.
    m_waits = m_tf.add(m_waits, m_tf.constant(16, 1));
    return {};
  case BuiltinKind::Barrier: {
    unsigned fences = 0;
    if (call.arg_size() >= 1)
      if (auto *c = llvm::dyn_cast<llvm::ConstantInt>(call.getArgOperand(0)))
        fences = static_cast<unsigned>(c->getZExtValue()) & (model::kLocalMemFence | model::kGlobalMemFence);
    unsigned id = m_s.barrierFor(&call, fences);
    BarrierRecord &r = m_s.barrierRecords[m_thread][id];
    r.present = true;
    r.reach = m_reach[call.getParent()];
    r.reachHow = m_reachHow[call.getParent()];
    // OpenCL 1.2 §6.12.8: the barrier orders only the memory its fence names; a new interval starts for it.
    if (fences & model::kLocalMemFence)
      m_epoch.first = m_tf.add(m_epoch.first, m_tf.constant(16, 1));
    if (fences & model::kGlobalMemFence)
      m_epoch.second = m_tf.add(m_epoch.second, m_tf.constant(16, 1));
    return {};
  }
  case BuiltinKind::MemFence:
  case BuiltinKind::NoEffect:
    if (!call.getType()->isVoidTy())
      m_values[&call] = freshValue(call.getType(), "the result of " + b.name);
    return {};
  case BuiltinKind::AtomicRmw:
  case BuiltinKind::AtomicLoad:
  case BuiltinKind::AtomicStore: {
    auto p = call.arg_size() ? pointer(call.getArgOperand(0)) : std::nullopt;
    if (!p)
      return format::fail("an atomic operation on a pointer the encoder cannot follow at " + placeOf(&call));
    llvm::Type *valueType = call.getType()->isVoidTy() && call.arg_size() > 1 ? call.getArgOperand(1)->getType()
                                                                             : call.getType();
    unsigned bytes = static_cast<unsigned>(m_s.layout.getTypeStoreSize(valueType).getFixedValue());
    bool reads = b.kind != BuiltinKind::AtomicStore, writes = b.kind != BuiltinKind::AtomicLoad;
    recordAccess(call, *p, m_tf.constant(64, bytes), {}, reads, writes, true, bytes, nullptr);
    if (!call.getType()->isVoidTy()) {
      SymValue result = freshValue(call.getType(), "the value " + b.name + " returns at " + placeOf(&call));
      m_values[&call] = result;
      // A counter: every atomic_inc (or atomic_add of one constant) of a location returns a different value
      // to each work-item — stated after encoding, when every write to that memory is known.
      std::optional<std::int64_t> step;
      if (b.name == "atomic_inc" || b.name == "atom_inc")
        step = 1;
      else if ((b.name == "atomic_add" || b.name == "atom_add" || b.name == "atomic_fetch_add") && call.arg_size() >= 2)
        if (auto *c = llvm::dyn_cast<llvm::ConstantInt>(call.getArgOperand(1)); c && !c->isZero())
          step = c->getSExtValue();
      if (step && result.term.getSort().isBitVector())
        m_s.counterResults[m_thread].push_back(CounterResult{m_s.siteFor(&call), "add " + std::to_string(*step),
                                                             m_reach[call.getParent()], p->object, p->offset,
                                                             result.term});
    }
    return {};
  }
  case BuiltinKind::VectorLoad:
  case BuiltinKind::VectorStore: {
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
      llvm::Type *scalar = vector->isVectorTy() ? llvm::cast<llvm::VectorType>(vector)->getElementType() : vector;
      element = static_cast<unsigned>(m_s.layout.getTypeStoreSize(scalar).getFixedValue());
    }
    // OpenCL 1.2 §6.12.7: vloadn reads n elements at p + offset * n.
    std::uint64_t bytes = static_cast<std::uint64_t>(element) * b.vectorWidth;
    SymPointer at = *p;
    at.offset = m_tf.add(p->offset, m_tf.mul(m_tf.resize(offset->term, 64, false), m_tf.constant(64, bytes)));
    at.how = p->how & offset->how;
    SymValue stored;
    if (!load) {
      auto v = value(call.getArgOperand(0));
      stored = v ? *v : freshValue(call.getArgOperand(0)->getType(), "a vector value");
    }
    recordAccess(call, at, m_tf.constant(64, bytes), {}, load, !load, false, element, load ? nullptr : &stored);
    if (load)
      m_values[&call] = freshValue(call.getType(), "a vector read from memory at " + placeOf(&call));
    return {};
  }
  case BuiltinKind::Pure:
    if (auto exact = integerBuiltin(call, b.name)) {
      m_values[&call] = *exact;
      return {};
    }
    if (!call.getType()->isVoidTy())
      m_values[&call] = freshValue(call.getType(), "the result of " + b.name);
    return {};
  case BuiltinKind::Unsupported:
    break;
  }
  return format::fail("the built-in " + b.name + " at " + placeOf(&call) + " is not modelled");
}

/// read_image*/write_image* (OpenCL 1.2 §6.12.14): the image is a memory object whose "bytes" are pixels,
/// one unit each, addressed by the coordinates packed into 64 bits (x, y, z: 21 bits each, enough for any
/// image size a device allows). A write is exact; a read through a sampler may clamp or wrap its
/// coordinates, so the pixel it reads is open (a race through it is `unknown`, never a false witness);
/// a read without a sampler reads its coordinates. The values read are open.
format::Status ThreadEncoder::encodeImageAccess(llvm::CallBase &call, bool write) {
  auto image = call.arg_size() >= 2 ? pointer(call.getArgOperand(0)) : std::nullopt;
  if (!image)
    return format::fail("an image the encoder cannot follow at " + placeOf(&call));
  bool sampled = !write && call.arg_size() >= 3;
  llvm::Value *coordArg = call.getArgOperand(sampled ? 2 : 1);
  auto coord = value(coordArg);
  SymPointer at = *image;
  at.space = Space::Global;
  Exactness how = image->how;
  llvm::Type *ct = coordArg->getType();
  bool integerCoords = ct->isIntOrIntVectorTy();
  if (!coord || sampled || !integerCoords) {
    at.offset = m_tf.fresh(m_tf.bv(64), name("pixel"));
    how = how & Exactness{sampled ? "the pixel a sampler reads at " + placeOf(&call)
                                  : "the image coordinates at " + placeOf(&call)};
  } else {
    unsigned lanes = ct->isVectorTy() ? llvm::cast<llvm::FixedVectorType>(ct)->getNumElements() : 1;
    unsigned bits = coord->term.getSort().getBitVectorSize() / lanes;
    cvc5::Term packed = m_tf.constant(64, 0);
    for (unsigned i = 0; i < std::min(lanes, 3u); ++i) {
      cvc5::Term c = m_tf.resize(m_tf.extract(coord->term, (i + 1) * bits - 1, i * bits), 64, false);
      c = m_tf.op(cvc5::Kind::BITVECTOR_AND, {c, m_tf.constant(64, (1ull << 21) - 1)});
      packed = m_tf.op(cvc5::Kind::BITVECTOR_OR,
                       {packed, m_tf.op(cvc5::Kind::BITVECTOR_SHL, {c, m_tf.constant(64, 21ull * i)})});
    }
    at.offset = packed;
    how = how & coord->how;
  }
  at.how = how;
  SymValue stored;
  if (write) {
    llvm::Value *v = call.getArgOperand(call.arg_size() - 1);
    auto sv = value(v);
    stored = sv ? *sv : freshValue(v->getType(), "a pixel value");
  }
  recordAccess(call, at, m_tf.constant(64, 1), {}, !write, write, false, 1, write ? &stored : nullptr);
  m_s.sites[m_s.siteFor(&call)].image = true;
  if (!call.getType()->isVoidTy())
    m_values[&call] = freshValue(call.getType(), "a pixel read from an image at " + placeOf(&call));
  return {};
}

std::optional<SymValue> ThreadEncoder::integerBuiltin(llvm::CallBase &call, const std::string &name) {
  if (!call.getType()->isIntegerTy() || call.getType()->isIntegerTy(1))
    return std::nullopt;
  if (name != "min" && name != "max" && name != "clamp" && name != "abs" && name != "mul24" && name != "mad24")
    return std::nullopt;
  // Signedness from the first parameter's mangled type: _Z3minii (int), _Z3minjj (uint), _Z3minmm (ulong).
  std::string mangled = call.getCalledFunction()->getName().str();
  std::size_t at = 2, length = 0;
  while (at < mangled.size() && mangled[at] >= '0' && mangled[at] <= '9')
    length = length * 10 + static_cast<std::size_t>(mangled[at++] - '0');
  at += length;
  if (mangled.rfind("_Z", 0) != 0 || at >= mangled.size())
    return std::nullopt;
  char type = mangled[at];
  bool isSigned = type == 'c' || type == 'a' || type == 's' || type == 'i' || type == 'l';
  if (!isSigned && type != 'h' && type != 't' && type != 'j' && type != 'm')
    return std::nullopt;
  std::vector<SymValue> args;
  for (llvm::Value *arg : call.args()) {
    auto v = value(arg);
    if (!v || v->term.getSort().isBoolean())
      return std::nullopt;
    args.push_back(*v);
  }
  cvc5::Kind less = isSigned ? cvc5::Kind::BITVECTOR_SLT : cvc5::Kind::BITVECTOR_ULT;
  auto lt = [&](const cvc5::Term &a, const cvc5::Term &b) { return m_tf.op(less, {a, b}); };
  auto minOf = [&](const cvc5::Term &a, const cvc5::Term &b) { return m_tf.ite(lt(b, a), b, a); };
  auto maxOf = [&](const cvc5::Term &a, const cvc5::Term &b) { return m_tf.ite(lt(a, b), b, a); };
  Exactness how;
  for (const SymValue &v : args)
    how = how & v.how;
  if ((name == "min" || name == "max") && args.size() == 2)
    return SymValue{name == "min" ? minOf(args[0].term, args[1].term) : maxOf(args[0].term, args[1].term), how};
  // mul24/mad24 (OpenCL 1.2 §6.12.3): defined only for operands in 24-bit range, where they equal the
  // full product — which is what they compute for every launch they are defined on.
  if (name == "mul24" && args.size() == 2)
    return SymValue{m_tf.mul(args[0].term, args[1].term), how};
  if (name == "mad24" && args.size() == 3)
    return SymValue{m_tf.add(m_tf.mul(args[0].term, args[1].term), args[2].term), how};
  if (name == "clamp" && args.size() == 3) // OpenCL: min(max(x, lo), hi)
    return SymValue{minOf(maxOf(args[0].term, args[1].term), args[2].term), how};
  if (name == "abs" && args.size() == 1) {
    // abs returns the unsigned type of the same width: |x| for signed, x for unsigned.
    if (!isSigned)
      return args[0];
    cvc5::Term zero = m_tf.constant(args[0].term.getSort().getBitVectorSize(), 0);
    return SymValue{m_tf.ite(lt(args[0].term, zero), m_tf.op(cvc5::Kind::BITVECTOR_NEG, {args[0].term}), args[0].term), how};
  }
  return std::nullopt;
}

format::Status ThreadEncoder::encodeInstruction(llvm::Instruction &inst) {
  using namespace llvm;
  auto operand = [&](unsigned i) { return value(inst.getOperand(i)); };
  auto unknown = [&](const std::string &why) {
    if (!inst.getType()->isVoidTy() && !inst.getType()->isPointerTy())
      m_values[&inst] = freshValue(inst.getType(), why + " at " + placeOf(&inst));
  };
  if (auto *phi = dyn_cast<PHINode>(&inst))
    return encodePhi(*phi);
  if (isa<BranchInst>(inst) || isa<SwitchInst>(inst) || isa<ReturnInst>(inst) || isa<UnreachableInst>(inst))
    return {};
  if (auto *call = dyn_cast<CallBase>(&inst))
    return encodeCall(*call);
  if (auto *alloca = dyn_cast<AllocaInst>(&inst)) {
    SymPointer p;
    p.space = Space::Private;
    p.object = m_tf.constant(64, kPrivateObject + m_nextPrivate++);
    p.offset = m_tf.constant(64, 0);
    m_pointers[alloca] = p;
    return {};
  }
  if (auto *gep = dyn_cast<GetElementPtrInst>(&inst)) {
    auto base = pointer(gep->getPointerOperand());
    if (!base)
      return format::fail("a pointer the encoder cannot follow at " + placeOf(&inst));
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
      offset = m_tf.add(offset, m_tf.mul(m_tf.resize(v->term, 64, true), m_tf.constant(64, scale.getZExtValue())));
      p.how = p.how & v->how;
    }
    p.offset = offset;
    m_pointers[gep] = p;
    return {};
  }
  if (auto *load = dyn_cast<LoadInst>(&inst)) {
    auto p = pointer(load->getPointerOperand());
    if (!p)
      return format::fail("a load through a pointer the encoder cannot follow at " + placeOf(&inst));
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
      // A pointer read from memory (pointer chasing): the object it points into is unknown.
      return format::fail("a pointer loaded from memory at " + placeOf(&inst) + " (pointer chasing)");
    }
    m_values[&inst] = loadValue(inst, load->getType(), *p);
    return {};
  }
  if (auto *store = dyn_cast<StoreInst>(&inst)) {
    auto p = pointer(store->getPointerOperand());
    if (!p)
      return format::fail("a store through a pointer the encoder cannot follow at " + placeOf(&inst));
    Type *type = store->getValueOperand()->getType();
    unsigned bytes = static_cast<unsigned>(m_s.layout.getTypeStoreSize(type).getFixedValue());
    unsigned element = static_cast<unsigned>(m_s.layout.getTypeStoreSize(type->getScalarType()).getFixedValue());
    if (type->isPointerTy() && p->space != Space::Private)
      return format::fail("a pointer stored to memory at " + placeOf(&inst));
    LaneRange lanes = lanesWritten(*store);
    if (!lanes.whole) {
      SymPointer at = *p;
      at.offset = m_tf.add(p->offset, m_tf.constant(64, std::uint64_t{lanes.first} * element));
      // Only the inserted lanes change: the store puts back what the same vector load read elsewhere.
      auto v = value(store->getValueOperand());
      SymValue stored = v ? *v : freshValue(type, "a vector value");
      unsigned bits = static_cast<unsigned>(m_s.layout.getTypeSizeInBits(type->getScalarType()).getFixedValue());
      stored.term = m_tf.extract(stored.term, (lanes.last + 1) * bits - 1, lanes.first * bits);
      recordAccess(inst, at, m_tf.constant(64, std::uint64_t{lanes.last - lanes.first + 1} * element), {}, false,
                   true, store->isAtomic(), element, &stored);
      return {};
    }
    std::optional<SymValue> v = type->isPointerTy() ? std::nullopt : value(store->getValueOperand());
    SymValue stored = v ? *v : SymValue{m_tf.fresh(m_tf.bv(bytes * 8), name("s" + std::to_string(m_fresh++))),
                                        Exactness{"a stored value the encoder does not model"}};
    if (stored.term.getSort().isBoolean())
      stored.term = m_tf.toBits(stored.term);
    recordAccess(inst, *p, m_tf.constant(64, bytes), {}, false, true, store->isAtomic(), element, &stored);
    return {};
  }
  if (isa<AtomicRMWInst>(inst) || isa<AtomicCmpXchgInst>(inst)) {
    Value *ptrOperand = isa<AtomicRMWInst>(inst) ? cast<AtomicRMWInst>(inst).getPointerOperand()
                                                 : cast<AtomicCmpXchgInst>(inst).getPointerOperand();
    auto p = pointer(ptrOperand);
    if (!p)
      return format::fail("an atomic operation on a pointer the encoder cannot follow at " + placeOf(&inst));
    Type *type = isa<AtomicRMWInst>(inst) ? inst.getType() : inst.getOperand(1)->getType();
    unsigned bytes = static_cast<unsigned>(m_s.layout.getTypeStoreSize(type).getFixedValue());
    recordAccess(inst, *p, m_tf.constant(64, bytes), {}, true, true, true, bytes, nullptr);
    unknown("the value an atomic operation returns");
    return {};
  }
  if (auto *cast = dyn_cast<CastInst>(&inst)) {
    Type *to = cast->getType();
    if (to->isPointerTy()) {
      if (!cast->getOperand(0)->getType()->isPointerTy())
        return format::fail("an integer turned into a pointer at " + placeOf(&inst));
      auto p = pointer(cast->getOperand(0));
      if (!p)
        return format::fail("a pointer the encoder cannot follow at " + placeOf(&inst));
      if (isa<AddrSpaceCastInst>(cast) && to->getPointerAddressSpace() != static_cast<unsigned>(Space::Generic))
        p->space = static_cast<Space>(to->getPointerAddressSpace());
      m_pointers[&inst] = *p;
      return {};
    }
    if (cast->getOperand(0)->getType()->isPointerTy()) {
      unknown("an address turned into an integer");
      return {};
    }
    auto v = operand(0);
    if (!v || to->isVectorTy() || cast->getOperand(0)->getType()->isVectorTy() || to->isFloatingPointTy() ||
        cast->getOperand(0)->getType()->isFloatingPointTy()) {
      // Bit-casts between same-sized scalars keep the bits; conversions to and from floating point do not
      // matter to addresses and are left unknown.
      if (v && isa<BitCastInst>(cast) && !to->isVectorTy() && !cast->getOperand(0)->getType()->isVectorTy()) {
        m_values[&inst] = *v;
        return {};
      }
      unknown("a floating-point or vector value");
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
      unknown("a conversion");
      return {};
    }
    m_values[&inst] = SymValue{t, v->how};
    return {};
  }
  if (auto *bin = dyn_cast<BinaryOperator>(&inst)) {
    auto *vectorType = dyn_cast<FixedVectorType>(bin->getType());
    bool integerVector = vectorType && vectorType->getElementType()->isIntegerTy() &&
                         !vectorType->getElementType()->isIntegerTy(1);
    if (!bin->getType()->isIntegerTy() && !integerVector) {
      unknown("a floating-point value");
      return {};
    }
    auto a = operand(0), b = operand(1);
    if (!a || !b) {
      unknown("an operand the encoder does not model");
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
        unknown("an arithmetic on booleans");
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
      unknown("an operation the encoder does not model");
      return {};
    }
    if (integerVector) {
      // Lane by lane: no carry or shift crosses from one lane into the next.
      unsigned lanes = vectorType->getNumElements();
      unsigned bits = a->term.getSort().getBitVectorSize() / lanes;
      cvc5::Term out;
      for (unsigned i = 0; i < lanes; ++i) {
        cvc5::Term r = m_tf.op(k, {m_tf.extract(a->term, (i + 1) * bits - 1, i * bits),
                                   m_tf.extract(b->term, (i + 1) * bits - 1, i * bits)});
        out = i == 0 ? r : m_tf.concat(r, out);
      }
      m_values[&inst] = SymValue{out, how};
      return {};
    }
    m_values[&inst] = SymValue{m_tf.op(k, {a->term, b->term}), how};
    return {};
  }
  if (auto *cmp = dyn_cast<ICmpInst>(&inst)) {
    if (cmp->getOperand(0)->getType()->isPointerTy()) {
      auto p = pointer(cmp->getOperand(0)), q = pointer(cmp->getOperand(1));
      if (!p || !q || !cmp->isEquality()) {
        unknown("a comparison of addresses");
        return {};
      }
      cvc5::Term same = m_tf.land(m_tf.eq(p->object, q->object), m_tf.eq(p->offset, q->offset));
      m_values[&inst] = SymValue{cmp->getPredicate() == ICmpInst::ICMP_EQ ? same : m_tf.lnot(same), p->how & q->how};
      return {};
    }
    auto a = operand(0), b = operand(1);
    if (!a || !b || cmp->getOperand(0)->getType()->isVectorTy()) {
      unknown("a comparison the encoder does not model");
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
      unknown("a comparison");
      return {};
    }
    m_values[&inst] = SymValue{t, a->how & b->how};
    return {};
  }
  if (auto *sel = dyn_cast<SelectInst>(&inst)) {
    auto c = value(sel->getCondition());
    if (!c || sel->getCondition()->getType()->isVectorTy()) {
      unknown("a selection the encoder does not model");
      return {};
    }
    if (sel->getType()->isPointerTy()) {
      auto p = pointer(sel->getTrueValue()), q = pointer(sel->getFalseValue());
      if (!p || !q || p->space != q->space)
        return format::fail("a pointer selected between objects the encoder cannot follow at " + placeOf(&inst));
      SymPointer r = *p;
      r.object = m_tf.ite(c->term, p->object, q->object);
      r.offset = m_tf.ite(c->term, p->offset, q->offset);
      r.how = c->how & p->how & q->how;
      m_pointers[&inst] = r;
      return {};
    }
    auto t = value(sel->getTrueValue()), f = value(sel->getFalseValue());
    if (!t || !f) {
      unknown("a selection the encoder does not model");
      return {};
    }
    m_values[&inst] = SymValue{m_tf.ite(c->term, t->term, f->term), c->how & t->how & f->how};
    return {};
  }
  if (isa<FreezeInst>(inst)) {
    if (auto v = operand(0))
      m_values[&inst] = *v;
    else
      unknown("a frozen value");
    return {};
  }
  if (isa<FenceInst>(inst))
    return {};
  if (inst.mayReadOrWriteMemory())
    return format::fail("the instruction '" + std::string(inst.getOpcodeName()) + "' at " + placeOf(&inst) +
                        " is not modelled");
  if (auto status = encodeVectorLanes(inst); status != LaneResult::NotLanes)
    return {};
  unknown("a value the encoder does not model");
  return {};
}

/// A vector <N x iK> (or of floats) is one bit-vector of N·K bits, lane i in bits [i·K, (i+1)·K): inserting,
/// extracting and shuffling lanes at constant positions are exact. Anything else: NotLanes.
ThreadEncoder::LaneResult ThreadEncoder::encodeVectorLanes(llvm::Instruction &inst) {
  using namespace llvm;
  auto laneBits = [&](Type *vector) -> unsigned {
    auto *v = dyn_cast<FixedVectorType>(vector);
    if (!v || v->getElementType()->isIntegerTy(1))
      return 0;
    return static_cast<unsigned>(m_s.layout.getTypeSizeInBits(v->getElementType()).getFixedValue());
  };
  auto lane = [&](const cvc5::Term &vec, unsigned bits, unsigned i) {
    return m_tf.extract(vec, (i + 1) * bits - 1, i * bits);
  };
  auto join = [&](const std::vector<cvc5::Term> &lanes) { // lane 0 in the low bits
    cvc5::Term out = lanes[0];
    for (std::size_t i = 1; i < lanes.size(); ++i)
      out = m_tf.concat(lanes[i], out);
    return out;
  };
  if (auto *ins = dyn_cast<InsertElementInst>(&inst)) {
    unsigned bits = laneBits(ins->getType());
    auto *index = dyn_cast<ConstantInt>(ins->getOperand(2));
    std::optional<SymValue> vec;
    if (isa<UndefValue>(ins->getOperand(0))) // building a vector lane by lane (or a splat): start from zeros
      vec = SymValue{m_tf.constant(static_cast<unsigned>(m_s.layout.getTypeSizeInBits(ins->getType()).getFixedValue()), 0), {}};
    else
      vec = value(ins->getOperand(0));
    auto elt = value(ins->getOperand(1));
    if (!bits || !index || !vec || !elt || elt->term.getSort().isBoolean())
      return LaneResult::NotLanes;
    unsigned n = cast<FixedVectorType>(ins->getType())->getNumElements();
    std::vector<cvc5::Term> lanes;
    for (unsigned i = 0; i < n; ++i)
      lanes.push_back(i == index->getZExtValue() ? elt->term : lane(vec->term, bits, i));
    m_values[&inst] = SymValue{join(lanes), vec->how & elt->how};
    return LaneResult::Done;
  }
  if (auto *ext = dyn_cast<ExtractElementInst>(&inst)) {
    unsigned bits = laneBits(ext->getVectorOperandType());
    auto *index = dyn_cast<ConstantInt>(ext->getIndexOperand());
    auto vec = value(ext->getVectorOperand());
    if (!bits || !index || !vec)
      return LaneResult::NotLanes;
    m_values[&inst] = SymValue{lane(vec->term, bits, static_cast<unsigned>(index->getZExtValue())), vec->how};
    return LaneResult::Done;
  }
  if (auto *shuf = dyn_cast<ShuffleVectorInst>(&inst)) {
    unsigned bits = laneBits(shuf->getType());
    // An undefined operand is never picked by a defined mask entry; its lanes can be anything: zeros.
    auto operandOrZero = [&](llvm::Value *v) -> std::optional<SymValue> {
      if (isa<UndefValue>(v))
        return SymValue{m_tf.constant(static_cast<unsigned>(m_s.layout.getTypeSizeInBits(v->getType()).getFixedValue()), 0), {}};
      return value(v);
    };
    auto a = operandOrZero(shuf->getOperand(0)), b = operandOrZero(shuf->getOperand(1));
    if (!bits || !a || !b)
      return LaneResult::NotLanes;
    unsigned inputs = cast<FixedVectorType>(shuf->getOperand(0)->getType())->getNumElements();
    std::vector<cvc5::Term> lanes;
    Exactness how = a->how & b->how;
    for (int m : shuf->getShuffleMask()) {
      if (m < 0) {
        lanes.push_back(m_tf.fresh(m_tf.bv(bits), name("undef_lane")));
        how = how & Exactness{"an undefined vector lane at " + placeOf(&inst)};
      } else {
        unsigned u = static_cast<unsigned>(m);
        lanes.push_back(u < inputs ? lane(a->term, bits, u) : lane(b->term, bits, u - inputs));
      }
    }
    m_values[&inst] = SymValue{join(lanes), how};
    return LaneResult::Done;
  }
  return LaneResult::NotLanes;
}

format::Status ThreadEncoder::run() {
  llvm::ReversePostOrderTraversal<llvm::Function *> rpo(&m_s.kernel);
  unsigned index = 0;
  for (llvm::BasicBlock *block : rpo)
    m_rpoIndex[block] = index++;
  for (llvm::BasicBlock *block : rpo) {
    if (auto status = enterBlock(*block); !status)
      return status;
    for (llvm::Instruction &inst : *block)
      if (auto status = encodeInstruction(inst); !status)
        return status;
    m_epochOut[block] = m_epoch;
    m_waitsOut[block] = m_waits;
  }
  return {};
}

} // namespace

format::Status encodeThread(EncodingState &state, unsigned thread) {
  ThreadEncoder encoder(state, thread);
  return encoder.run();
}

} // namespace clcapture::encode
