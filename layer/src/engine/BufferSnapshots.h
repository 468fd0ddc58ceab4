//===- BufferSnapshots.h - Reading a launch's buffers without blocking -*- C++ -*-===//
//
// docs/drivers-and-loaders.md: a blocking read inside a hooked enqueue deadlocks applications that gate work
// on user events. So each buffer is read with a non-blocking read on the launch's own queue, after the
// launch's wait list; on an out-of-order queue the launch is made to wait for the reads, so that it cannot
// change the bytes before they are taken. No completion callback: the writer thread polls the reads' events
// (LaunchWriter.h), so nothing of ours ever runs on a driver thread.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "writer/PendingLaunch.h"

#include <CL/cl_icd.h>
#include <cstddef>
#include <memory>
#include <vector>

namespace clcapture::layer {

/// Enqueues the reads of `plans` on `queue` after the launch's wait list (`numWaits`, `waits`), adding a
/// snapshot to `launch` for each read started. A read that cannot start leaves its argument's data_skipped
/// set. On an out-of-order queue `extraWaits` receives what the launch must wait for.
void enqueueSnapshots(const cl_icd_dispatch &d, cl_command_queue queue, const std::vector<ReadPlan> &plans,
                      cl_uint numWaits, const cl_event *waits, bool outOfOrder,
                      const std::shared_ptr<PendingLaunch> &launch, std::vector<cl_event> &extraWaits);

/// CLCAPTURE_DATA_AFTER, once the driver accepted the launch: enqueues the reads of `launch->afterReads` on
/// its in-order queue, which runs them after the launch completes and before any later command. A read that
/// cannot start leaves its argument's data_after_skipped set.
void enqueueAfterSnapshots(const cl_icd_dispatch &d, const std::shared_ptr<PendingLaunch> &launch);

/// After the launch was enqueued: the writer thread polls its reads' events and takes the launch (also a
/// discarded one: its reads still write into its memory, and it may hold staging buffers) once they are done.
void watchSnapshots(const std::shared_ptr<PendingLaunch> &launch);

} // namespace clcapture::layer
