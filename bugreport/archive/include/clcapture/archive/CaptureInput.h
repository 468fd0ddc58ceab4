//===- CaptureInput.h - A capture as a tool is given it: captures.json, folder or archive -*- C++ -*-===//
//
// `clcapture-verify`, `clcapture-replay` and `clcapture export` take a captures.json, the folder holding one,
// or a `clcapture pack` archive (SPEC §1). An archive is extracted into a private temporary folder (under
// $TMPDIR), removed when the CaptureInput goes; paths in reports are then relative to that folder, so they
// read as paths inside the archive.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/archive/ArchiveReader.h"
#include "clcapture/format/Expected.h"

#include <filesystem>
#include <memory>

namespace clcapture::archive {

class CaptureInput {
public:
  /// Fails with a message naming the problem (no such file, a folder without captures.json, a bad archive).
  static format::Expected<CaptureInput> open(const std::filesystem::path &given,
                                             const ExtractLimits &limits = {});

  /// The captures.json to load.
  const std::filesystem::path &capturesPath() const { return m_captures; }
  bool fromArchive() const { return static_cast<bool>(m_extracted); }

private:
  struct TempFolder {
    std::filesystem::path path;
    ~TempFolder();
  };
  std::filesystem::path m_captures;
  std::shared_ptr<TempFolder> m_extracted; ///< shared: copies of the input keep the folder alive
};

} // namespace clcapture::archive
