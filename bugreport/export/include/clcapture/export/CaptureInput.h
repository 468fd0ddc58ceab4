//===- CaptureInput.h - The capture an export reads -------------*- C++ -*-===//
//
// `clcapture export` takes a capture folder or its captures.json (SPEC §3). Opening is this one function,
// so that `clcapture pack` archives can be accepted here in one place later.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/archive/CaptureInput.h"
#include "clcapture/format/CaptureReader.h"
#include "clcapture/format/Expected.h"

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clcapture::exporter {

struct CaptureInput {
  std::filesystem::path folder;                    ///< the folder captures.json's relative paths start from
  format::Capture capture;                         ///< with its diagnostics (warnings and errors)
  std::shared_ptr<archive::CaptureInput> source{}; ///< keeps an extracted archive's folder alive
};

/// Loads `path` (a capture folder, a captures.json file or a clcapture pack archive). A failure means no
/// capture could be found; a capture that was found but is invalid comes back with errors in
/// capture.diagnostics.
format::Expected<CaptureInput> openCaptureInput(const std::filesystem::path &path);

/// Positions in capture.captures.instantiations of the instantiations whose indices are `only` (all, in
/// file order, when `only` is empty); a failure names an index the capture does not have.
format::Expected<std::vector<std::size_t>> selectInstantiations(const format::Capture &capture,
                                                                const std::vector<std::size_t> &only);

/// Parses `--only I,J…` words: plain decimal indices.
format::Expected<std::vector<std::size_t>> parseIndexList(const std::vector<std::string> &words);

} // namespace clcapture::exporter
