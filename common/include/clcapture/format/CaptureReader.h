//===- CaptureReader.h - Load and validate captures.json and its sidecar -*- C++ -*-===//
//
// The reader enforces the seed format's rules (shared/seeds/gpuverify-json-format.txt) and SPEC §3, and
// reports every violation with its instantiation and key path. A file cut short by a crash (the app was
// killed mid-append) is not an error: every record completed before the cut is recovered, with a warning.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Diagnostic.h"
#include "clcapture/format/Instantiation.h"
#include "clcapture/format/Sidecar.h"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clcapture::format {

struct ReadOptions {
  /// Unknown keys are errors (GPUVerify's own loader rejects them); when false they are warnings.
  bool strict = true;
  /// A file that ends mid-record yields the records before the cut (with a warning) instead of an error.
  bool recoverTruncated = true;
  /// Check that referenced files exist inside the capture folder and that data files match their sizes.
  bool checkFiles = true;
  /// OpenCL 2.0 allows a global size that is not a multiple of the local size; GPUVerify does not.
  bool allowNonUniformWorkGroups = false;
  std::size_t maxErrors = 100;
  /// loadCapture: read captures.json and the sidecar at the same time (two threads) when > 1.
  unsigned threads = 1;
};

/// Whether the instantiation's program may run with non-uniform work-groups (OpenCL 2.0 §5.8.3): built
/// with -cl-std=CL2.0 or later and without -cl-uniform-work-group-size. Such a launch may have a global
/// size that is not a multiple of its local size; its last group in that dimension is smaller.
bool allowsNonUniformWorkGroups(const Instantiation &inst);

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

struct SidecarSet {
  std::optional<Sidecar> sidecar;
  bool truncated = false;
  std::vector<Diagnostic> diagnostics;
  bool hasErrors() const;
};

/// Parses captures.json text. `baseDir` is the folder the JSON lives in; files are checked only when it is
/// given and options.checkFiles is set. `displayName` prefixes every diagnostic.
CaptureSet parseCaptures(std::string_view text, std::string_view displayName, const ReadOptions &options,
                         const std::filesystem::path *baseDir = nullptr);

/// Reads and parses a captures.json file; the display name is the path as given.
CaptureSet readCapturesFile(const std::filesystem::path &path, const ReadOptions &options = {});

/// Parses captures.meta.json text.
SidecarSet parseSidecar(std::string_view text, std::string_view displayName, const ReadOptions &options);
SidecarSet readSidecarFile(const std::filesystem::path &path, const ReadOptions &options = {});

/// Checks one instantiation against the seed's rules and SPEC §3 (sizes, dimensions, paths, values).
/// Used by the reader after conversion and by the writer before it writes.
void validateInstantiation(const Instantiation &inst, std::size_t index, std::string_view displayName,
                           const ReadOptions &options, const std::filesystem::path *baseDir,
                           DiagnosticList &out);

/// A whole capture folder: captures.json plus, when present, captures.meta.json, cross-checked.
struct Capture {
  std::filesystem::path capturesPath;
  /// The instantiations with the sidecar's exact values put back (restoreExactFacts): the global offset,
  /// a non-uniform local size, 0-byte array sizes that captures.json leaves out for GPUVerify's loader.
  CaptureSet captures;
  std::optional<Sidecar> sidecar;
  /// For each entry of captures.instantiations, the position of its launch in sidecar->launches.
  std::vector<std::optional<std::size_t>> launchIndex;
  std::vector<Diagnostic> diagnostics; ///< everything: captures, sidecar, cross-checks
  bool hasErrors() const;
  /// Launch facts of captures.instantiations[k], or nullptr when the sidecar has none.
  const LaunchFacts *factsFor(std::size_t k) const;
};

/// Loads CAPTURES.json and the sidecar beside it (DIR/captures.meta.json for DIR/captures.json, or
/// NAME.meta.json for NAME.json).
Capture loadCapture(const std::filesystem::path &capturesPath, const ReadOptions &options = {});

/// The sidecar path that belongs to a captures file.
std::filesystem::path sidecarPathFor(const std::filesystem::path &capturesPath);

} // namespace clcapture::format
