//===- BlobStore.cpp - Content-addressed files of a capture folder -------===//

#include "clcapture/format/BlobStore.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <unistd.h>
// XXH_INLINE_ALL: xxHash is compiled into clcapture itself, so libclcapture.so, loaded into arbitrary
// applications, does not need libxxhash.so.0 on the machine it runs on.
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace clcapture::format {

namespace fs = std::filesystem;

namespace {

std::string hex64(unsigned long long v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", v);
  return buf;
}

Status writeAll(int fd, const void *bytes, std::size_t size, const fs::path &path) {
  const auto *p = static_cast<const char *>(bytes);
  while (size > 0) {
    ssize_t n = ::write(fd, p, size);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return fail("cannot write " + path.string() + ": " + std::strerror(errno));
    }
    p += n;
    size -= static_cast<std::size_t>(n);
  }
  return {};
}

} // namespace

std::string contentHash128(const void *bytes, std::size_t size) {
  XXH128_hash_t h = XXH3_128bits(bytes, size);
  return hex64(h.high64) + hex64(h.low64);
}

std::string contentHash64(const void *bytes, std::size_t size) {
  return hex64(XXH3_64bits(bytes, size));
}

std::string dataBlobName(const void *bytes, std::size_t size) {
  return "data/" + contentHash128(bytes, size) + ".bin";
}

bool parseHash128(std::string_view hex, std::uint64_t &high, std::uint64_t &low) {
  if (hex.size() != 32)
    return false;
  high = low = 0;
  for (std::size_t i = 0; i < 32; ++i) {
    char c = hex[i];
    unsigned digit;
    if (c >= '0' && c <= '9')
      digit = static_cast<unsigned>(c - '0');
    else if (c >= 'a' && c <= 'f')
      digit = static_cast<unsigned>(c - 'a' + 10);
    else
      return false;
    std::uint64_t &half = i < 16 ? high : low;
    half = (half << 4) | digit;
  }
  return true;
}

std::string kernelFileName(std::string_view entry, std::string_view source, std::string_view suffix) {
  std::string safe;
  for (char c : entry.substr(0, 64)) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    safe += ok ? c : '_';
  }
  if (safe.empty())
    safe = "kernel";
  return "kernels/" + safe + "-" + contentHash64(source.data(), source.size()) + std::string(suffix);
}

Status writeFileAtomically(const fs::path &path, const void *bytes, std::size_t size) {
  static std::atomic<unsigned> counter{0};
  fs::path tmp = path;
  tmp += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return fail("cannot create " + tmp.string() + ": " + std::strerror(errno));
  Status written = writeAll(fd, bytes, size, tmp);
  if (::close(fd) != 0 && written)
    written = fail("cannot write " + tmp.string() + ": " + std::strerror(errno));
  if (!written) {
    ::unlink(tmp.c_str());
    return written;
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    std::string message =
        "cannot rename " + tmp.string() + " to " + path.string() + ": " + std::strerror(errno);
    ::unlink(tmp.c_str());
    return fail(message);
  }
  return {};
}

Expected<bool> writeBlobOnce(const fs::path &root, const std::string &relativeName, const void *bytes,
                             std::size_t size) {
  fs::path full = root / relativeName;
  std::error_code ec;
  // Same name, same hash: the existing file already holds these bytes (unless it was cut short by hand).
  if (fs::is_regular_file(full, ec) && fs::file_size(full, ec) == size && !ec)
    return false;
  Status s = writeFileAtomically(full, bytes, size);
  if (!s)
    return fail(s.error());
  return true;
}

} // namespace clcapture::format
