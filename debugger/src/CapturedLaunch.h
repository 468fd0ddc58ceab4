//===- CapturedLaunch.h - The one launch a debugging session runs -------*- C++ -*-===//
//
// A capture (folder, captures.json or `clcapture pack` archive) opened through bugreport/'s CaptureInput, one
// instantiation chosen by its index, and its launch planned by clcapture-replay's LaunchPlan: memory objects
// with their starting bytes, argument roles, NDRange. A launch that needs what the capture lacks is refused
// with the planner's reason (it names the argument), never guessed.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/archive/CaptureInput.h"
#include "clcapture/format/Expected.h"
#include "clcapture/replay/LaunchPlan.h"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace clcapture::debug {

struct CapturedLaunch {
  archive::LoadedCapture input;   ///< keeps an extracted archive's folder alive
  replay::LaunchPlan plan;        ///< what the interpreter creates
  std::string source;             ///< the kernel file's text
  std::size_t instantiationCount; ///< how many launches the capture holds (for messages)
};

/// Opens `capture` and plans instantiation `index` (nullopt: the capture's first). Fails with one line naming
/// the problem: an unreadable or damaged capture, an index the capture does not hold, a launch the capture
/// cannot run again (no bytes for a buffer the kernel may read, a program from IL or a binary, SVM, images).
format::Expected<CapturedLaunch> openCapturedLaunch(const std::filesystem::path &capture,
                                                    std::optional<std::size_t> index);

} // namespace clcapture::debug
