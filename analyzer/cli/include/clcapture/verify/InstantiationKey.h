//===- InstantiationKey.h - When two instantiations are the same launch for the analysis -*- C++ -*-===//
//
// A program that launches one kernel in a loop records many identical instantiations (docs/contract.md §3);
// each is analysed once and its result copied. The key holds exactly what an analysis may read: the kernel
// source (its bytes, not its file name), language, endianness, compiler flags, entry point, sizes (a missing
// global_offset equals zeros), argument values, array sizes/spaces/flags and the bytes of their data files
// (by XXH3-128), and, from the sidecar, the facts that change the semantics (program origin, build
// options, enqueue function, device address bits, byte order and non-uniform work-group support, per
// argument kind/type/qualifier/flags/sub-buffer origin/SVM offset/why data was skipped, aliasing groups). It
// leaves out what only identifies a launch: launch number, thread, queue, program and memory-object ids, host
// call sites.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Instantiation.h"
#include "clcapture/format/Sidecar.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace clcapture::verify {

/// Content hashes of capture files, each file read once however many instantiations name it.
///
/// With a store file, hashes also outlive the run (verifying a 4.3 GB capture again must not read
/// it again). A stored hash is used only while the file's device, inode, size, modification and change
/// times (nanoseconds) are what they were when it was hashed, as git trusts its index; a file changed
/// within 2 s of its hashing is never stored (its next change could keep the same times). Each line
/// carries its own checksum: a damaged line is ignored and the file rewritten, never trusted.
class FileHashCache {
public:
  FileHashCache() = default;
  /// Files changed this recently may change again without a new time stamp (coarse file-system clocks).
  static constexpr std::int64_t kRacyNanoseconds = 2'000'000'000;

  /// Hashes stored in (and saved to) `store`; a missing or unreadable file starts empty. `racyNanoseconds`:
  /// how long after its last change a file's hash may be stored (tests use 0).
  explicit FileHashCache(std::filesystem::path store, std::int64_t racyNanoseconds = kRacyNanoseconds);

  /// XXH3-128 of the file's bytes, or "unreadable:<path>" (distinct per path) when it cannot be read.
  std::string hashOf(const std::filesystem::path &file);

  /// Writes the store (atomically) when this run hashed a file it did not hold; errors are ignored.
  void save();

  /// Files whose hash came from the store without reading them (for tests and the progress line).
  std::size_t reused() const { return m_reused; }

  /// The store file for the capture folder `captureDir` under the verdict cache folder.
  static std::filesystem::path storeFor(const std::filesystem::path &cacheFolder,
                                        const std::filesystem::path &captureDir);

private:
  struct Stamp {
    std::uint64_t device = 0, inode = 0, size = 0;
    std::int64_t modified = 0, changed = 0; ///< nanoseconds since the epoch
    bool operator==(const Stamp &o) const {
      return device == o.device && inode == o.inode && size == o.size && modified == o.modified &&
             changed == o.changed;
    }
  };
  struct Stored {
    Stamp stamp;
    std::string hash;
  };
  std::mutex m_mutex;
  std::map<std::string, std::string> m_hashes;
  std::optional<std::filesystem::path> m_store;
  std::map<std::string, Stored> m_stored;
  std::int64_t m_racy = kRacyNanoseconds;
  bool m_dirty = false;
  std::size_t m_reused = 0;
};

/// Equal keys ⇔ the analysis would see the same input (see the file comment).
std::string analysisKey(const format::Instantiation &inst, const format::LaunchFacts *facts,
                        const std::filesystem::path &captureDir, FileHashCache &hashes);

/// The analysis key without any value (scalar values, data bytes, why data was skipped, global and constant
/// buffers' sizes): equal shape keys ⇔ the launches differ at most in values (ParametricGroups.h).
std::string shapeKey(const format::Instantiation &inst, const format::LaunchFacts *facts,
                     const std::filesystem::path &captureDir, FileHashCache &hashes);

} // namespace clcapture::verify
