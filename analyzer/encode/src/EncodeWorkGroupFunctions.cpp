//===- EncodeWorkGroupFunctions.cpp - barrier, async_work_group_copy, wait_group_events -===//

#include "ThreadEncoderImpl.h"

#include <llvm/IR/Constants.h>

namespace clcapture::encode {

format::Status ThreadEncoder::encodeAsyncCopy(llvm::CallBase &call, const model::Builtin &b) {
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
    cvc5::Term span =
        m_tf.mul(m_tf.add(m_tf.mul(m_tf.op(cvc5::Kind::BITVECTOR_SUB, {count, m_tf.constant(64, 1)}),
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

format::Status ThreadEncoder::encodeWaitEvents(llvm::CallBase &) {
  // Every copy this work-item's group started is complete: later accesses are ordered after them.
  m_waits = m_tf.add(m_waits, m_tf.constant(16, 1));
  return {};
}

format::Status ThreadEncoder::encodeBarrier(llvm::CallBase &call) {
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

} // namespace clcapture::encode
