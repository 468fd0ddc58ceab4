//===- TracedLaunch.h - A launch run with clcapture-instrument's trace buffer -*- C++ -*-===//
//
// `clcapture-replay --instrumented FILE` (docs/device-debugging.md): the captured launch runs twice on the
// device, plain and from the instrumented source clcapture-instrument wrote, whose kernel takes one more
// argument, the trace buffer (a header of 4 words: cursor, records dropped, capacity, 0; then the records).
// The instrumented run must write what the plain one wrote, bit for bit: the instrumentation only adds stores
// to the trace buffer, and a difference says it did not keep the kernel's meaning (or the kernel is not
// deterministic on this device).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/replay/LaunchPlan.h"
#include "clcapture/replay/ReplayResult.h"
#include "clcapture/replay/Replayer.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace clcapture::replay {

/// The words of the trace buffer's header (docs/device-debugging.md, "The trace buffer").
constexpr std::uint64_t kTraceHeaderWords = 4;
/// The smallest trace buffer: the header and one word.
constexpr std::uint64_t kTraceMinimumBytes = (kTraceHeaderWords + 1) * 4;

struct TraceRequest {
  std::filesystem::path source; ///< the instrumented kernel file
  std::uint64_t bytes = 0;      ///< the trace buffer's size (a multiple of 4 is used)
};

/// `plan` run from the instrumented source: the trace buffer as the last argument (a new read-write buffer
/// whose header holds its capacity), the original kernel file's folder searched for its includes.
LaunchPlan tracedPlan(const LaunchPlan &plan, const TraceRequest &request);

/// Takes run `run`'s trace out of `traced` (the trace buffer is its last argument) and compares the other
/// buffers it wrote with the plain run's. Fails when the trace buffer did not come back.
format::Expected<TraceRun> takeTrace(LaunchResult &traced, const LaunchResult &plain,
                                     std::uint32_t traceArgument, std::uint32_t run,
                                     format::Endianness order);

/// The plain launch once (its buffers, comparisons and status are the result's), then the instrumented one
/// `runs` times, each run's trace in `traces`. A run that writes other bytes than the plain one makes the
/// result `Differs`, saying where; an instrumented kernel the device refuses makes it an `Error`.
LaunchResult replayTraced(Replayer &replayer, const LaunchPlan &plan, const TraceRequest &request,
                          std::uint32_t runs);

} // namespace clcapture::replay
