//===- CaptureInput.cpp - The capture an export reads ---------------------===//

#include "clcapture/export/CaptureInput.h"

#include "clcapture/archive/CaptureInput.h"

#include <algorithm>
#include <map>

namespace clcapture::exporter {

namespace fs = std::filesystem;

format::Expected<CaptureInput> openCaptureInput(const fs::path &path) {
  // A captures.json, its folder or a `clcapture pack` archive (extracted into a temporary folder that the
  // input keeps alive).
  auto source = archive::CaptureInput::open(path);
  if (!source.ok())
    return format::fail(source.error());
  fs::path captures = source.value().capturesPath();
  format::ReadOptions options;
  options.checkFiles = true;
  CaptureInput input{captures.parent_path(), format::loadCapture(captures, options),
                     std::make_shared<archive::CaptureInput>(source.value())};
  if (input.folder.empty())
    input.folder = ".";
  return input;
}

format::Expected<std::vector<std::size_t>> selectInstantiations(const format::Capture &capture,
                                                                const std::vector<std::size_t> &only) {
  const auto &indices = capture.captures.indices;
  std::vector<std::size_t> positions;
  if (only.empty()) {
    for (std::size_t p = 0; p < indices.size(); ++p)
      positions.push_back(p);
    return positions;
  }
  std::map<std::size_t, std::size_t> positionOf;
  for (std::size_t p = 0; p < indices.size(); ++p)
    positionOf.emplace(indices[p], p);
  for (std::size_t index : only) {
    auto it = positionOf.find(index);
    if (it == positionOf.end()) {
      std::size_t count = capture.captures.recordCount;
      return format::fail("--only: no instantiation " + std::to_string(index) + " (the capture has " +
                          (count == 0
                               ? std::string("none")
                               : std::to_string(count) + ", numbered 0 to " + std::to_string(count - 1)) +
                          ")");
    }
    positions.push_back(it->second);
  }
  std::sort(positions.begin(), positions.end());
  positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
  return positions;
}

format::Expected<std::vector<std::size_t>> parseIndexList(const std::vector<std::string> &words) {
  std::vector<std::size_t> out;
  for (const std::string &w : words) {
    bool digits = !w.empty() && w.size() <= 18 && w.find_first_not_of("0123456789") == std::string::npos;
    if (!digits)
      return format::fail("--only: expected instantiation indices such as 0,3,5, got '" + w + "'");
    out.push_back(static_cast<std::size_t>(std::stoull(w)));
  }
  return out;
}

} // namespace clcapture::exporter
