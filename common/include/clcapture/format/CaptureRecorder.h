//===- CaptureRecorder.h - Incremental, crash-safe capture folder writer -*- C++ -*-===//
//
// The layer appends one launch at a time. Order per launch: blobs (data, kernel source) first, then the
// sidecar entry, then the captures.json record, which is the commit point: whatever captures.json holds has
// its files and facts on disk. Each append is a single pwrite() that overwrites the closing bracket, so after
// SIGKILL the file is either complete or cut mid-record, and the reader recovers every record before the cut.
// No fsync: the page cache survives the death of the process; power loss is out of scope.
// A launch that repeats an earlier one's facts gets a short sidecar entry and no host_api_calls in
// captures.json (SidecarRepeats.h); readers expand both.
// With packSmallBlobs (the layer's default, CLCAPTURE_PACK), blobs up to kPackMaxBlobBytes are appended to
// this process's pack (BlobPack.h) instead of one file each; their names stay "data/<hash>.bin".
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/BlobPack.h"
#include "clcapture/format/BlobStore.h"
#include "clcapture/format/Expected.h"
#include "clcapture/format/Instantiation.h"
#include "clcapture/format/JsonArrayFile.h"
#include "clcapture/format/Sidecar.h"
#include "clcapture/format/SidecarRepeats.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <unordered_set>

namespace clcapture::format {

class CaptureRecorder {
public:
  enum class IfExists { Fail, Replace };

  /// Creates DIR (and DIR/data, DIR/kernels) and empty captures.json / captures.meta.json.
  static Expected<std::unique_ptr<CaptureRecorder>>
  create(const std::filesystem::path &dir, const SidecarHeader &header, IfExists ifExists = IfExists::Fail);

  /// One process's part of a capture many processes write (CaptureParts.h): creates DIR (and DIR/data,
  /// DIR/kernels) when needed and claims the first free part name for `pid` (captures.json, else
  /// captures-<pid>.json, ...) together with its sidecar, never touching another process's files.
  static Expected<std::unique_ptr<CaptureRecorder>>
  createPart(const std::filesystem::path &dir, const SidecarHeader &header, std::uint64_t pid);

  const std::filesystem::path &dir() const { return m_dir; }
  /// The captures file's name in dir(): "captures.json" or a part's name.
  const std::string &partName() const { return m_partName; }

  /// From now on, buffer bytes up to kPackMaxBlobBytes are appended to a pack in DIR/data instead of a file
  /// each (off by default: the layer turns it on). A packed blob is not appended again while the recorder
  /// remembers it: the last kRememberedBlobs distinct ones (blobs already in the folder included), so that a
  /// run of a million launches does not keep a million names (memory goal). A blob appended twice
  /// costs its bytes only: readers take the first record.
  void packSmallBlobs(bool on);
  static constexpr std::size_t kRememberedBlobs = std::size_t{1} << 16;
  /// Stores buffer bytes (once: identical bytes share one blob); returns the name to put in
  /// ArrayArgument::data or ArgumentFacts::dataAfter. Thread-safe.
  Expected<std::string> putData(const void *bytes, std::size_t size);
  /// Stores a program source; returns the name to put in Instantiation::kernelFile.
  Expected<std::string> putKernelSource(std::string_view entry, std::string_view source,
                                        std::string_view suffix = ".cl");

  /// Appends one launch. `inst` gets the next instantiation index, which is also written into facts.
  /// captures.json gets the instantiation's GPUVerify form and the sidecar entry the exact values that form
  /// leaves out (GpuVerifyForm.h). The form is validated first; an invalid one is not written.
  Expected<std::uint64_t> append(const Instantiation &inst, LaunchFacts facts);
  /// Records a launch that has no instantiation (e.g. a program built from IL), with the reason.
  Status appendNotCaptured(LaunchFacts facts, const std::string &reason);

  std::uint64_t instantiationCount() const;
  /// True after a write failed (disk full, folder gone): every later append fails too. A refused
  /// instantiation (invalid launch facts) does not count: the recorder stays usable.
  bool broken() const { return !m_failure.empty(); }

private:
  CaptureRecorder(std::filesystem::path dir, std::string partName, std::unique_ptr<JsonArrayFile> captures,
                  std::unique_ptr<JsonArrayFile> sidecar);

  std::filesystem::path m_dir;
  std::string m_partName;
  mutable std::mutex m_mutex;
  std::unique_ptr<JsonArrayFile> m_captures;
  std::unique_ptr<JsonArrayFile> m_sidecar;
  std::uint64_t m_next = 0;
  std::mutex m_packMutex;                 ///< guards m_pack and m_stored
  std::unique_ptr<BlobPackWriter> m_pack; ///< set while small blobs are packed
  /// Content hashes (XXH3-128, high and low halves) of packed blobs known to be in the folder, while
  /// packing; cleared when it reaches kRememberedBlobs (~3 MiB).
  struct HashHalves {
    std::uint64_t high, low;
    bool operator==(const HashHalves &o) const { return high == o.high && low == o.low; }
  };
  struct HashOfHalves {
    std::size_t operator()(const HashHalves &h) const { return static_cast<std::size_t>(h.low); }
  };
  std::unordered_set<HashHalves, HashOfHalves> m_stored;
  /// The packs other processes of the capture append to: on a blob not yet known, their records completed
  /// since the last look are learnt (at most every kFollowInterval), so bytes stored by one are stored once.
  std::unique_ptr<PackFollower> m_follower;
  std::chrono::steady_clock::time_point m_lastFollow{};
  static constexpr std::chrono::milliseconds kFollowInterval{20};
  bool knownElsewhereLocked(const HashHalves &h);
  void rememberLocked(const std::string &name);
  SidecarRepeats m_repeats; ///< sidecar entries that repeat an earlier launch say only what differs
  std::string m_failure;    ///< set by the first failed write; every later append fails with it
};

} // namespace clcapture::format
