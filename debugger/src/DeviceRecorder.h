//===- DeviceRecorder.h - A captured launch recorded on the real device --*- C++ -*-===//
//
// `--engine=device` and `--diff` (docs/device-debugging.md): clcapture-instrument writes the instrumented
// kernel and its layout, clcapture-replay runs the launch plain and instrumented on the chosen device
// (checking the instrumented run writes what the plain one writes) and leaves the trace buffer, which becomes
// a Recording. Both are programs: Clang 16 and the device's driver stay out of this process, which holds
// Oclgrind's LLVM 14.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "CapturedLaunch.h"
#include "Recording.h"
#include "clcapture/format/Expected.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace clcapture::debug {

/// A value written into a work-item's variable at one recorded statement, on the next run (`set var`): the
/// instrumented kernel has a hook, the macro CLCAPTURE_INJECT_<site>, before each statement's record, which
/// the device's build defines (docs/device-debugging.md, "Injection"): no new instrumentation is needed.
struct Injection {
  unsigned site = 0;
  std::uint32_t sequence = 0;
  std::uint64_t item = 0;
  std::string lvalue;
  std::string value;
};

struct DeviceSettings {
  std::optional<std::string> icd; ///< clcapture-replay --icd
  std::uint32_t platform = 0;
  std::uint32_t device = 0;
  std::uint64_t traceBytes = 64ull << 20;
  std::string recordItems;     ///< the --record-items predicate (OpenCL C)
  std::string addBuildOptions; ///< the device build only (a device-only macro: a simulated miscompile)
  std::uint32_t runs = 1;      ///< --repeat
  std::vector<Injection> injections;
  std::filesystem::path workFolder; ///< where the instrumented source, layout and traces go
};

/// The default predicate: the first work-group (docs/device-debugging.md).
std::string firstGroupPredicate(const replay::LaunchPlan &plan);

/// The instrumented kernel and its layout: `instrumented.cl` and `layout.json` in one folder.
struct Instrumented {
  trace::TraceLayout layout;
  std::filesystem::path source;
};
/// Runs clcapture-instrument on the captured kernel, writing into `workFolder`.
format::Expected<Instrumented> instrumentKernel(const CapturedLaunch &launch, const std::string &recordItems,
                                                const std::filesystem::path &workFolder);
/// An instrumentation made before (`--instrumentation DIR`: clcapture-instrument run where Clang is, the
/// recording made where the device is); it must be of the launch's kernel.
format::Expected<Instrumented> loadInstrumentation(const std::filesystem::path &folder,
                                                   const CapturedLaunch &launch);

/// The build options that define the injection hooks; fails on a name or value that cannot be written into a
/// build option (a blank inside a token, quotes).
format::Expected<std::string> injectionOptions(const std::vector<Injection> &injections);

/// The NDRange of `plan` as a recording keeps it.
RecordedRange recordedRange(const replay::LaunchPlan &plan);

/// Records the launch on the device: one Recording per run, of `instrumented` (made once per session: a
/// device-only macro or an injection then changes values, never which statements are recorded) with
/// `settings.injections` defined. Fails naming the step that failed (the device's message).
format::Expected<std::vector<Recording>> recordOnDevice(const CapturedLaunch &launch,
                                                        const std::filesystem::path &capture,
                                                        const DeviceSettings &settings,
                                                        const Instrumented &instrumented);

} // namespace clcapture::debug
