//===- ArchiveWriter.h - Byte-identical .tar.gz archives -*- C++ -*-===//
//
// A bug report must be reproducible to the byte: the same input gives the same archive. Entries are written
// sorted by path, as restricted pax (plain ustar headers; an extended header only for a path longer than
// ustar holds or a file over 8 GiB, and never with times), with mtime 0, owner and group root (0), modes
// 0644 / 0755, and gzip without a name or timestamp in its header (libarchive's `gzip:!timestamp`).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Expected.h"

#include <filesystem>
#include <string>
#include <vector>

namespace clcapture::archive {

/// One file of the archive: its path inside (relative, '/'-separated) and either its bytes or a file on disk.
struct ArchiveEntry {
  std::string path;
  std::string bytes;              ///< used when `source` is empty
  std::filesystem::path source{}; ///< a file streamed into the archive
};

/// Writes `entries` to `archive` (replaced atomically: a temporary file renamed into place). Folders are
/// implied by the paths and written before their files.
format::Expected<void> writeArchive(const std::filesystem::path &archive, std::vector<ArchiveEntry> entries);

} // namespace clcapture::archive
