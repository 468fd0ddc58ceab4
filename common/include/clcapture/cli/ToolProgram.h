//===- ToolProgram.h - Where a clcapture tool finds another one ----*- C++ -*-===//
//
// Tools run other clcapture tools as programs (clcapture-verify --confirm runs clcapture-replay, clcapture
// pack
// --report and clcapture-debug --finding run clcapture-verify, clcapture-debug's `compare replay` runs
// clcapture-replay), so that what each links stays out of the other's process. The one beside the running
// executable wins (build/bin, an installed bin), else the first on PATH. Header-only; never in the layer.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <system_error>
#include <unistd.h>

namespace clcapture::cli {

/// The executable `name` beside this program, else on PATH; nullopt when neither has it.
inline std::optional<std::filesystem::path> findToolProgram(const std::string &name) {
  std::error_code ec;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    std::filesystem::path beside = self.parent_path() / name;
    if (::access(beside.c_str(), X_OK) == 0)
      return beside;
  }
  const char *path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (dir.empty())
      continue;
    std::filesystem::path candidate = std::filesystem::path(dir) / name;
    if (::access(candidate.c_str(), X_OK) == 0)
      return candidate;
  }
  return std::nullopt;
}

} // namespace clcapture::cli
