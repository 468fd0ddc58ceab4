//===- CacheFolder.h - A cache folder kept under a size bound, least recently used out first -*- C++ -*-===//
//
// The tools keep caches on disk that must not grow without bound: clcapture-verify's verdicts
// (VerdictCache.h, one file per key under two-digit subfolders) and the layer's program store
// (ProgramStore.h, `<key>.prog` files). Each entry's modification time is its last use (a hit refreshes
// it); pruning removes the least recently used entries (oldest time first, ties by path) while the folder is
// over its bound. Written once here for both; the layer links it, so it uses nothing beyond std::filesystem.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace clcapture::format {

/// Which files of a cache folder are entries, and the bound they are kept under.
struct CachePruning {
  /// The folder is pruned only when its entries hold more than this many bytes…
  std::uint64_t maxBytes = 0;
  /// …and then entries are removed until they hold at most this many (at most maxBytes; lower leaves room,
  /// so that the next write does not prune again at once).
  std::uint64_t targetBytes = 0;
  /// Entries in subfolders too.
  bool recursive = false;
  /// Only regular files whose names end with this are entries; empty: every regular file.
  std::string suffix;
  /// The file name of an entry that counts toward the bound but is never removed (the one just written).
  std::string keep;
  /// When set, writeFileAtomically's temporaries (".tmp-" in the name) are not entries, and those older
  /// than this (left by a process that died between write and rename) are removed.
  std::optional<std::chrono::seconds> staleTemporaries;
};

struct PruneOutcome {
  bool overBound = false;      ///< the entries held more than maxBytes, so some were removed (or tried)
  std::size_t removed = 0;     ///< entries removed
  std::uint64_t bytesLeft = 0; ///< what the entries hold now
};

/// Removes the least recently used entries of `folder` while they hold more than `how.targetBytes`, if they
/// hold more than `how.maxBytes`. Errors (an unreadable folder, an entry that cannot be removed) are passed
/// over: a cache is an optimisation. Never throws for file-system errors.
PruneOutcome pruneCacheFolder(const std::filesystem::path &folder, const CachePruning &how);

} // namespace clcapture::format
