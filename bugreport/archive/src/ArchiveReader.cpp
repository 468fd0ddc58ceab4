//===- ArchiveReader.cpp - Extracting an archive that may be hostile -===//

#include "clcapture/archive/ArchiveReader.h"

#include "LibarchiveError.h"
#include "clcapture/format/CapturePath.h"

#include <algorithm>
#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <fstream>
#include <memory>
#include <unistd.h>

namespace clcapture::archive {

namespace fs = std::filesystem;
namespace fmt = clcapture::format;

namespace {

struct ReaderCloser {
  void operator()(struct archive *a) const { archive_read_free(a); }
};

std::string inQuotes(const std::string &s) {
  return "\"" + s + "\"";
}

std::string errorOf(struct archive *a) {
  return libarchiveError(a, "unreadable data");
}

/// Whether `folder` (which exists) resolves to `base` or a folder under it.
bool insideFolder(const fs::path &base, const fs::path &folder) {
  std::error_code ec;
  fs::path realBase = fs::canonical(base, ec);
  if (ec)
    return false;
  fs::path real = fs::canonical(folder, ec);
  if (ec)
    return false;
  auto [baseEnd, unused] = std::mismatch(realBase.begin(), realBase.end(), real.begin(), real.end());
  (void)unused;
  return baseEnd == realBase.end();
}

} // namespace

bool looksLikeArchive(const fs::path &file) {
  std::ifstream in(file, std::ios::binary);
  unsigned char magic[2] = {0, 0};
  in.read(reinterpret_cast<char *>(magic), 2);
  return in.gcount() == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

fmt::Expected<void> extractArchive(const fs::path &archivePath, const fs::path &into,
                                   const ExtractLimits &limits) {
  std::unique_ptr<struct archive, ReaderCloser> a(archive_read_new());
  archive_read_support_filter_gzip(a.get());
  archive_read_support_format_tar(a.get());
  std::string name = archivePath.string();
  if (archive_read_open_filename(a.get(), archivePath.c_str(), 1 << 16) != ARCHIVE_OK)
    return fmt::fail(name + ": not a clcapture pack archive (gzip-compressed tar): " + errorOf(a.get()));
  std::uint64_t entries = 0, total = 0;
  for (;;) {
    archive_entry *entry = nullptr;
    int r = archive_read_next_header(a.get(), &entry);
    // Checked before EOF too: an empty plain tar is no pack archive either.
    if ((r == ARCHIVE_OK || r == ARCHIVE_EOF) && entries == 0 &&
        archive_filter_code(a.get(), 0) != ARCHIVE_FILTER_GZIP)
      return fmt::fail(name + ": not a clcapture pack archive: a tar without gzip compression");
    if (r == ARCHIVE_EOF)
      break;
    if (r != ARCHIVE_OK)
      return fmt::fail(name + ": malformed archive: " + errorOf(a.get()));
    const char *raw = archive_entry_pathname(entry);
    std::string path = raw ? raw : "";
    if (++entries > limits.maxEntries)
      return fmt::fail(name + ": more than " + std::to_string(limits.maxEntries) + " entries");
    auto type = archive_entry_filetype(entry);
    bool folder = type == AE_IFDIR;
    if (archive_entry_hardlink(entry) || (type != AE_IFREG && !folder))
      return fmt::fail(name + ": entry " + inQuotes(path) +
                       " is not a plain file or folder (links, devices and "
                       "fifos are refused)");
    std::string relative = path;
    while (folder && !relative.empty() && relative.back() == '/')
      relative.pop_back();
    if (relative.rfind("./", 0) == 0)
      relative = relative.substr(2);
    if (relative.empty() && folder)
      continue;
    if (auto problem = fmt::lexicalPathProblem(relative))
      return fmt::fail(name + ": entry " + inQuotes(path) + ": " + *problem);
    fs::path target = into / relative;
    std::error_code ec;
    if (folder) {
      fs::create_directories(target, ec);
      if (ec)
        return fmt::fail(name + ": entry " + inQuotes(path) + ": " + ec.message());
      continue;
    }
    auto declared = archive_entry_size_is_set(entry) ? archive_entry_size(entry) : -1;
    if (declared < 0 || static_cast<std::uint64_t>(declared) > limits.maxEntryBytes)
      return fmt::fail(name + ": entry " + inQuotes(path) + " is larger than " +
                       std::to_string(limits.maxEntryBytes) + " bytes (or has no size)");
    total += static_cast<std::uint64_t>(declared);
    if (total > limits.maxTotalBytes)
      return fmt::fail(name + ": the entries hold more than " + std::to_string(limits.maxTotalBytes) +
                       " bytes");
    fs::create_directories(target.parent_path(), ec);
    // The parent folders were made from checked names, but one may already exist as a link on disk (a
    // folder someone prepared): the file must still land inside `into`.
    if (!insideFolder(into, target.parent_path()))
      return fmt::fail(name + ": entry " + inQuotes(path) + ": its folder resolves outside " + into.string());
    int fd = ::open(target.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0)
      return fmt::fail(name + ": entry " + inQuotes(path) +
                       ": cannot create it (duplicate entry or not writable)");
    const void *block = nullptr;
    size_t size = 0;
    la_int64_t offset = 0;
    for (;;) {
      r = archive_read_data_block(a.get(), &block, &size, &offset);
      if (r == ARCHIVE_EOF)
        break;
      if (r != ARCHIVE_OK) {
        ::close(fd);
        return fmt::fail(name + ": entry " + inQuotes(path) + ": truncated or corrupt: " + errorOf(a.get()));
      }
      if (offset < 0 || static_cast<std::uint64_t>(offset) + size > static_cast<std::uint64_t>(declared)) {
        ::close(fd);
        return fmt::fail(name + ": entry " + inQuotes(path) + " holds more bytes than it declares");
      }
      if (::pwrite(fd, block, size, offset) != static_cast<ssize_t>(size)) {
        ::close(fd);
        return fmt::fail(name + ": entry " + inQuotes(path) + ": write failed");
      }
    }
    ::close(fd);
  }
  return {};
}

} // namespace clcapture::archive
