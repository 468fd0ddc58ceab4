//===- ReplayOptions.h - clcapture-replay's command line -------*- C++ -*-===//
//
// clcapture-replay CAPTURE [--only I,J…] [--icd FILE | --platform N --device N] [--output DIR] [--compare]
// [--ulp N] [--repeat K] [--format text|json] [--add-build-options TEXT]
// [--instrumented FILE [--trace-bytes N]] (docs/contract.md §1; the last two: docs/device-debugging.md). Exit
// codes follow docs/contract.md §4's numbering.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace clcapture::replay {

/// docs/contract.md §4's numbering: 0 every selected launch replayed (and, with --compare, every written
/// buffer the same as captured), 1 command line, 6 some launch differs or could not be replayed, 10 invalid
/// capture.
constexpr int kExitOk = 0;
constexpr int kExitCommandLine = 1;
constexpr int kExitDiffers = 6;
constexpr int kExitCaptureInvalid = 10;

enum class ReplayFormat { Text, Json };

struct ReplayOptions {
  std::string capture;                         ///< a capture folder or its captures.json
  std::vector<std::size_t> only;               ///< instantiation indices; empty: every launch
  std::vector<std::uint64_t> onlyProcesses;    ///< --only pid=N: every launch of those processes
  std::optional<std::string> icd;              ///< an ICD library (or .icd file) opened directly
  std::uint32_t platform = 0;                  ///< index among the loader's (or the ICD's) platforms
  std::uint32_t device = 0;                    ///< index among the platform's devices
  std::optional<std::filesystem::path> output; ///< DIR/<index>/arg<N>.bin and DIR/replay.json
  bool compare = false;                        ///< compare written buffers with the capture's data_after
  std::uint64_t ulp = 0;                       ///< tolerance for float, double and half values
  std::uint32_t repeat = 1;                    ///< runs per launch, from the same inputs
  ReplayFormat format = ReplayFormat::Text;
  std::string addBuildOptions; ///< appended to the captured compiler_flags (a device-only macro, …)
  /// clcapture-instrument's source for the one launch selected: run plain, then instrumented `repeat` times.
  std::optional<std::filesystem::path> instrumented;
  std::uint64_t traceBytes = 64ull << 20; ///< the trace buffer's size
};

struct ReplayCommandLine {
  ReplayOptions options;
  std::optional<int> exitCode; ///< set when the program should stop (help, version, error)
};

ReplayCommandLine parseReplayCommandLine(int argc, const char *const *argv, std::ostream &out,
                                         std::ostream &err);

} // namespace clcapture::replay
