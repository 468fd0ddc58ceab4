//===- SidecarReader.h - Parse and validate captures.meta.json --*- C++ -*-===//
//
// The sidecar's launch entries, repeats expanded (SidecarRepeats.h), converted to LaunchFacts. The sidecar
// is clcapture's own: unknown keys are warnings, a newer format version is refused.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Diagnostic.h"
#include "clcapture/format/ReadOptions.h"
#include "clcapture/format/Sidecar.h"

#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

namespace clcapture::format {

struct SidecarSet {
  std::optional<Sidecar> sidecar;
  bool truncated = false;
  std::vector<Diagnostic> diagnostics;
  bool hasErrors() const;
};

/// Parses captures.meta.json text.
SidecarSet parseSidecar(std::string_view text, std::string_view displayName, const ReadOptions &options);
SidecarSet readSidecarFile(const std::filesystem::path &path, const ReadOptions &options = {});

} // namespace clcapture::format
