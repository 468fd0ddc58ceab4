//===- ReplayInput.cpp - Opening what clcapture-replay was given ----------===//

#include "clcapture/replay/ReplayInput.h"

#include "clcapture/archive/CaptureInput.h"

#include <system_error>

namespace clcapture::replay {

namespace fs = std::filesystem;

format::Expected<ReplayInput> openReplayInput(const std::string &capture) {
  // A captures.json, its folder or a `clcapture pack` archive (extracted into a temporary folder that the
  // input keeps alive).
  auto source = archive::CaptureInput::open(capture);
  if (!source.ok())
    return format::fail(source.error());
  fs::path captures = source.value().capturesPath();
  format::ReadOptions options;
  options.checkFiles = true;
  ReplayInput input{capture, captures.parent_path(), format::loadCapture(captures, options),
                    std::make_shared<archive::CaptureInput>(source.value())};
  if (input.folder.empty())
    input.folder = ".";
  return input;
}

} // namespace clcapture::replay
