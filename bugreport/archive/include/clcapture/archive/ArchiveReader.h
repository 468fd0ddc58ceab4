//===- ArchiveReader.h - Extracting an archive that may be hostile -*- C++ -*-===//
//
// A bug report comes from someone else's machine. Extraction writes nothing outside the given folder and
// stops, naming the entry, at anything that is not a plain file or folder with a relative path inside it:
// absolute paths, `..`, links of either kind, devices and fifos, more entries or bytes than the limits, a
// truncated or malformed stream. Only gzip-compressed tar is read.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Expected.h"

#include <cstdint>
#include <filesystem>

namespace clcapture::archive {

struct ExtractLimits {
  std::uint64_t maxEntryBytes = 4ull << 30;  ///< one file
  std::uint64_t maxTotalBytes = 16ull << 30; ///< all files together
  std::uint64_t maxEntries = 1u << 20;
};

/// Whether the file starts like a gzip stream (what clcapture pack writes).
bool looksLikeArchive(const std::filesystem::path &file);

/// Extracts `archive` into the existing folder `into`. On failure the folder may hold part of the archive,
/// never anything outside it.
format::Expected<void> extractArchive(const std::filesystem::path &archive, const std::filesystem::path &into,
                                      const ExtractLimits &limits = {});

} // namespace clcapture::archive
