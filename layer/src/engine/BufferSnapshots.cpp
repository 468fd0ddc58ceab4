//===- BufferSnapshots.cpp - Reading a launch's buffers without blocking -===//

#include "engine/BufferSnapshots.h"

#include "writer/LaunchWriter.h"

#include <optional>
#include <string>

namespace clcapture::layer {

namespace {

/// A CL_MEM_HOST_NO_ACCESS buffer (OpenCL 1.2 §5.2.1: the host may not read it) is copied on the device to a
/// staging buffer after the launch's wait list, and the staging buffer is read. `gate` receives the copy's
/// event: the launch must not start before the copy has taken the bytes.
cl_int enqueueStagedRead(const cl_icd_dispatch &d, cl_command_queue queue, const ReadPlan &plan,
                         cl_uint numWaits, const cl_event *waits, PendingLaunch::Snapshot &snap,
                         cl_event &gate) {
  if (!d.clGetMemObjectInfo || !d.clCreateBuffer || !d.clEnqueueCopyBuffer || !d.clEnqueueReadBuffer ||
      !d.clReleaseMemObject)
    return CL_INVALID_OPERATION;
  cl_context context = nullptr;
  cl_int status = d.clGetMemObjectInfo(plan.mem, CL_MEM_CONTEXT, sizeof context, &context, nullptr);
  if (status != CL_SUCCESS)
    return status;
  snap.staging = d.clCreateBuffer(context, CL_MEM_READ_WRITE, plan.size, nullptr, &status);
  if (!snap.staging)
    return status;
  status = d.clEnqueueCopyBuffer(queue, plan.mem, snap.staging, 0, 0, plan.size, numWaits, waits, &gate);
  if (status != CL_SUCCESS)
    return status;
  return d.clEnqueueReadBuffer(queue, snap.staging, CL_FALSE, 0, plan.size, snap.blob->bytes.data(), 1, &gate,
                               &snap.event);
}

void enqueueReads(const cl_icd_dispatch &d, cl_command_queue queue, const std::vector<ReadPlan> &plans,
                  cl_uint numWaits, const cl_event *waits, bool outOfOrder, bool after,
                  const std::shared_ptr<PendingLaunch> &launch, std::vector<cl_event> &extraWaits) {
  bool waitListUsable = numWaits == 0 || waits != nullptr;
  for (const ReadPlan &plan : plans) {
    format::ArgumentFacts &af = launch->facts.arguments[plan.argument];
    std::optional<std::string> &skipped = after ? af.dataAfterSkipped : af.dataSkipped;
    if (!waitListUsable) {
      skipped = "the launch's wait list is invalid; contents not read";
      continue;
    }
    auto snap = std::make_unique<PendingLaunch::Snapshot>();
    snap->argument = plan.argument;
    snap->owner = launch.get();
    snap->after = after;
    snap->blob = plan.blob ? plan.blob : std::make_shared<SharedBlob>();
    snap->blob->hold(plan.size);
    cl_event gate = nullptr; // what the launch must wait for on an out-of-order queue
    cl_int status = CL_SUCCESS;
    switch (plan.from) {
    case ReadPlan::From::Buffer:
      status = d.clEnqueueReadBuffer
                   ? d.clEnqueueReadBuffer(queue, plan.mem, CL_FALSE, 0, plan.size, snap->blob->bytes.data(),
                                           numWaits, waits, &snap->event)
                   : CL_INVALID_OPERATION;
      gate = snap->event;
      break;
    case ReadPlan::From::Svm:
      status = d.clEnqueueSVMMemcpy ? d.clEnqueueSVMMemcpy(queue, CL_FALSE, snap->blob->bytes.data(),
                                                           plan.svm, plan.size, numWaits, waits, &snap->event)
                                    : CL_INVALID_OPERATION;
      gate = snap->event;
      break;
    case ReadPlan::From::StagedBuffer:
      status = enqueueStagedRead(d, queue, plan, numWaits, waits, *snap, gate);
      break;
    }
    if (status != CL_SUCCESS) {
      skipped = "reading the buffer failed with " + std::to_string(status);
      snap->blob->failed = true; // no later launch may reuse a read that never started
      snap->blob->done.store(true, std::memory_order_release);
      if (gate && gate != snap->event)
        d.clReleaseEvent(gate);
      if (snap->staging)
        d.clReleaseMemObject(snap->staging);
      continue;
    }
    // An in-order queue already runs the read before the launch; an extra wait there only costs the driver
    // dependency tracking (PoCL's grows with the queue: 117x slower on 20,000 small launches).
    if (outOfOrder)
      extraWaits.push_back(gate);
    if (gate != snap->event)
      launch->ownedWaits.push_back(gate);
    launch->snapshots.push_back(std::move(snap));
  }
}

} // namespace

void enqueueSnapshots(const cl_icd_dispatch &d, cl_command_queue queue, const std::vector<ReadPlan> &plans,
                      cl_uint numWaits, const cl_event *waits, bool outOfOrder,
                      const std::shared_ptr<PendingLaunch> &launch, std::vector<cl_event> &extraWaits) {
  enqueueReads(d, queue, plans, numWaits, waits, outOfOrder, false, launch, extraWaits);
}

void enqueueAfterSnapshots(const cl_icd_dispatch &d, const std::shared_ptr<PendingLaunch> &launch) {
  std::vector<cl_event> unused; // an in-order queue: nothing waits for these reads
  enqueueReads(d, launch->queue, launch->afterReads, 0, nullptr, false, true, launch, unused);
  for (cl_event e : launch->ownedWaits) // staging copies' events: the reads hold their own references
    d.clReleaseEvent(e);
  launch->ownedWaits.clear();
}

void watchSnapshots(const std::shared_ptr<PendingLaunch> &launch) {
  LaunchWriter::instance().watch(launch);
}

} // namespace clcapture::layer
