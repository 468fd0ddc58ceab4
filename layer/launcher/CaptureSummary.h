//===- CaptureSummary.h - What the launcher says after the command -*- C++ -*-===//
//
// docs/contract.md §2: the launcher's closing line says how many launches were left without bytes or without
// source, and why. Read from the sidecar (captures.meta.json, through clcapture::format): launches listed as
// not captured, counted by their reason (programs from binaries: how to get their source; IL), and arguments
// whose bytes were not stored (data_skipped: the per-buffer cap, the byte budget, …), then the closing line
// "clcapture: N instantiations captured in DIR" (with the number of processes, when several wrote parts of
// it). When there is no capture at all, what the pre-flight knew
// and where to look next.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Preflight.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>

namespace clcapture::launcher {

/// What the layer reported from the command's processes (layer/src/writer/RunStatus.h), summed.
struct RunStatusTotals {
  std::size_t processes = 0;   ///< processes that loaded the capture library and exited normally
  std::int64_t platforms = -1; ///< handed to the loader by the shim; -1: unknown (layer only)
  std::uint64_t launches = 0;  ///< every launch the layer saw
  std::uint64_t filteredKernels = 0;
  std::uint64_t filteredLaunches = 0;
};

/// Reads the status file the launcher named in CLCAPTURE_STATUS_FILE (empty path or unreadable: nothing).
RunStatusTotals readRunStatus(const std::string &path);

/// Reports the capture the command's processes wrote into `folder`: each part's launches not captured and
/// buffers without bytes (named by process when several wrote), the processes that did not exit normally,
/// and the closing line. `preflight` is null when the pre-flight did not run, `status` when the layer's
/// status was not asked for.
void reportCaptures(const std::filesystem::path &folder, bool layer, const PreflightReport *preflight,
                    const RunStatusTotals *status, std::FILE *out);

} // namespace clcapture::launcher
