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

#include "clcapture/format/CaptureParts.h"
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

/// One process's part of a capture (CaptureParts.h): where its records sit in the whole.
struct CapturePart {
  std::filesystem::path capturesPath;
  std::optional<ProcessFacts> process; ///< from the part's sidecar header
  std::size_t firstIndex = 0;          ///< the whole capture's index of the part's record 0
  std::size_t recordCount = 0;
};

/// A whole capture folder: captures.json plus, when present, captures.meta.json, cross-checked; for a
/// capture many processes wrote (loadCaptureFolder), every part, numbered as one.
struct Capture {
  std::filesystem::path capturesPath;
  /// The instantiations with the sidecar's exact values put back (restoreExactFacts): the global offset,
  /// a non-uniform local size, 0-byte array sizes that captures.json leaves out for GPUVerify's loader.
  CaptureSet captures;
  std::optional<Sidecar> sidecar;
  /// For each entry of captures.instantiations, the position of its launch in sidecar->launches.
  std::vector<std::optional<std::size_t>> launchIndex;
  std::vector<Diagnostic> diagnostics; ///< everything: captures, sidecar, cross-checks
  /// The parts, in order (one for a single captures file): part i holds the records numbered
  /// [firstIndex, firstIndex + recordCount) in captures.indices.
  std::vector<CapturePart> parts;
  bool hasErrors() const;
  /// The part instantiation captures.instantiations[k] came from (nullptr when there are no parts).
  const CapturePart *partOf(std::size_t k) const;
  /// Launch facts of captures.instantiations[k], or nullptr when the sidecar has none.
  const LaunchFacts *factsFor(std::size_t k) const;
};

/// Loads CAPTURES.json and the sidecar beside it (DIR/captures.meta.json for DIR/captures.json, or
/// NAME.meta.json for NAME.json).
Capture loadCapture(const std::filesystem::path &capturesPath, const ReadOptions &options = {});

/// Loads every part of the capture in `folder` (capturePartsOf: the parts in the order their processes
/// started them) as one capture: instantiations numbered across the parts, each part's sidecar facts put
/// back and renumbered alike; the sidecar header is the first part's. A folder of one part loads as
/// loadCapture(folder/captures.json) does.
Capture loadCaptureFolder(const std::filesystem::path &folder, const ReadOptions &options = {});

} // namespace clcapture::format
