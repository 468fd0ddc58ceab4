//===- InstantiationAnalyzer.cpp - Helpers shared by analyses -------------===//

#include "clcapture/pipeline/InstantiationAnalyzer.h"

namespace clcapture::pipeline {

std::filesystem::path dumpPath(const std::filesystem::path &dir, std::size_t index,
                               const std::string &entryPoint, const std::string &extension) {
  std::string name = std::to_string(index) + '-';
  for (char c : entryPoint) {
    bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    name += plain ? c : '_';
  }
  return dir / (name + extension);
}

} // namespace clcapture::pipeline
