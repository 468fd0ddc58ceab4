//===- LibarchiveError.h - libarchive's last message, never a null pointer -===//
//
// libarchive may fail without a message (archive_read_open_filename does on some corrupt gzip streams), and
// a null char* must not reach std::string. Found by tests/fuzz/ArchiveReaderFuzzer.cpp.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <archive.h>
#include <string>

namespace clcapture::archive {

inline std::string libarchiveError(struct archive *a, const char *fallback) {
  const char *message = archive_error_string(a);
  return message ? message : fallback;
}

} // namespace clcapture::archive
