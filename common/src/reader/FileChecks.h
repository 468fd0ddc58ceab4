//===- FileChecks.h - The files a capture names: inside, present, the right size -*- C++ -*-===//
//
// Internal to clcapture_format's readers. A kernel file or data file named by a record must stay inside the
// capture folder and exist there, as a loose file or as a blob in one of the folder's packs
// (CaptureBlobs.h), and a data file must hold as many bytes as the argument's size says. The file system
// is asked once per file however many records name it (a launch-heavy capture names one kernel file
// 64,000 times): a reader keeps the answers in a FileChecks for the whole file.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Reporter.h"
#include "clcapture/format/Diagnostic.h"
#include "clcapture/format/Instantiation.h"
#include "clcapture/format/ReadOptions.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace clcapture::format::reader {

/// What the file system says of one file a capture names.
struct FileFacts {
  std::optional<std::string> problem; ///< containedFileProblem
  std::optional<std::uintmax_t> size;
};
/// The answers for each file named so far (by its path relative to the capture folder).
using FileChecks = std::map<std::string, FileFacts>;

/// Checks the file `relative` (reported at key path `path`): lexically always; inside `baseDir` only when
/// given and the options check files, asking the file system only when `checks` (may be null) has no answer.
void validateFile(const std::string &relative, const std::string &path, const std::filesystem::path *baseDir,
                  Reporter &r, FileChecks *checks, std::optional<std::uint64_t> expectedSize = std::nullopt);

/// validateInstantiation (InstantiationValidation.h) remembering its file checks in `checks` (may be null)
/// across the records of one file. Defined in InstantiationValidation.cpp.
void validateInstantiation(const Instantiation &inst, std::size_t index, std::string_view displayName,
                           const ReadOptions &options, const std::filesystem::path *baseDir,
                           DiagnosticList &out, FileChecks *checks);

} // namespace clcapture::format::reader
