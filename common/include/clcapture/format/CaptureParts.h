//===- CaptureParts.h - One capture written by many processes -*- C++ -*-===//
//
// docs/contract.md §3: every process of one run (the launcher's process tree, or the processes that share
// CLCAPTURE_DIR without it) writes into one capture folder. Each process has its own part, a GPUVerify
// captures file and its sidecar (the first process to capture: captures.json and captures.meta.json; every
// other: captures-<pid>.json and captures-<pid>.meta.json, -<pid>-<n> when a pid comes back), beside the
// others, so that the parts share the content store (kernels/, data/: content-addressed, written once) and
// each part's relative paths hold as they are: each part alone is a valid captures.json for GPUVerify.
//
// run.id says which run the folder belongs to (the launcher's CLCAPTURE_RUN; "env" for processes started
// without the launcher): a process joins a folder of its own run and never one of another. processes.jsonl,
// the manifest, gets one line when a process starts its part and one when it ends (a process killed has no
// end line), each one write() on an O_APPEND descriptor, so lines of concurrent processes never interleave.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Expected.h"
#include "clcapture/format/Sidecar.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clcapture::format {

inline constexpr std::string_view kRunMarkerFile = "run.id";
inline constexpr std::string_view kManifestFile = "processes.jsonl";
/// The run token of processes that share CLCAPTURE_DIR without the launcher.
inline constexpr std::string_view kRunWithoutLauncher = "env";

/// Creates `dir` when needed and makes it this run's: true when `dir` is new, or already this run's
/// (run.id holds `token`); false when it holds another run's capture (another token, or a capture written
/// before run.id existed). Safe under concurrent processes: run.id appears whole (link of a written file).
Expected<bool> joinCaptureRun(const std::filesystem::path &dir, std::string_view token);
/// Whether `dir` holds a capture that is not the run `token`'s (what joinCaptureRun would refuse).
bool holdsOtherRun(const std::filesystem::path &dir, std::string_view token);

/// The sidecar path that belongs to a captures file (DIR/captures.meta.json for DIR/captures.json,
/// NAME.meta.json for NAME.json).
std::filesystem::path sidecarPathFor(const std::filesystem::path &capturesPath);

/// The file names a process tries for its part, in order: "captures.json" (first = true only), then
/// "captures-<pid>.json", "captures-<pid>-1.json", ...
std::string capturePartName(std::uint64_t pid, unsigned attempt);
/// Whether `fileName` (no folder) names a part: captures.json or captures-*.json, not a sidecar.
bool isCapturePartName(std::string_view fileName);

/// One line of the manifest, merged per part: the start line and, when the process ended normally, its
/// end line.
struct ProcessRecord {
  std::string part; ///< the part's file name, e.g. "captures-4242.json"
  std::uint64_t pid = 0;
  std::optional<std::uint64_t> parent;
  std::string executable;
  std::vector<std::string> commandLine;
  std::string started;                   ///< ISO 8601, UTC
  std::optional<std::string> ended;      ///< absent: the process did not end normally (killed) or still runs
  std::optional<std::uint64_t> launches; ///< instantiations it wrote, from its end line
};

/// A process's command line as one line for messages: its words joined by spaces, " ..." after about 60
/// characters.
std::string shortCommandLine(const std::vector<std::string> &words);

/// The manifest's start line for a part (one JSON object, newline-terminated), from the process facts its
/// sidecar header holds.
std::string manifestStartLine(std::string_view part, const ProcessFacts &process);
/// The manifest's end line for a part.
std::string manifestEndLine(std::string_view part, std::uint64_t pid, std::string_view ended,
                            std::uint64_t launches);
/// Appends one line to DIR/processes.jsonl with one write().
Status appendManifestLine(const std::filesystem::path &dir, std::string_view line);
/// The manifest's processes, in the order they started their parts; lines that do not parse are skipped.
std::vector<ProcessRecord> readProcessManifest(const std::filesystem::path &dir);

/// The parts of the capture in `dir`, in the order their processes started them (the manifest's order,
/// then parts it does not name: captures.json first, then by name). Empty when `dir` holds no part.
std::vector<std::filesystem::path> capturePartsOf(const std::filesystem::path &dir);

} // namespace clcapture::format
