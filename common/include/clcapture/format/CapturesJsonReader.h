//===- CapturesJsonReader.h - Parse and validate captures.json --*- C++ -*-===//
//
// Every record of captures.json converted to the typed model and validated (InstantiationValidation.h),
// each violation reported with its instantiation and key path. A file cut short by a crash is recovered up
// to its last complete record, with a warning.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Diagnostic.h"
#include "clcapture/format/Instantiation.h"
#include "clcapture/format/ReadOptions.h"

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace clcapture::format {

struct CaptureSet {
  /// Records that passed validation, in file order.
  std::vector<Instantiation> instantiations;
  /// For each entry of `instantiations`, its index in the file.
  std::vector<std::size_t> indices;
  /// Number of records in the file (valid or not; after recovery, those before the cut).
  std::size_t recordCount = 0;
  bool truncated = false;
  std::vector<Diagnostic> diagnostics;

  bool hasErrors() const;
  std::string diagnosticsText() const;
};

/// Parses captures.json text. `baseDir` is the folder the JSON lives in; files are checked only when it is
/// given and options.checkFiles is set. `displayName` prefixes every diagnostic.
CaptureSet parseCaptures(std::string_view text, std::string_view displayName, const ReadOptions &options,
                         const std::filesystem::path *baseDir = nullptr);

/// Reads and parses a captures.json file; the display name is the path as given.
CaptureSet readCapturesFile(const std::filesystem::path &path, const ReadOptions &options = {});

} // namespace clcapture::format
