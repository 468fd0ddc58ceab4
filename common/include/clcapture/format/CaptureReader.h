//===- CaptureReader.h - Load and validate captures.json and its sidecar -*- C++ -*-===//
//
// The reader enforces the rules of GPUVerify's JSON kernel-instantiation format (docs/contract.md §3) and
// docs/contract.md §3, and reports every violation with its instantiation and key path. A file cut short by a
// crash (the app was killed mid-append) is not an error: every record completed before the cut is recovered,
// with a warning.
//
// This header is the reader's whole API: a capture folder (loadCapture, here), captures.json alone
// (CapturesJsonReader.h), the sidecar alone (SidecarReader.h), and the validation they share with the
// writers (InstantiationValidation.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/CapturesJsonReader.h"
#include "clcapture/format/Diagnostic.h"
#include "clcapture/format/InstantiationValidation.h"
#include "clcapture/format/ReadOptions.h"
#include "clcapture/format/Sidecar.h"
#include "clcapture/format/SidecarReader.h"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <vector>

namespace clcapture::format {

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
