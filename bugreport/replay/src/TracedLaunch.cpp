//===- TracedLaunch.cpp - A launch run with clcapture-instrument's trace buffer ===//

#include "clcapture/replay/TracedLaunch.h"

#include <CL/cl.h>
#include <algorithm>

namespace clcapture::replay {

namespace fmt = clcapture::format;

namespace {

void putWord(std::vector<std::uint8_t> &bytes, std::size_t word, std::uint32_t value, fmt::Endianness order) {
  for (std::size_t b = 0; b < 4; ++b) {
    std::size_t shift = order == fmt::Endianness::Little ? 8 * b : 8 * (3 - b);
    bytes[word * 4 + b] = static_cast<std::uint8_t>(value >> shift);
  }
}

std::uint32_t getWord(const std::vector<std::uint8_t> &bytes, std::size_t word, fmt::Endianness order) {
  std::uint32_t value = 0;
  for (std::size_t b = 0; b < 4; ++b) {
    std::size_t shift = order == fmt::Endianness::Little ? 8 * b : 8 * (3 - b);
    value |= static_cast<std::uint32_t>(bytes[word * 4 + b]) << shift;
  }
  return value;
}

} // namespace

LaunchPlan tracedPlan(const LaunchPlan &plan, const TraceRequest &request) {
  LaunchPlan traced = plan;
  std::uint64_t words = std::max(request.bytes, kTraceMinimumBytes) / 4;
  // The cursor and the capacity are 32-bit words in the kernel.
  words = std::min<std::uint64_t>(words, 0xFFFFFFFFull);
  MemorySpec trace;
  trace.size = words * 4;
  trace.flags = CL_MEM_READ_WRITE;
  // The records' words start as 0xFF bytes: a record reserved but not written (the trace was full) is told
  // from a written one by its site word.
  trace.initial.assign(trace.size, 0xFF);
  for (std::size_t w = 0; w < kTraceHeaderWords; ++w)
    putWord(trace.initial, w, 0, plan.endianness);
  putWord(trace.initial, 2, static_cast<std::uint32_t>(words - kTraceHeaderWords), plan.endianness);
  traced.memory.push_back(std::move(trace));

  ArgPlan arg;
  arg.index = static_cast<std::uint32_t>(plan.args.size());
  arg.role = ArgRole::Memory;
  arg.size = words * 4;
  arg.memory = traced.memory.size() - 1;
  arg.name = "clcapture_trace";
  arg.typeName = "uint*";
  arg.addressQualifier = "global";
  traced.args.push_back(std::move(arg));

  // The instrumented file lives elsewhere; `#include "x.h"` still means the captured kernel's neighbour.
  std::filesystem::path folder = plan.kernelFile.parent_path();
  if (folder.empty())
    folder = ".";
  std::string include =
      folder.string().find(' ') == std::string::npos ? folder.string() : '"' + folder.string() + '"';
  traced.buildOptions += (traced.buildOptions.empty() ? "-I" : " -I") + include;
  traced.kernelFile = request.source;
  return traced;
}

fmt::Expected<TraceRun> takeTrace(LaunchResult &traced, const LaunchResult &plain,
                                  std::uint32_t traceArgument, std::uint32_t run, fmt::Endianness order) {
  auto it = std::find_if(traced.buffers.begin(), traced.buffers.end(),
                         [&](const BufferResult &b) { return b.argument == traceArgument; });
  if (it == traced.buffers.end() || it->bytes.size() < kTraceMinimumBytes)
    return fmt::fail("the trace buffer (argument " + std::to_string(traceArgument) + ") did not come back");
  TraceRun t;
  t.run = run;
  t.seconds = traced.seconds;
  t.bytes = std::move(it->bytes);
  traced.buffers.erase(it);
  t.wordsUsed = getWord(t.bytes, 0, order);
  t.recordsDropped = getWord(t.bytes, 1, order);
  t.capacityWords = getWord(t.bytes, 2, order);

  for (const BufferResult &b : traced.buffers) {
    auto same = std::find_if(plain.buffers.begin(), plain.buffers.end(),
                             [&](const BufferResult &p) { return p.argument == b.argument; });
    if (same == plain.buffers.end())
      continue;
    // Bit for bit: the instrumented kernel is the same computation.
    ElementType exact = b.type;
    if (exact.kind == ValueKind::Float)
      exact.kind = ValueKind::Integer;
    Comparison c = compareBuffers(b.bytes, same->bytes, exact, 0, order);
    if (!c.same) {
      t.outputsSame = false;
      t.difference += (t.difference.empty() ? "" : "; ") + b.name + " (argument " +
                      std::to_string(b.argument) + "): " + describe(c, b.type);
    }
  }
  return t;
}

LaunchResult replayTraced(Replayer &replayer, const LaunchPlan &plan, const TraceRequest &request,
                          std::uint32_t runs) {
  LaunchResult plain = replayer.replay(plan);
  if (plain.status == LaunchStatus::NotReplayable || plain.status == LaunchStatus::Error)
    return plain;
  LaunchPlan traced = tracedPlan(plan, request);
  auto traceArgument = static_cast<std::uint32_t>(plan.args.size());
  for (std::uint32_t run = 1; run <= runs; ++run) {
    LaunchResult t = replayer.replay(traced);
    if (t.status == LaunchStatus::NotReplayable || t.status == LaunchStatus::Error) {
      plain.status = LaunchStatus::Error;
      plain.reason = "the instrumented kernel (" + request.source.string() + "): " + t.reason;
      return plain;
    }
    auto trace = takeTrace(t, plain, traceArgument, run, plan.endianness);
    if (!trace) {
      plain.status = LaunchStatus::Error;
      plain.reason = trace.error();
      return plain;
    }
    if (!trace->outputsSame && plain.status != LaunchStatus::Differs) {
      plain.status = LaunchStatus::Differs;
      plain.reason =
          "the instrumented kernel's run " + std::to_string(run) +
          " wrote other bytes than the plain launch (the instrumentation changed the kernel, or its "
          "result depends on the device's schedule): " +
          trace->difference;
    }
    plain.traces.push_back(std::move(*trace));
  }
  return plain;
}

} // namespace clcapture::replay
