//===- CaptureBlobs.h - The files a capture names, loose or packed -*- C++ -*-===//
//
// captures.json and the sidecar name buffer contents "data/<hash128>.bin" (docs/contract.md §3). Such a blob
// is either that loose file or a record in one of the folder's packs (BlobPack.h). Every reader of a
// capture's files goes through here: the loose file first (a folder after `clcapture unpack`, a blob larger
// than kPackMaxBlobBytes, a capture written without packs), else the packs' index, built once per folder on
// first need and rebuilt only when a name is missing from it and the packs changed since (a capture still
// being written). Any other name (kernels/…) is a loose file only.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/BlobPack.h"
#include "clcapture/format/Expected.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace clcapture::format {

class CaptureBlobs {
public:
  /// The resolver of `folder`, shared by everything in this process that reads that folder.
  static CaptureBlobs &of(const std::filesystem::path &folder);

  explicit CaptureBlobs(std::filesystem::path folder);

  const std::filesystem::path &folder() const { return m_folder; }

  /// The size of `relative` ("data/<hash>.bin", "kernels/…"): the loose file's, else the packed blob's;
  /// nullopt when neither exists. (Paths are not checked here: CapturePath.h does that.)
  std::optional<std::uint64_t> size(std::string_view relative);
  /// Whether `relative` exists as a loose file or a packed blob.
  bool exists(std::string_view relative) { return size(relative).has_value(); }
  /// The bytes of `relative`; the error names the file and says it is in neither place.
  Expected<std::string> read(std::string_view relative);

  /// Where a packed blob lives.
  struct Location {
    std::filesystem::path pack;
    PackedBlob blob;
  };
  /// Where `relative` lives in the folder's packs (whether or not a loose file has it too).
  std::optional<Location> packed(std::string_view relative);
  /// Why the pack holding a blob may not be used (it resolves outside the folder, CapturePath.h), or
  /// nullopt; asked of the file system once per pack.
  std::optional<std::string> packProblem(const Location &where);
  /// Every blob of the folder's packs (the first record of each hash), sorted by name.
  std::vector<std::pair<std::string, Location>> packedBlobs();
  /// The folder's pack files, sorted.
  std::vector<std::filesystem::path> packFiles();
  /// What the scans of the packs warned about (damaged records): the pack and the message.
  std::vector<std::pair<std::filesystem::path, std::string>> warnings();

private:
  /// One pack as last scanned.
  struct PackState {
    std::uint64_t size = 0;
  };
  /// Rescans the packs when their set or sizes changed since the last scan; m_mutex held.
  void refreshLocked();
  std::optional<Location> findPackedLocked(std::string_view relative);

  std::filesystem::path m_folder;
  std::mutex m_mutex;
  bool m_scanned = false;
  /// data/'s modification time (seconds, nanoseconds) at the last listing.
  std::pair<std::int64_t, std::int64_t> m_dataDirTime{-1, -1};
  bool m_listingSettled = false; ///< that listing was made over a second after data/ last changed
  std::map<std::filesystem::path, PackState> m_packs;
  std::vector<std::filesystem::path> m_packList; ///< m_packs' paths, in order: what Entry::pack indexes
  /// A blob's content hash (XXH3-128 halves) and where its record is: 44 bytes a blob, so the index of a
  /// million-launch capture stays small.
  struct Key {
    std::uint64_t high, low;
    bool operator==(const Key &o) const { return high == o.high && low == o.low; }
  };
  struct KeyHash {
    std::size_t operator()(const Key &k) const { return static_cast<std::size_t>(k.low ^ (k.high >> 7)); }
  };
  struct Entry {
    std::uint32_t pack;
    std::uint64_t offset, size;
  };
  std::unordered_map<Key, Entry, KeyHash> m_index; ///< the first record of each hash
  std::vector<std::pair<std::filesystem::path, std::string>> m_warnings;
  std::map<std::filesystem::path, std::optional<std::string>> m_packProblems; ///< packProblem's answers
};

/// Reads a capture file by its full path: the loose file, else, for FOLDER/data/<hash>.bin, the blob from
/// FOLDER's packs. For code that holds joined paths (the analyzer's launch model, replay, export).
Expected<std::string> readCaptureFile(const std::filesystem::path &path);
/// The size of a capture file by its full path (loose, else packed); nullopt when it is in neither place.
std::optional<std::uint64_t> captureFileSize(const std::filesystem::path &path);

/// `clcapture unpack`: writes every packed blob of `folder` that has no loose file as data/<hash>.bin, then
/// removes the packs, so that tools reading the folder's files directly (GPUVerify) find every blob.
/// Returns the number of files written.
Expected<std::uint64_t> unpackBlobs(const std::filesystem::path &folder);

} // namespace clcapture::format
