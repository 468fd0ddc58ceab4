//===- CaptureInput.h - A capture as a tool is given it: captures.json, folder or archive -*- C++ -*-===//
//
// The one input module of the tools that read a capture: `clcapture-verify`, `clcapture-replay` and
// `clcapture export` take a captures.json, the folder holding one, or a `clcapture pack` archive
// (docs/contract.md §1), load it, report its diagnostics, and select the instantiations `--only` names, all
// here.
//
// An archive is extracted into a private temporary folder (under $TMPDIR), removed when the last copy of
// its CaptureInput goes; messages and reports name its files as ARCHIVE:path (LoadedCapture::inArchive),
// never the temporary folder.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/archive/ArchiveReader.h"
#include "clcapture/format/CaptureReader.h"
#include "clcapture/format/Expected.h"

#include <cstddef>
#include <filesystem>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clcapture::archive {

class CaptureInput {
public:
  /// A folder: the capture it holds, every part (docs/contract.md §3); an archive: extracted, the capture at
  /// its top; anything else
  /// (a captures.json, or a path that is not there: the reader's diagnostics will name it): itself. Fails
  /// with a message naming the problem (a folder without captures.json, a bad archive).
  static format::Expected<CaptureInput> open(const std::filesystem::path &given,
                                             const ExtractLimits &limits = {});

  /// The captures.json to load (for a whole folder: its first part).
  const std::filesystem::path &capturesPath() const { return m_captures; }
  /// A folder or an archive: every part of the capture it holds (format::loadCaptureFolder), not one file.
  bool wholeFolder() const { return m_whole; }
  bool fromArchive() const { return static_cast<bool>(m_extracted); }

private:
  struct TempFolder {
    std::filesystem::path path;
    ~TempFolder();
  };
  std::filesystem::path m_captures;
  bool m_whole = false;
  std::shared_ptr<TempFolder> m_extracted; ///< shared: copies of the input keep the folder alive
};

/// A capture as a tool was given it, loaded.
struct LoadedCapture {
  std::filesystem::path given;  ///< the path as given, for messages
  std::filesystem::path folder; ///< the folder captures.json's relative paths start from ("." for none)
  format::Capture capture;      ///< with its diagnostics (warnings and errors)
  CaptureInput source;          ///< where it was read from; keeps an extracted archive's folder alive

  bool fromArchive() const { return source.fromArchive(); }
  /// `text` with the extracted archive's folder written as "ARCHIVE:" (the archive's file name); `text`
  /// as it is for a capture that is no archive.
  std::string inArchive(std::string text) const;
};

/// Opens `given` (CaptureInput::open) and loads its captures.json with `options`. A failure means that no
/// capture could be found; a capture that was found but is invalid comes back with errors in its
/// diagnostics.
format::Expected<LoadedCapture> loadCaptureInput(const std::filesystem::path &given,
                                                 const format::ReadOptions &options = {});

/// loadCaptureInput as a tool reports it: the capture's diagnostics go to `err` (inArchive); nothing comes
/// back, after "TOOL: error: …; nothing was DONE" (`nothingDone`: "nothing was analysed") on `err`, when no
/// capture was found or it has errors (the tools then exit 10, docs/contract.md §4).
std::optional<LoadedCapture> openToolInput(const std::filesystem::path &given,
                                           const format::ReadOptions &options, const std::string &tool,
                                           const std::string &nothingDone, std::ostream &err);

/// `--only`: the positions in capture.captures.instantiations of the instantiations whose indices (in
/// captures.json, from 0) are `only`, ascending and each once; every position when `only` is empty. A
/// failure names an index the capture does not have: "--only: no instantiation 9 in NAME (it has 6,
/// numbered 0 to 5)", NAME being `captureName` (the tools exit 1).
/// `pids` (`--only pid=N`) adds every instantiation of those processes' parts; a pid that wrote no part of
/// the capture is a failure naming the processes it has.
format::Expected<std::vector<std::size_t>> selectInstantiations(const format::Capture &capture,
                                                                const std::vector<std::size_t> &only,
                                                                const std::string &captureName,
                                                                const std::vector<std::uint64_t> &pids = {});

} // namespace clcapture::archive
