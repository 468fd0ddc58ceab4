//===- VerdictCache.h - Results of earlier analyses, kept on disk -*- C++ -*-===//
//
// docs/contract.md §4 `--no-cache`: results are cached under $XDG_CACHE_HOME/clcapture/verdicts (else
// ~/.cache/clcapture/verdicts), keyed by everything that decides them, so that verifying the same capture
// again, its pack archive, or a second capture of the same application takes seconds.
//
// The key is the instantiation's analysis key (InstantiationKey.h: kernel source bytes, flags, sizes,
// argument values, data bytes, the sidecar facts that change semantics), the analysis's identity (the
// clcapture-verify executable's GNU build id, LLVM's and CVC5's versions, clcapture's version: any rebuild
// misses) and --strict. One file per key, named by its XXH3-128, written atomically (temporary + rename);
// the file repeats the whole key, and an entry whose key, format or contents do not match is ignored and
// rewritten, never trusted. The key is known before the analysis; the headers the program `#include`s are
// known only after compiling it, so an entry also lists each header the compilation read with the hash of
// its contents, and is reused only while every one of them still has that hash (a header changed in place
// misses). A compilation error is not stored: a header that was missing may be there next time. A result that
// ran out of time is reused only under a time limit no larger than the one it ran out of; a larger limit
// analyses again. The folder is kept under a size bound: after a run that added entries, the least recently
// used are removed beyond it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/report/AnalysisResult.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace clcapture::verify {

/// $XDG_CACHE_HOME/clcapture/verdicts, else $HOME/.cache/clcapture/verdicts; nullopt without either.
std::optional<std::filesystem::path> defaultCacheFolder();

/// The running executable's GNU build id in hex ("" when it has none).
std::string executableBuildId();

class VerdictCache {
public:
  /// The hash of a header's contents, as named by InstantiationResult::headersRead (FileHashCache's).
  using HeaderHash = std::function<std::string(const std::string &header)>;

  /// `identity`: what the analysis is (see the file comment); `headerHash`: how headers are checked;
  /// `maxBytes` bounds the folder.
  VerdictCache(std::filesystem::path folder, std::string identity, HeaderHash headerHash,
               std::uint64_t maxBytes = 256ull << 20);

  /// The cached result for `analysisKey` under these options, or nothing (absent, corrupt, another key,
  /// or a time limit that may now be enough). Index, kernel file and seconds are the caller's to set.
  std::optional<report::InstantiationResult> find(const std::string &analysisKey, bool strict,
                                                  double timeoutSeconds);

  /// Stores `result` (as the analysis returned it, finalized). Errors writing are ignored: the cache is
  /// an optimisation, never a reason to fail.
  void store(const std::string &analysisKey, bool strict, double timeoutSeconds,
             const report::InstantiationResult &result);

  /// Removes the least recently used entries while the folder holds more than maxBytes (only when this
  /// cache stored something).
  void prune();

  std::size_t hits() const { return m_hits; }
  std::size_t stored() const { return m_stored; }
  const std::filesystem::path &folder() const { return m_folder; }

private:
  std::string fullKey(const std::string &analysisKey, bool strict) const;
  std::filesystem::path entryPath(const std::string &fullKey) const;

  std::filesystem::path m_folder;
  std::string m_identity;
  HeaderHash m_headerHash;
  std::uint64_t m_maxBytes;
  std::atomic<std::size_t> m_hits{0};
  std::atomic<std::size_t> m_stored{0};
};

/// The result as the cache stores it, and back (nullopt for anything malformed). Exposed for tests.
std::string resultToJson(const report::InstantiationResult &result);
std::optional<report::InstantiationResult> resultFromJson(const std::string &text);

} // namespace clcapture::verify
