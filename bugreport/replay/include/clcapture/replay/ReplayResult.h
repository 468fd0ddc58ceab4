//===- ReplayResult.h - What one replayed launch gave -----------*- C++ -*-===//
#pragma once

#include "clcapture/replay/BufferComparison.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clcapture::replay {

enum class LaunchStatus {
  Replayed,      ///< ran; nothing differed (or nothing was compared)
  Differs,       ///< ran; a written buffer differs from the capture's data_after, or between --repeat runs
  NotReplayable, ///< the capture lacks what the launch needs (reason says what); not run
  Error          ///< the device refused (the kernel did not compile, an OpenCL call failed)
};
const char *toString(LaunchStatus s);

/// A buffer the kernel may write (a global pointer to non-const data), read back after the launch.
struct BufferResult {
  std::uint32_t argument = 0;
  std::string name;
  std::uint64_t size = 0;
  ElementType type;
  std::optional<std::string> file; ///< under --output, relative to it: "<index>/arg<N>.bin"
  std::vector<std::uint8_t> bytes; ///< what the first run left there
  /// --compare: against data_after, or why there was nothing to compare.
  std::optional<Comparison> againstCapture;
  std::optional<std::string> nothingToCompare;
  /// --repeat K: the first later run that left other bytes than run 1, and how many runs did.
  std::optional<Comparison> betweenRuns;
  std::uint32_t runsDiffering = 0;
  std::uint32_t firstDifferingRun = 0; ///< 2-based run number
};

/// What one run of the instrumented kernel recorded (TracedLaunch.h).
struct TraceRun {
  std::uint32_t run = 1;
  double seconds = 0;               ///< enqueue to completion
  std::vector<std::uint8_t> bytes;  ///< the whole trace buffer after the run
  std::uint64_t wordsUsed = 0;      ///< the cursor (may pass the capacity)
  std::uint64_t capacityWords = 0;  ///< words for records
  std::uint64_t recordsDropped = 0; ///< records that did not fit
  bool outputsSame = true;          ///< every other written buffer as the plain run left it
  std::string difference;           ///< when not: which buffer and where
  std::optional<std::string> file;  ///< under --output: "<index>/trace.run<K>.bin"
};

struct LaunchResult {
  std::optional<std::size_t> index;    ///< the instantiation (none: a sidecar launch without one)
  std::optional<std::uint64_t> launch; ///< the sidecar's launch number
  /// A capture many processes wrote: the process whose part holds the launch (pid), as text and JSON say.
  std::optional<std::uint64_t> pid;
  std::string entryPoint;
  LaunchStatus status = LaunchStatus::Replayed;
  std::string reason;             ///< NotReplayable / Error: why; Differs: what
  double seconds = 0;             ///< enqueue to completion of the first run
  std::vector<double> runSeconds; ///< each run's (--repeat: the later ones without the first's compilation)
  std::uint32_t runs = 0;
  std::vector<std::string> notes; ///< assumptions the replay made
  std::vector<BufferResult> buffers;
  std::vector<TraceRun> traces; ///< --instrumented: each run's trace (the buffers are the plain run's)
};

} // namespace clcapture::replay
