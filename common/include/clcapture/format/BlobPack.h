//===- BlobPack.h - Append-only pack files of small blobs -*- C++ -*-===//
//
// one file per buffer snapshot costs a launch-heavy capture most of its time in the file system
// (creating an inode and a directory entry, write to a temporary, rename). Small blobs are therefore appended
// to pack files, DIR/data/pack-<pid>-<n>.pack, one record per blob, by one process only (its writer thread),
// each record with one write() on an O_APPEND descriptor. captures.json still names every blob
// "data/<hash128>.bin" (the GPUVerify format is unchanged); CaptureBlobs.h resolves such a name from a pack
// when no loose file has it.
//
// A pack, all integers little-endian:
//   header  "CLCPACK\0" (8 bytes), u32 version (kPackVersion)
//   record  "BLOB" (4 bytes), the 16 bytes of the blob's XXH3-128 (canonical, big-endian: the same digits as
//           its data/<hash128>.bin name), u64 size, `size` bytes, u64 XXH3-64 of everything before it in
//           the record (magic, hash, size and bytes)
// Crash safety: a process killed mid-append (even SIGKILL) leaves at most one incomplete record at the end;
// the captures.json record naming a blob is appended only after its record was written, so every launch in
// captures.json finds its bytes. A reader scans records in order and keeps every complete one whose checksum
// and content hash hold; it stops at the first incomplete record, and at a corrupt one unless the framing
// provably continues after it (then the corrupt record alone is skipped, with a warning).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Expected.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace clcapture::format {

/// Blobs up to this many bytes are packed; larger ones stay loose data/<hash>.bin files. A loose file costs
/// an inode, a directory entry and a rename (tens of µs on ext4, independent of size) plus up to a 4 KiB
/// block of slack; up to a few tens of KiB that fixed cost dominates the write of the bytes themselves.
/// Past 64 KiB the bytes dominate, and keeping large buffers loose lets GPUVerify read them unchanged and
/// keeps readers from copying big blobs out of a pack.
constexpr std::uint64_t kPackMaxBlobBytes = std::uint64_t{64} << 10;
/// A pack is closed and the next one started once it would grow past this: a lost or damaged pack loses
/// at most this much, and copying one (clcapture pack, unpack) never needs more.
constexpr std::uint64_t kPackRollOverBytes = std::uint64_t{256} << 20;
constexpr std::uint32_t kPackVersion = 1;
constexpr std::size_t kPackHeaderBytes = 12;     ///< magic and version
constexpr std::size_t kPackRecordHeadBytes = 28; ///< magic, hash, size
constexpr std::size_t kPackRecordOverhead = 36;  ///< head and checksum: a record's bytes beyond the blob's

/// Whether `fileName` (no folder) names a pack file: "*.pack".
bool isPackFileName(std::string_view fileName);
/// "data/<hash128>.bin" for 32 lower-case hex digits of a content hash.
std::string dataBlobNameForHash(std::string_view hash128);

/// One complete, trusted record of a pack.
struct PackedBlob {
  std::string hash;         ///< 32 lower-case hex digits (as in data/<hash>.bin)
  std::uint64_t offset = 0; ///< of the blob's first byte in the pack
  std::uint64_t size = 0;
};

/// What a scan found.
struct PackScan {
  std::vector<PackedBlob> blobs; ///< in file order
  /// Where the trusted part ends: after the last record kept or skipped (the header when there is none).
  std::uint64_t validBytes = 0;
  bool cut = false; ///< the pack ends inside a record (a kill mid-append, or copied short)
  /// Corrupt records skipped, where and why the scan stopped ("offset N: …").
  std::vector<std::string> warnings;
};

/// Reads `size` bytes at `offset` into `out`; false when they cannot be read.
using PackSource = std::function<bool(std::uint64_t offset, void *out, std::size_t size)>;

/// Scans a pack of `fileSize` bytes read through `read`.
PackScan scanBlobPack(std::uint64_t fileSize, const PackSource &read);
/// The same over bytes in memory.
PackScan scanBlobPack(std::string_view bytes);
/// The same over a file; fails only when the file cannot be opened.
Expected<PackScan> scanBlobPackFile(const std::filesystem::path &pack);

/// The bytes of one blob found by a scan of `pack`.
Expected<std::string> readPackedBlob(const std::filesystem::path &pack, const PackedBlob &blob);

/// A pack's header, and one record as the writer appends it (also what the tests build packs from).
std::string packHeader();
std::string packRecord(const void *bytes, std::size_t size);

/// Follows the packs other processes append to in one folder (a capture many processes write,
/// CaptureParts.h), as they grow: each record whose last byte is written, by its head alone (the hash), so
/// that a writer does not append bytes a concurrent process already stored. A record is reported once its
/// file holds all of it (a write copies its bytes before the file size passes them); a process killed
/// mid-append leaves a record short of its end, never reported.
class PackFollower {
public:
  /// Follows every pack in `dataDir` whose name does not start with `ownPrefix` (this process's packs).
  PackFollower(std::filesystem::path dataDir, std::string ownPrefix);
  /// Calls `seen(high, low)` (the record's XXH3-128 halves) for every record completed since the last call.
  void poll(const std::function<void(std::uint64_t high, std::uint64_t low)> &seen);

private:
  std::filesystem::path m_dataDir;
  std::string m_ownPrefix;
  std::map<std::string, std::uint64_t> m_next; ///< pack name → offset of its next record's head
};

/// Appends records to this process's packs in one folder. Not thread-safe: one writer thread owns it.
class BlobPackWriter {
public:
  /// Packs go into `dataDir` (which exists) as pack-<pid>-<n>.pack, n from 0, skipping names that exist.
  explicit BlobPackWriter(std::filesystem::path dataDir, std::uint64_t rollOverBytes = kPackRollOverBytes);
  ~BlobPackWriter();
  BlobPackWriter(const BlobPackWriter &) = delete;
  BlobPackWriter &operator=(const BlobPackWriter &) = delete;

  /// Appends one record (one writev; a short write is completed by more). After a failed write the pack is
  /// left as it is (readers stop at the damaged record) and the next append starts a new one.
  Status append(const void *bytes, std::size_t size);
  /// Bytes appended to packs so far, headers included.
  std::uint64_t bytesWritten() const { return m_written; }
  /// The pack being appended to (empty before the first append).
  const std::filesystem::path &currentPack() const { return m_path; }

private:
  Status openNext();
  void close();

  std::filesystem::path m_dataDir;
  std::uint64_t m_rollOver;
  int m_fd = -1;
  std::filesystem::path m_path;
  std::uint64_t m_size = 0; ///< of the open pack
  unsigned m_next = 0;      ///< the next <n> to try
  std::uint64_t m_written = 0;
};

} // namespace clcapture::format
