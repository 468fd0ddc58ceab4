//===- BlobPack.cpp - Append-only pack files of small blobs -------------===//

#include "clcapture/format/BlobPack.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
// As in BlobStore.cpp: xxHash compiled in, so libclcapture.so needs no libxxhash.so.0.
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace clcapture::format {

namespace fs = std::filesystem;

namespace {

constexpr char kPackMagic[8] = {'C', 'L', 'C', 'P', 'A', 'C', 'K', '\0'};
constexpr char kRecordMagic[4] = {'B', 'L', 'O', 'B'};
/// Bytes hashed per read while a record is checked.
constexpr std::size_t kScanChunk = std::size_t{1} << 20;

void putU32(char *out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i)
    out[i] = static_cast<char>((v >> (8 * i)) & 0xff);
}
void putU64(char *out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i)
    out[i] = static_cast<char>((v >> (8 * i)) & 0xff);
}
std::uint32_t getU32(const unsigned char *in) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i)
    v = (v << 8) | in[i];
  return v;
}
std::uint64_t getU64(const unsigned char *in) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i)
    v = (v << 8) | in[i];
  return v;
}

std::string hexOf(const unsigned char *bytes, std::size_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  s.reserve(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    s += digits[bytes[i] >> 4];
    s += digits[bytes[i] & 0xf];
  }
  return s;
}

/// A record's head: magic, the canonical XXH3-128 of the bytes, the size.
void recordHead(char (&head)[kPackRecordHeadBytes], const void *bytes, std::size_t size) {
  std::memcpy(head, kRecordMagic, 4);
  XXH128_canonical_t canonical;
  XXH128_canonicalFromHash(&canonical, XXH3_128bits(bytes, size));
  std::memcpy(head + 4, canonical.digest, 16);
  putU64(head + 20, size);
}

std::uint64_t recordChecksum(const char (&head)[kPackRecordHeadBytes], const void *bytes, std::size_t size) {
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  XXH3_64bits_update(&state, head, sizeof head);
  XXH3_64bits_update(&state, bytes, size);
  return XXH3_64bits_digest(&state);
}

enum class RecordCheck { Complete, Incomplete, BadMagic, Unreadable, Corrupt };

struct RecordAt {
  RecordCheck check = RecordCheck::Incomplete;
  PackedBlob blob;
  std::uint64_t end = 0; ///< offset after the record (after its checksum), from its size field
  std::string why;       ///< for Corrupt
};

/// Reads and checks the record at `offset`: its head, its bytes against the content hash, its checksum.
RecordAt checkRecord(std::uint64_t fileSize, const PackSource &read, std::uint64_t offset) {
  RecordAt r;
  if (fileSize - offset < kPackRecordHeadBytes)
    return r; // Incomplete
  unsigned char head[kPackRecordHeadBytes];
  if (!read(offset, head, sizeof head)) {
    r.check = RecordCheck::Unreadable;
    return r;
  }
  if (std::memcmp(head, kRecordMagic, 4) != 0) {
    r.check = RecordCheck::BadMagic;
    return r;
  }
  std::uint64_t size = getU64(head + 20);
  std::uint64_t left = fileSize - offset - kPackRecordHeadBytes;
  if (left < 8 || size > left - 8)
    return r; // Incomplete (or a size field damaged past the end: nothing after it can be framed)
  r.end = offset + kPackRecordHeadBytes + size + 8;
  r.blob.hash = hexOf(head + 4, 16);
  r.blob.offset = offset + kPackRecordHeadBytes;
  r.blob.size = size;

  XXH3_state_t sum, content;
  XXH3_64bits_reset(&sum);
  XXH3_128bits_reset(&content);
  XXH3_64bits_update(&sum, head, sizeof head);
  std::vector<unsigned char> chunk(static_cast<std::size_t>(std::min<std::uint64_t>(size, kScanChunk)));
  for (std::uint64_t done = 0; done < size;) {
    auto n = static_cast<std::size_t>(std::min<std::uint64_t>(size - done, chunk.size()));
    if (!read(r.blob.offset + done, chunk.data(), n)) {
      r.check = RecordCheck::Unreadable;
      return r;
    }
    XXH3_64bits_update(&sum, chunk.data(), n);
    XXH3_128bits_update(&content, chunk.data(), n);
    done += n;
  }
  unsigned char stored[8];
  if (!read(r.end - 8, stored, sizeof stored)) {
    r.check = RecordCheck::Unreadable;
    return r;
  }
  if (getU64(stored) != XXH3_64bits_digest(&sum)) {
    r.check = RecordCheck::Corrupt;
    r.why = "its checksum does not match";
    return r;
  }
  XXH128_canonical_t canonical;
  XXH128_canonicalFromHash(&canonical, XXH3_128bits_digest(&content));
  if (std::memcmp(canonical.digest, head + 4, 16) != 0) {
    r.check = RecordCheck::Corrupt;
    r.why = "its bytes do not have the content hash it names";
    return r;
  }
  r.check = RecordCheck::Complete;
  return r;
}

std::string at(std::uint64_t offset) {
  return "offset " + std::to_string(offset) + ": ";
}

} // namespace

bool isPackFileName(std::string_view fileName) {
  constexpr std::string_view suffix = ".pack";
  return fileName.size() > suffix.size() && fileName.substr(fileName.size() - suffix.size()) == suffix;
}

std::string dataBlobNameForHash(std::string_view hash128) {
  return "data/" + std::string(hash128) + ".bin";
}

std::string packHeader() {
  std::string header(kPackHeaderBytes, '\0');
  std::memcpy(header.data(), kPackMagic, sizeof kPackMagic);
  putU32(header.data() + 8, kPackVersion);
  return header;
}

std::string packRecord(const void *bytes, std::size_t size) {
  char head[kPackRecordHeadBytes];
  recordHead(head, bytes, size);
  char sum[8];
  putU64(sum, recordChecksum(head, bytes, size));
  std::string record(head, sizeof head);
  record.append(static_cast<const char *>(bytes), size);
  record.append(sum, sizeof sum);
  return record;
}

PackScan scanBlobPack(std::uint64_t fileSize, const PackSource &read) {
  PackScan scan;
  if (fileSize < kPackHeaderBytes) {
    // Created, killed before its header was written: nothing in it.
    scan.cut = fileSize > 0;
    return scan;
  }
  unsigned char header[kPackHeaderBytes];
  if (!read(0, header, sizeof header)) {
    scan.warnings.push_back("cannot read the pack header");
    return scan;
  }
  if (std::memcmp(header, kPackMagic, sizeof kPackMagic) != 0) {
    scan.warnings.push_back("not a clcapture pack (no CLCPACK header); ignored");
    return scan;
  }
  if (std::uint32_t version = getU32(header + 8); version != kPackVersion) {
    scan.warnings.push_back("pack version " + std::to_string(version) + " (this clcapture reads " +
                            std::to_string(kPackVersion) + "); ignored");
    return scan;
  }
  std::uint64_t offset = kPackHeaderBytes;
  scan.validBytes = offset;
  while (offset < fileSize) {
    RecordAt r = checkRecord(fileSize, read, offset);
    if (r.check == RecordCheck::Complete) {
      scan.blobs.push_back(std::move(r.blob));
      offset = scan.validBytes = r.end;
      continue;
    }
    if (r.check == RecordCheck::Incomplete) {
      scan.cut = true;
      break;
    }
    if (r.check == RecordCheck::Unreadable) {
      scan.warnings.push_back(at(offset) + "cannot read the record; the records after it are lost");
      break;
    }
    if (r.check == RecordCheck::BadMagic) {
      scan.warnings.push_back(at(offset) +
                              "no record starts here (damaged pack); the bytes after it are ignored");
      break;
    }
    // Corrupt: its size field may be the damaged part, so the next record's position is trusted only when a
    // complete, intact record starts there (or the file ends there).
    RecordAt next;
    if (r.end < fileSize)
      next = checkRecord(fileSize, read, r.end);
    if (r.end == fileSize || next.check == RecordCheck::Complete) {
      scan.warnings.push_back(at(offset) + "record of blob " + r.blob.hash + " skipped: " + r.why);
      offset = scan.validBytes = r.end;
      continue;
    }
    scan.warnings.push_back(at(offset) + "record of blob " + r.blob.hash + " is damaged (" + r.why +
                            ") and no intact record follows it; the bytes after it are ignored");
    break;
  }
  return scan;
}

PackScan scanBlobPack(std::string_view bytes) {
  PackSource read = [bytes](std::uint64_t offset, void *out, std::size_t size) {
    if (offset > bytes.size() || size > bytes.size() - offset)
      return false;
    std::memcpy(out, bytes.data() + offset, size);
    return true;
  };
  return scanBlobPack(bytes.size(), read);
}

namespace {

bool preadAll(int fd, std::uint64_t offset, void *out, std::size_t size) {
  auto *p = static_cast<char *>(out);
  while (size > 0) {
    ssize_t n = ::pread(fd, p, size, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    p += n;
    offset += static_cast<std::uint64_t>(n);
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

/// An open file, closed on every path.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0)
      ::close(fd);
  }
};

} // namespace

Expected<PackScan> scanBlobPackFile(const fs::path &pack) {
  Fd f{::open(pack.c_str(), O_RDONLY | O_CLOEXEC)};
  struct stat st {};
  if (f.fd < 0 || ::fstat(f.fd, &st) != 0)
    return fail("cannot read " + pack.string() + ": " + std::strerror(errno));
  PackSource read = [&f](std::uint64_t offset, void *out, std::size_t size) {
    return preadAll(f.fd, offset, out, size);
  };
  return scanBlobPack(static_cast<std::uint64_t>(st.st_size), read);
}

Expected<std::string> readPackedBlob(const fs::path &pack, const PackedBlob &blob) {
  Fd f{::open(pack.c_str(), O_RDONLY | O_CLOEXEC)};
  if (f.fd < 0)
    return fail("cannot read " + pack.string() + ": " + std::strerror(errno));
  std::string bytes(static_cast<std::size_t>(blob.size), '\0');
  if (!preadAll(f.fd, blob.offset, bytes.data(), bytes.size()))
    return fail("cannot read blob " + blob.hash + " from " + pack.string() + " (offset " +
                std::to_string(blob.offset) + ", " + std::to_string(blob.size) + " bytes)");
  return bytes;
}

//===--- the writer -------------------------------------------------------===//

BlobPackWriter::BlobPackWriter(fs::path dataDir, std::uint64_t rollOverBytes)
    : m_dataDir(std::move(dataDir)), m_rollOver(rollOverBytes) {}

BlobPackWriter::~BlobPackWriter() {
  close();
}

void BlobPackWriter::close() {
  if (m_fd >= 0)
    ::close(m_fd);
  m_fd = -1;
}

Status BlobPackWriter::openNext() {
  close();
  const std::string header = packHeader();
  for (int attempts = 0; attempts < 1000; ++attempts) {
    fs::path path =
        m_dataDir / ("pack-" + std::to_string(::getpid()) + "-" + std::to_string(m_next++) + ".pack");
    // O_EXCL: never append to a pack another process (or an earlier run in this folder) owns.
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0 && errno == EEXIST)
      continue;
    if (fd < 0)
      return fail("cannot create " + path.string() + ": " + std::strerror(errno));
    ssize_t n = ::write(fd, header.data(), header.size());
    if (n != static_cast<ssize_t>(header.size())) {
      std::string why = n < 0 ? std::strerror(errno) : "short write";
      ::close(fd);
      return fail("cannot write " + path.string() + ": " + why);
    }
    m_fd = fd;
    m_path = std::move(path);
    m_size = header.size();
    m_written += header.size();
    return {};
  }
  return fail("cannot create a pack in " + m_dataDir.string() + ": 1000 names taken");
}

Status BlobPackWriter::append(const void *bytes, std::size_t size) {
  const std::uint64_t recordBytes = kPackRecordOverhead + size;
  if (m_fd >= 0 && m_size > kPackHeaderBytes && m_size + recordBytes > m_rollOver)
    close();
  if (m_fd < 0)
    if (Status s = openNext(); !s)
      return s;
  char head[kPackRecordHeadBytes];
  recordHead(head, bytes, size);
  char sum[8];
  putU64(sum, recordChecksum(head, bytes, size));
  iovec parts[3] = {{head, sizeof head}, {const_cast<void *>(bytes), size}, {sum, sizeof sum}};
  iovec *iov = parts;
  int count = 3;
  std::uint64_t left = recordBytes;
  while (left > 0) {
    ssize_t n = ::writev(m_fd, iov, count);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      std::string message =
          "cannot append to " + m_path.string() + ": " + (n < 0 ? std::strerror(errno) : "no progress");
      // The damaged record ends this pack for readers; later records go to a new one.
      close();
      return fail(message);
    }
    auto done = static_cast<std::size_t>(n);
    left -= done;
    m_size += done;
    m_written += done;
    while (count > 0 && done >= iov->iov_len) {
      done -= iov->iov_len;
      ++iov;
      --count;
    }
    if (count > 0) {
      iov->iov_base = static_cast<char *>(iov->iov_base) + done;
      iov->iov_len -= done;
    }
  }
  return {};
}

PackFollower::PackFollower(fs::path dataDir, std::string ownPrefix)
    : m_dataDir(std::move(dataDir)), m_ownPrefix(std::move(ownPrefix)) {}

void PackFollower::poll(const std::function<void(std::uint64_t, std::uint64_t)> &seen) {
  std::error_code ec;
  for (fs::directory_iterator it(m_dataDir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (!isPackFileName(name) || name.compare(0, m_ownPrefix.size(), m_ownPrefix) == 0)
      continue;
    std::uint64_t &next = m_next.try_emplace(name, kPackHeaderBytes).first->second;
    if (next == UINT64_MAX)
      continue; // not a pack this version reads
    int fd = ::open(it->path().c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      continue;
    struct stat st {};
    if (::fstat(fd, &st) == 0)
      for (auto fileSize = static_cast<std::uint64_t>(st.st_size); next + kPackRecordHeadBytes <= fileSize;) {
        unsigned char head[kPackRecordHeadBytes];
        if (::pread(fd, head, sizeof head, static_cast<off_t>(next)) != static_cast<ssize_t>(sizeof head))
          break;
        if (std::memcmp(head, kRecordMagic, 4) != 0) {
          next = UINT64_MAX;
          break;
        }
        std::uint64_t size = getU64(head + 20);
        if (size > fileSize || next + kPackRecordOverhead + size > fileSize)
          break; // not all written yet (or cut short for good)
        std::uint64_t high = 0, low = 0;
        for (int i = 0; i < 8; ++i) {
          high = (high << 8) | head[4 + i];
          low = (low << 8) | head[12 + i];
        }
        seen(high, low);
        next += kPackRecordOverhead + size;
      }
    ::close(fd);
  }
}

} // namespace clcapture::format
