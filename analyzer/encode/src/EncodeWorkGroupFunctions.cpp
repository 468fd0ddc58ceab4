//===- EncodeWorkGroupFunctions.cpp - barrier, async copies, wait_group_events, collectives -===//
//
// Work-group functions are executed by the whole group together: every work-item of the group must reach
// each call, with the same arguments (OpenCL 1.2 §6.12.8 barrier, §6.12.10 async copies and
// wait_group_events; OpenCL 2.0 §6.13.15 work-group collectives). Each call is recorded with its reach and
// the arguments the group must pass alike; KernelEncoding::checkDivergence asks whether two work-items of
// one group disagree.
//
// Async copies: a copy is the group's collective write of its destination and read of its source. It is
// complete only after a wait_group_events whose event list holds its event (§6.12.10) — not at a barrier,
// not at a wait on other events. An event_t is a pointer into the pseudo-object kEventObject whose offset
// is the set of copies it stands for, one bit per copy site; the event argument of a copy joins it to an
// earlier event. Event variables and arrays live in private memory and are read back through
// privatePointerAt. The copies complete so far are this work-item's `done` set, and every access records it.
//
//===----------------------------------------------------------------------===//

#include "ThreadEncoderImpl.h"

#include <llvm/IR/Constants.h>

namespace clcapture::encode {

void ThreadEncoder::recordWorkGroupCall(llvm::CallBase &call, const std::string &function, unsigned fences,
                                        std::vector<cvc5::Term> uniformArgs, Exactness argsHow) {
  unsigned id = m_s.barrierFor(&call, fences, function);
  BarrierRecord &r = m_s.barrierRecords[m_thread][id];
  r.present = true;
  r.reach = m_reach[call.getParent()];
  r.reachHow = m_reachHow[call.getParent()];
  r.uniformArgs = std::move(uniformArgs);
  r.argsHow = argsHow;
  r.iterations.clear();
  for (const llvm::Loop *l = m_loops.getLoopFor(call.getParent()); l; l = l->getParentLoop())
    if (auto k = m_iteration.find(l); k != m_iteration.end())
      r.iterations.push_back(k->second);
}

SymValue ThreadEncoder::eventOf(const SymPointer &event) {
  cvc5::Term none = m_tf.constant(64, 0);
  if (event.object.isBitVectorValue()) // an event, or the null event
    return SymValue{std::stoull(event.object.getBitVectorValue(10)) == kEventObject ? event.offset : none,
                    event.how};
  return SymValue{m_tf.ite(m_tf.eq(event.object, m_tf.constant(64, kEventObject)), event.offset, none),
                  event.how};
}

format::Status ThreadEncoder::encodeAsyncCopy(llvm::CallBase &call, const model::Builtin &b) {
  // OpenCL 1.2 §6.12.10: the work-group copies n elements together, complete at wait_group_events.
  // The copy writes dst and reads src (the strided side: n elements `stride` apart, its whole span).
  auto dst = pointer(call.getArgOperand(0)), src = pointer(call.getArgOperand(1));
  auto n = value(call.getArgOperand(2));
  std::optional<SymValue> stride;
  if (b.strided)
    stride = value(call.getArgOperand(3));
  auto event = pointer(call.getArgOperand(b.strided ? 4 : 3));
  if (!dst || !src || !n || (b.strided && !stride) || !event)
    return format::fail("an async_work_group_copy the encoder cannot follow at " + placeOf(&call));
  auto tag = m_s.copyTags.find(&call);
  if (tag == m_s.copyTags.end()) {
    if (m_s.copyTags.size() >= kMaxCopySites)
      return format::fail("more than " + std::to_string(kMaxCopySites) + " async copies (at " +
                          placeOf(&call) + ")");
    tag = m_s.copyTags.emplace(&call, static_cast<unsigned>(m_s.copyTags.size())).first;
  }
  cvc5::Term count = m_tf.resize(n->term, 64, false), element = m_tf.constant(64, b.elementBytes);
  cvc5::Term dense = m_tf.mul(count, element);
  Exactness how = n->how;
  cvc5::Term dstSize = dense, srcSize = dense;
  if (b.strided) {
    // ((n − 1) · stride + 1) elements: the gaps are inside the span, so a witness there is not real.
    cvc5::Term span =
        m_tf.mul(m_tf.add(m_tf.mul(m_tf.op(cvc5::Kind::BITVECTOR_SUB, {count, m_tf.constant(64, 1)}),
                                   m_tf.resize(stride->term, 64, false)),
                          m_tf.constant(64, 1)),
                 element);
    Exactness gaps{"the span of the strided copy at " + placeOf(&call) + ", gaps included"};
    bool stridedIsDst = dst->space != MemorySpace::Local;
    (stridedIsDst ? dstSize : srcSize) = span;
    how = how & stride->how;
    if (!(stride->term.isBitVectorValue() && std::stoull(stride->term.getBitVectorValue(10)) == 1))
      how = how & gaps;
  }
  recordAccess(call, *dst, dstSize, how, false, true, false, b.elementBytes, nullptr, 0, true);
  recordAccess(call, *src, srcSize, how, true, false, false, b.elementBytes, nullptr, 1, true);
  // The event it returns (§6.12.10): a new one, or the given event, which this copy joins ("associate the
  // async_work_group_copy with a previous async copy allowing an event to be shared by multiple async
  // copies") — then a wait on that event, through any copy of its value, completes this copy too.
  SymValue joined = eventOf(*event);
  cvc5::Term bit = m_tf.constant(64, 1ull << tag->second);
  SymPointer result;
  result.space = MemorySpace::Private;
  result.object = m_tf.constant(64, kEventObject);
  result.offset = m_tf.ite(m_tf.eq(joined.term, m_tf.constant(64, 0)), bit, joined.term);
  result.how = joined.how;
  m_issuedCopies.push_back(IssuedCopy{bit, result.offset, m_reach[call.getParent()]});
  if (call.getType()->isPointerTy())
    m_pointers[&call] = result;
  // The group must copy the same elements with the same event (§6.12.10: "the same argument values").
  std::vector<cvc5::Term> args{dst->object, dst->offset, src->object, src->offset, count, joined.term};
  if (stride)
    args.push_back(m_tf.resize(stride->term, 64, false));
  Exactness argsHow = dst->how & src->how & n->how & joined.how;
  if (stride)
    argsHow = argsHow & stride->how;
  recordWorkGroupCall(call, b.name, 0, std::move(args), argsHow);
  return {};
}

format::Status ThreadEncoder::encodeWaitEvents(llvm::CallBase &call) {
  // The copies of the events in the list (num_events of them, from event_list) are complete; no others.
  auto count = call.arg_size() >= 2 ? value(call.getArgOperand(0)) : std::nullopt;
  auto list = call.arg_size() >= 2 ? pointer(call.getArgOperand(1)) : std::nullopt;
  if (!count || !list)
    return format::fail("a wait_group_events the encoder cannot follow at " + placeOf(&call));
  SymValue waited{m_tf.constant(64, 0), count->how & list->how};
  if (!count->term.isBitVectorValue() || list->space != MemorySpace::Private) {
    // An event list whose length or place the encoder cannot read: no copy is taken as complete (sound:
    // fewer orderings), and a race that rests on it is not a witness.
    waited.how = Exactness{"the events waited for at " + placeOf(&call)};
  } else {
    std::uint64_t n = std::stoull(count->term.getBitVectorValue(10));
    if (n > kMaxCopySites * 4)
      return format::fail("a wait_group_events on " + std::to_string(n) + " events at " + placeOf(&call));
    std::uint64_t pointerBytes = m_s.layout.getPointerSize(0);
    for (std::uint64_t i = 0; i < n; ++i) {
      SymPointer at = *list;
      at.offset = m_tf.add(list->offset, m_tf.constant(64, i * pointerBytes));
      auto event = privatePointerAt(call, at, MemorySpace::Private);
      if (!event) {
        waited.how = Exactness{"the events waited for at " + placeOf(&call)};
        continue;
      }
      SymValue named = eventOf(*event);
      waited.term = m_tf.op(cvc5::Kind::BITVECTOR_OR, {waited.term, named.term});
      waited.how = waited.how & named.how;
    }
  }
  recordWorkGroupCall(call, "wait_group_events", 0, {m_tf.resize(count->term, 64, false), waited.term},
                      waited.how);
  // Complete: the copies issued so far (on this work-item's path) that belong to a waited event.
  cvc5::Term zero = m_tf.constant(64, 0);
  for (const IssuedCopy &c : m_issuedCopies) {
    cvc5::Term named = m_tf.lnot(m_tf.eq(m_tf.op(cvc5::Kind::BITVECTOR_AND, {c.event, waited.term}), zero));
    m_done.term =
        m_tf.op(cvc5::Kind::BITVECTOR_OR, {m_done.term, m_tf.ite(m_tf.land(c.reach, named), c.bit, zero)});
  }
  m_done.how = m_done.how & waited.how;
  return {};
}

format::Status ThreadEncoder::encodeBarrier(llvm::CallBase &call) {
  std::optional<SymValue> flags = call.arg_size() >= 1 ? value(call.getArgOperand(0)) : std::nullopt;
  if (!flags || flags->term.getSort().isBoolean())
    return format::fail("a barrier whose fence flags the encoder cannot read at " + placeOf(&call));
  unsigned fences = model::kLocalMemFence | model::kGlobalMemFence;
  if (flags->term.isBitVectorValue())
    fences = static_cast<unsigned>(std::stoull(flags->term.getBitVectorValue(10))) &
             (model::kLocalMemFence | model::kGlobalMemFence);
  else if (!flags->how.exact())
    return format::fail("a barrier whose fence flags depend on " + flags->how.abstraction + " at " +
                        placeOf(&call));
  std::vector<cvc5::Term> args;
  Exactness how;
  for (llvm::Value *arg : call.args()) // the flags (and a work_group_barrier's scope)
    if (auto v = value(arg); v && !v->term.getSort().isBoolean()) {
      args.push_back(v->term);
      how = how & v->how;
    }
  recordWorkGroupCall(call, "barrier", fences, std::move(args), how);
  // OpenCL 1.2 §6.12.8: the barrier orders only the memory its fence names; a new interval starts for it.
  // Flags computed by the work-item (exactly) start an interval where they name the fence. It completes
  // no async copy (only wait_group_events does).
  auto step = [&](unsigned fence) {
    if (flags->term.isBitVectorValue())
      return m_tf.constant(m_epochBits, (fences & fence) ? 1 : 0);
    unsigned w = m_tf.width(flags->term);
    cvc5::Term set = m_tf.op(cvc5::Kind::BITVECTOR_AND, {flags->term, m_tf.constant(w, fence)});
    return m_tf.ite(m_tf.eq(set, m_tf.constant(w, 0)), m_tf.constant(m_epochBits, 0),
                    m_tf.constant(m_epochBits, 1));
  };
  m_epoch.first = m_tf.add(m_epoch.first, step(model::kLocalMemFence));
  m_epoch.second = m_tf.add(m_epoch.second, step(model::kGlobalMemFence));
  return {};
}

/// work_group_all/any/broadcast/reduce/scan (OpenCL 2.0 §6.13.15): reached by the whole group; the value
/// combines other work-items' values, so it is open. work_group_broadcast's work-item ids must be uniform
/// (its value is the one work-item's); they order no memory.
format::Status ThreadEncoder::encodeCollective(llvm::CallBase &call, const model::Builtin &b) {
  std::vector<cvc5::Term> args;
  Exactness how;
  if (b.name == "work_group_broadcast")
    for (unsigned i = 1; i < call.arg_size(); ++i) {
      auto v = value(call.getArgOperand(i));
      if (!v || v->term.getSort().isBoolean())
        return format::fail("a work_group_broadcast the encoder cannot follow at " + placeOf(&call));
      args.push_back(m_tf.resize(v->term, 64, false));
      how = how & v->how;
    }
  recordWorkGroupCall(call, b.name, 0, std::move(args), how);
  if (!call.getType()->isVoidTy())
    m_values[&call] = freshValue(call.getType(), "the result of " + b.name + " at " + placeOf(&call));
  return {};
}

} // namespace clcapture::encode
