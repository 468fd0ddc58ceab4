//===- DeviceEngine.h - clcapture-debug's device engine: the three ways in -*- C++ -*-===//
//
// `--engine=device` records the launch on the device and runs the recording session; `--recording FILE`
// opens a saved recording (no device, no capture needed); `--diff` records the launch on the device and in
// Oclgrind's interpreter and reports the first divergence (docs/device-debugging.md).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "CapturedLaunch.h"
#include "CommandInput.h"
#include "DapServer.h"
#include "DeviceRecorder.h"
#include "FindingWitness.h"
#include "RecordingDiff.h"

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>

namespace clcapture::debug {

struct DeviceEngineOptions {
  std::filesystem::path capture;
  DeviceSettings device;
  std::optional<std::filesystem::path> saveTrace;       ///< --save-trace FILE (with --repeat: FILE.runK)
  std::optional<std::filesystem::path> instrumentation; ///< --instrumentation DIR: made before, elsewhere
  std::optional<std::filesystem::path> recording; ///< --diff --recording FILE: a device recorded elsewhere
  std::optional<FindingWitness>
      witness; ///< --finding K: its work-items record, the session stops at its lines
  DiffOptions diff;
};

/// The exit status when --diff finds a divergence (docs/contract.md §4's "differs").
constexpr int kExitDiverged = 6;

/// The witness's work-items as a --record-items predicate.
std::string witnessPredicate(const FindingWitness &witness, const replay::LaunchPlan &plan);

/// `--record-items` as OpenCL C: `all`, `group X[,Y[,Z]]`, `items G[,G…]` (global ids in dimension 0), or an
/// expression kept as written; empty: the first group.
std::string recordItemsPredicate(const std::string &given, const replay::LaunchPlan &plan);

/// `server`: the DAP server that is `input` (--dap), attached to the session; nullptr at a terminal or in a
/// script.
int runDeviceSession(const CapturedLaunch &launch, const DeviceEngineOptions &options, CommandInput &input,
                     std::ostream &out, DapServer *server = nullptr);
int runSavedRecording(const std::filesystem::path &file, CommandInput &input, std::ostream &out,
                      DapServer *server = nullptr);
int runDiff(const CapturedLaunch &launch, const DeviceEngineOptions &options, std::ostream &out);

} // namespace clcapture::debug
