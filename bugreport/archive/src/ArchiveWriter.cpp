//===- ArchiveWriter.cpp - Byte-identical .tar.gz archives -===//

#include "clcapture/archive/ArchiveWriter.h"

#include "LibarchiveError.h"

#include <algorithm>
#include <archive.h>
#include <archive_entry.h>
#include <fstream>
#include <memory>
#include <set>
#include <system_error>
#include <unistd.h>

namespace clcapture::archive {

namespace fs = std::filesystem;
namespace fmt = clcapture::format;

namespace {

struct ArchiveCloser {
  void operator()(struct archive *a) const { archive_write_free(a); }
};
struct EntryFreer {
  void operator()(archive_entry *e) const { archive_entry_free(e); }
};

fmt::Expected<void> writeHeader(struct archive *a, const std::string &path, bool folder, std::int64_t size) {
  std::unique_ptr<archive_entry, EntryFreer> entry(archive_entry_new());
  archive_entry_set_pathname(entry.get(), path.c_str());
  archive_entry_set_filetype(entry.get(), folder ? AE_IFDIR : AE_IFREG);
  archive_entry_set_perm(entry.get(), folder ? 0755 : 0644);
  archive_entry_set_size(entry.get(), folder ? 0 : size);
  archive_entry_set_mtime(entry.get(), 0, 0);
  archive_entry_set_uid(entry.get(), 0);
  archive_entry_set_gid(entry.get(), 0);
  archive_entry_set_uname(entry.get(), "root");
  archive_entry_set_gname(entry.get(), "root");
  if (archive_write_header(a, entry.get()) != ARCHIVE_OK)
    return fmt::fail(path + ": " + libarchiveError(a, "cannot write the entry header"));
  return {};
}

fmt::Expected<void> writeData(struct archive *a, const std::string &path, const char *bytes,
                              std::size_t size) {
  while (size > 0) {
    la_ssize_t n = archive_write_data(a, bytes, size);
    if (n <= 0)
      return fmt::fail(path + ": " + libarchiveError(a, "write failed"));
    bytes += n;
    size -= static_cast<std::size_t>(n);
  }
  return {};
}

} // namespace

fmt::Expected<void> writeArchive(const fs::path &archivePath, std::vector<ArchiveEntry> entries) {
  std::sort(entries.begin(), entries.end(),
            [](const ArchiveEntry &x, const ArchiveEntry &y) { return x.path < y.path; });
  std::unique_ptr<struct archive, ArchiveCloser> a(archive_write_new());
  if (archive_write_set_format_pax_restricted(a.get()) != ARCHIVE_OK ||
      archive_write_add_filter_gzip(a.get()) != ARCHIVE_OK ||
      archive_write_set_filter_option(a.get(), "gzip", "timestamp", nullptr) != ARCHIVE_OK)
    return fmt::fail("cannot set up the archive: " + libarchiveError(a.get(), "no gzip support"));
  // Whole blocks of zeros at the end, as tar(1) writes; fixed, so the size does not depend on anything else.
  archive_write_set_bytes_in_last_block(a.get(), 1);
  fs::path temporary = archivePath;
  temporary += ".tmp." + std::to_string(::getpid());
  if (archive_write_open_filename(a.get(), temporary.c_str()) != ARCHIVE_OK)
    return fmt::fail(archivePath.string() + ": " + libarchiveError(a.get(), "cannot create the file"));
  auto failed = [&](const std::string &message) {
    a.reset();
    std::error_code ec;
    fs::remove(temporary, ec);
    return fmt::fail(archivePath.string() + ": " + message);
  };
  std::set<std::string> folders;
  for (const ArchiveEntry &e : entries) {
    // Parent folders first, once each.
    for (std::size_t slash = e.path.find('/'); slash != std::string::npos;
         slash = e.path.find('/', slash + 1)) {
      std::string folder = e.path.substr(0, slash + 1);
      if (folders.insert(folder).second)
        if (auto s = writeHeader(a.get(), folder, true, 0); !s.ok())
          return failed(s.error());
    }
    if (e.source.empty()) {
      if (auto s = writeHeader(a.get(), e.path, false, static_cast<std::int64_t>(e.bytes.size())); !s.ok())
        return failed(s.error());
      if (auto s = writeData(a.get(), e.path, e.bytes.data(), e.bytes.size()); !s.ok())
        return failed(s.error());
      continue;
    }
    std::error_code ec;
    auto size = fs::file_size(e.source, ec);
    std::ifstream in(e.source, std::ios::binary);
    if (ec || !in)
      return failed("cannot read " + e.source.string());
    if (auto s = writeHeader(a.get(), e.path, false, static_cast<std::int64_t>(size)); !s.ok())
      return failed(s.error());
    std::vector<char> buffer(1 << 20);
    std::uintmax_t left = size;
    while (left > 0) {
      auto want = static_cast<std::streamsize>(std::min<std::uintmax_t>(left, buffer.size()));
      if (!in.read(buffer.data(), want))
        return failed("cannot read " + e.source.string());
      if (auto s = writeData(a.get(), e.path, buffer.data(), static_cast<std::size_t>(want)); !s.ok())
        return failed(s.error());
      left -= static_cast<std::uintmax_t>(want);
    }
  }
  if (archive_write_close(a.get()) != ARCHIVE_OK)
    return failed(libarchiveError(a.get(), "cannot finish the archive"));
  a.reset();
  std::error_code ec;
  fs::rename(temporary, archivePath, ec);
  if (ec) {
    fs::remove(temporary, ec);
    return fmt::fail(archivePath.string() + ": " + ec.message());
  }
  return {};
}

} // namespace clcapture::archive
