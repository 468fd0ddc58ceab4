//===- EncodeControlFlow.cpp - Reach predicates, loops, phis -===//

#include "ThreadEncoderImpl.h"

#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <set>
#include <vector>

namespace clcapture::encode {

using model::BuiltinKind;

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
    how = how & Exactness{"which exit of the loop at " + loopPlace(*exited) + " is taken"};
    return m_tf.land(entered,
                     m_tf.fresh(m_tf.solver().getBooleanSort(), name("exit" + std::to_string(m_fresh++))));
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
  bool barriers = false;
  for (llvm::BasicBlock *block : loop.blocks())
    for (llvm::Instruction &inst : *block)
      if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst))
        if (call->getCalledFunction()) {
          // A work-group function runs once per iteration for the whole group. Barriers are counted
          // (enterBarrierLoop); for the others the one-arbitrary-iteration encoding cannot say which
          // iteration's call another work-item's access is ordered by.
          model::Builtin b = model::classifyBuiltin(*call->getCalledFunction());
          if (b.kind == BuiltinKind::Barrier)
            barriers = true;
          else if (model::isWorkGroupFunction(b.kind))
            return format::fail("the loop at " + loopPlace(loop) + " contains " + b.name +
                                " and its trip count is not a small constant for this launch");
        }
  cvc5::Term k = m_tf.fresh(m_tf.bv(64), name("iter" + std::to_string(m_iteration.size())));
  m_iteration[&loop] = k;
  // The back-edge count, read here once: enterBarrierLoop counts intervals with it, enterBlock bounds k by
  // it.
  TripCount &count = m_tripCounts[&loop];
  const llvm::SCEV *taken = m_scev.getBackedgeTakenCount(&loop);
  count.computable = !llvm::isa<llvm::SCEVCouldNotCompute>(taken);
  if (count.computable)
    count.taken = fromScev(taken);
  if (barriers) {
    if (auto status = enterBarrierLoop(loop, count.taken); !status)
      return status;
    // Every block of the loop is reached only where k ≤ the back-edge count and k < 2^56 (enterBlock adds
    // both to the header's reach, and the body's reach comes from the header's), so for every access in
    // the loop k lies in that range; the asserted bounds are read only for accesses (pruning, intervals).
    // Bounded, k·(intervals an iteration) is an integer sum that does not wrap (AffineOffsets.h).
    m_tf.boundVariable(
        k, std::min<std::uint64_t>((std::uint64_t{1} << 56) - 1,
                                   m_tf.upperBoundAsserted(m_tf.resize(count.taken->term, 64, false))));
  }
  Exactness how;
  if (count.taken) {
    count.bound = m_tf.ule(k, m_tf.resize(count.taken->term, 64, false));
    how = count.taken->how;
  } else {
    how = Exactness{"the trip count of the loop at " + loopPlace(loop)};
  }
  m_loopHow[&loop] = how;
  m_loopEntry[&loop] = m_tf.boolean(false); // filled in by enterBlock for the header
  return {};
}

unsigned ThreadEncoder::epochBitsFor(const llvm::LoopInfo &loops) {
  for (const llvm::Loop *loop : loops.getLoopsInPreorder())
    for (const llvm::BasicBlock *block : loop->blocks())
      for (const llvm::Instruction &inst : *block)
        if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
            call && call->getCalledFunction() &&
            model::classifyBuiltin(*call->getCalledFunction()).kind == BuiltinKind::Barrier)
          return 64;
  return 16;
}

format::Status ThreadEncoder::enterBarrierLoop(llvm::Loop &loop, const std::optional<SymValue> &taken) {
  auto refuse = [&](const std::string &why) {
    return format::fail("the loop at " + loopPlace(loop) + " contains a barrier and " + why);
  };
  // The number of iterations, exactly: a barrier's intervals after the loop depend on it.
  if (!taken)
    return refuse("its trip count is not known for this launch");
  if (!taken->how.exact())
    return refuse("its trip count depends on " + taken->how.abstraction);
  const llvm::BasicBlock *exiting = loop.getExitingBlock();
  if (!exiting || m_loops.getLoopFor(exiting) != &loop || !loop.getLoopLatch())
    return refuse("it is left from more than one place");
  // Intervals per fence from the header to each block of the body: the same on every path (a barrier in a
  // branch of the body would make iterations span different numbers of intervals).
  std::map<const llvm::BasicBlock *, std::pair<std::uint64_t, std::uint64_t>> out;
  std::vector<llvm::BasicBlock *> body(loop.blocks().begin(), loop.blocks().end());
  std::sort(body.begin(), body.end(), [&](auto *a, auto *b) { return m_rpoIndex[a] < m_rpoIndex[b]; });
  for (llvm::BasicBlock *block : body) {
    std::optional<std::pair<std::uint64_t, std::uint64_t>> start;
    if (block == loop.getHeader())
      start = std::pair<std::uint64_t, std::uint64_t>{0, 0};
    for (llvm::BasicBlock *pred : llvm::predecessors(block)) {
      if (!loop.contains(pred) || isBackEdge(pred, block))
        continue;
      if (start && *start != out[pred])
        return refuse("the paths through its body pass different numbers of barriers");
      start = out[pred];
    }
    if (!start)
      return refuse("its body is not reached from its header");
    auto count = *start;
    for (llvm::Instruction &inst : *block)
      if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
          call && call->getCalledFunction() &&
          model::classifyBuiltin(*call->getCalledFunction()).kind == BuiltinKind::Barrier) {
        if (m_loops.getLoopFor(block) != &loop)
          return refuse("another loop inside it holds a barrier");
        auto *flags = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(0));
        if (!flags)
          return refuse("its barrier's fence flags are not a constant");
        count.first += (flags->getZExtValue() & model::kLocalMemFence) ? 1u : 0u;
        count.second += (flags->getZExtValue() & model::kGlobalMemFence) ? 1u : 0u;
      }
    out[block] = count;
  }
  auto perIteration = out[loop.getLoopLatch()];
  m_barrierLoops[&loop] =
      BarrierLoop{{m_tf.constant(64, perIteration.first), m_tf.constant(64, perIteration.second)},
                  m_tf.resize(taken->term, 64, false)};
  return {};
}

bool ThreadEncoder::reachedWhenever(const llvm::BasicBlock &dominator, const llvm::BasicBlock &block) const {
  const llvm::Loop *loop = m_loops.getLoopFor(&block);
  if (m_loops.getLoopFor(&dominator) != loop)
    return false;
  std::vector<const llvm::BasicBlock *> work{&dominator};
  std::set<const llvm::BasicBlock *> seen{&dominator};
  while (!work.empty()) {
    const llvm::BasicBlock *at = work.back();
    work.pop_back();
    if (llvm::succ_empty(at))
      return false; // a return or unreachable before `block`
    for (const llvm::BasicBlock *next : llvm::successors(at)) {
      if (next == &block)
        continue;
      if (loop && (!loop->contains(next) || next == loop->getHeader()))
        return false; // leaves the iteration first
      if (seen.insert(next).second)
        work.push_back(next);
    }
  }
  return true;
}

format::Status ThreadEncoder::enterBlock(llvm::BasicBlock &block) {
  Exactness how;
  cvc5::Term reach = m_tf.boolean(&block == &m_s.kernel.getEntryBlock());
  std::pair<cvc5::Term, cvc5::Term> epoch{m_tf.constant(m_epochBits, 0), m_tf.constant(m_epochBits, 0)};
  SymValue done{m_tf.constant(64, 0), {}};
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
      const SymValue &predDone = m_doneOut[pred];
      std::pair<cvc5::Term, cvc5::Term> predEpoch = out->second;
      // Leaving a barrier loop: the intervals the exiting block reaches at the last iteration.
      for (const llvm::Loop *l = m_loops.getLoopFor(pred); l && !l->contains(&block); l = l->getParentLoop())
        if (auto barrierLoop = m_barrierLoops.find(l); barrierLoop != m_barrierLoops.end()) {
          const cvc5::Term &k = m_iteration[l];
          predEpoch.first = predEpoch.first.substitute(k, barrierLoop->second.taken);
          predEpoch.second = predEpoch.second.substitute(k, barrierLoop->second.taken);
        }
      if (firstEdge) {
        epoch = predEpoch;
        done = predDone;
      } else {
        epoch.first = m_tf.ite(e, predEpoch.first, epoch.first);
        epoch.second = m_tf.ite(e, predEpoch.second, epoch.second);
        done.term = m_tf.ite(e, predDone.term, done.term);
        done.how = done.how & predDone.how;
      }
      firstEdge = false;
    }
    reach = m_tf.lor(reach, e);
  }
  // A join that every path from its dominator reaches (the code after `if (atomic_cmpxchg(…) == 0) {…}`)
  // is reached exactly when the dominator is: the branches' conditions, exact or not, do not decide it.
  if (!header)
    if (const llvm::DomTreeNode *node = m_dom.getNode(&block); node && node->getIDom())
      if (const llvm::BasicBlock *dominator = node->getIDom()->getBlock();
          m_reach.count(dominator) && reachedWhenever(*dominator, block)) {
        reach = m_reach[dominator];
        how = m_reachHow[dominator];
      }
  if (header) {
    m_loopEntry[loop] = reach;
    // This iteration is a real one: k ≤ the number of times the back edge is taken. When that number is
    // not known exactly (a data-dependent break), its upper bound still limits k (sound: no real iteration
    // is left out), but a witness may then be an iteration that never runs (inexact, set by enterLoop).
    if (const TripCount &count = m_tripCounts[loop]; count.computable) {
      if (count.taken)
        reach = m_tf.land(reach, count.bound);
    } else if (const llvm::SCEV *max = m_scev.getSymbolicMaxBackedgeTakenCount(loop);
               !llvm::isa<llvm::SCEVCouldNotCompute>(max)) {
      if (auto t = fromScev(max))
        reach = m_tf.land(reach, m_tf.ule(m_iteration[loop], m_tf.resize(t->term, 64, false)));
    }
    how = how & m_loopHow[loop];
    if (auto barrierLoop = m_barrierLoops.find(loop); barrierLoop != m_barrierLoops.end()) {
      // Iteration k starts k iterations' intervals after the loop's entry. A loop with barriers runs fewer
      // than 2^56 iterations (at a nanosecond a barrier, 2^56 take two years), so intervals never wrap.
      const cvc5::Term &k = m_iteration[loop];
      reach = m_tf.land(reach, m_tf.ult(k, m_tf.constant(64, std::uint64_t(1) << 56)));
      epoch.first = m_tf.add(epoch.first, m_tf.mul(k, barrierLoop->second.perIteration.first));
      epoch.second = m_tf.add(epoch.second, m_tf.mul(k, barrierLoop->second.perIteration.second));
    }
  }
  m_reach[&block] = reach;
  m_reachHow[&block] = how;
  m_epoch = epoch;
  m_done = done;
  return {};
}

format::Status ThreadEncoder::visitPHINode(llvm::PHINode &phi) {
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
    m_values[&phi] =
        freshValue(phi.getType(), "a value carried across iterations of the loop at " + placeOf(&phi));
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
        presult->beyondArray = chooseBeyondArray(m_tf, taken, *p, *presult);
        presult->how = presult->how & p->how & how;
      }
      continue;
    }
    std::optional<SymValue> v;
    if (leavesLoop) {
      // The value at the loop's last iteration, when ScalarEvolution knows it; otherwise unknown. What it
      // knows must not vary within the loops left: an expression of their iteration or a value computed
      // in them (a load) would be taken at the encoded iteration, an arbitrary one, not the last.
      if (!in->getType()->isIntegerTy(1) && in->getType()->isIntegerTy()) {
        const llvm::SCEV *atExit = m_scev.getSCEVAtScope(in, m_loops.getLoopFor(phi.getParent()));
        bool lastIteration = true;
        for (const llvm::Loop *l = fromLoop; l && !l->contains(phi.getParent()); l = l->getParentLoop())
          lastIteration = lastIteration && m_scev.isLoopInvariant(atExit, l);
        if (lastIteration)
          v = fromScev(atExit);
      }
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

} // namespace clcapture::encode
