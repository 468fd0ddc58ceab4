//===- ReplayInput.h - Opening what clcapture-replay was given --*- C++ -*-===//
//
// The one place that turns the CAPTURE argument into a loaded capture: a capture folder or its
// captures.json today; a `clcapture pack` archive once clcapture::archive::CaptureInput is wired in here.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/archive/CaptureInput.h"
#include "clcapture/format/CaptureReader.h"
#include "clcapture/format/Expected.h"

#include <filesystem>
#include <memory>
#include <string>

namespace clcapture::replay {

struct ReplayInput {
  std::string displayName;      ///< the argument as given, for messages
  std::filesystem::path folder; ///< the folder that captures.json's relative paths start from
  format::Capture capture;      ///< the instantiations with the sidecar's exact facts put back
  std::shared_ptr<archive::CaptureInput> source{}; ///< keeps an extracted archive's folder alive
};

/// Loads CAPTURE (a folder holding captures.json, a captures.json file, or a clcapture pack archive). A path
/// that names neither is a failure (command line); a capture with errors comes back with its diagnostics
/// (capture.hasErrors()).
format::Expected<ReplayInput> openReplayInput(const std::string &capture);

} // namespace clcapture::replay
