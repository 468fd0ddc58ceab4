//===- CaptureControls.h - CLCAPTURE_* settings (docs/contract.md §2) -------*- C++ -*-===//
//
// Read once from the environment. A malformed value is reported by name and turns capture off: guessing
// what the user meant could record the wrong launches or fill the disk.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <optional>
#include <regex>
#include <string>

namespace clcapture::layer {

struct CaptureControls {
  std::optional<std::regex> kernels; ///< CLCAPTURE_KERNELS: capture launches of matching kernel names only
  std::string kernelsText;           ///< the pattern as given, for messages
  std::uint64_t firstLaunch = 0;     ///< CLCAPTURE_LAUNCHES=A-B (inclusive; "A-" open-ended; "N" one launch)
  std::uint64_t lastLaunch = UINT64_MAX;
  bool captureData = true;                 ///< CLCAPTURE_DATA=none: metadata only
  std::uint64_t perBufferCap = UINT64_MAX; ///< CLCAPTURE_DATA=BYTES: larger buffers are metadata only
  /// CLCAPTURE_MAX_BYTES: buffer bytes read over the run; past it, metadata only. Default 4 GiB (a safe
  /// default: one application once wrote 74 GB unbounded); `unlimited` lifts it.
  static constexpr std::uint64_t kDefaultTotalBudget = 4ull << 30;
  std::uint64_t totalBudget = kDefaultTotalBudget;
  /// CLCAPTURE_MIN_FREE: bytes the capture leaves free on its file system (FreeSpaceGuard.h); unset: 10 % or
  /// 2 GiB, whichever is larger; 0 or `off`: no floor.
  std::optional<std::uint64_t> minFree;
  /// CLCAPTURE_DATA_PER_SHAPE: buffer bytes for the first N launches of each launch shape (ShapeQuota.h);
  /// UINT64_MAX (`all`): every launch.
  std::uint64_t dataPerShape = 64;
  bool callSites = true; ///< CLCAPTURE_CALL_SITES=off: no host_api_calls, no stack walks
  /// CLCAPTURE_DATA_AFTER=on: also the bytes of the buffers each launch may write, once it completed (sidecar
  /// data_after), for replay comparison.
  bool dataAfter = false;
  /// CLCAPTURE_PACK=off: every blob a loose data/<hash>.bin file, as GPUVerify's loader reads them; on (the
  /// default): blobs up to kPackMaxBlobBytes appended to the process's pack (BlobPack.h).
  bool pack = true;
  std::string error; ///< non-empty: the settings are unusable, capture is off
  /// CLCAPTURE_STORE: the program store's folder (ProgramStore.h); empty: the default (defaultStoreFolder),
  /// nothing at all when CLCAPTURE_STORE=off or there is no default.
  std::optional<std::string> storeFolder = std::string();

  bool wantsLaunch(std::uint64_t launch, const std::string &kernel) const;
  /// CLCAPTURE_LAUNCHES only.
  bool inLaunchRange(std::uint64_t launch) const { return launch >= firstLaunch && launch <= lastLaunch; }
  /// Whether launches of `kernel` can be captured at all (CLCAPTURE_KERNELS only).
  bool wantsKernel(const std::string &kernel) const;
};

/// Parses the settings from explicit values (nullptr: unset); the environment version calls this.
CaptureControls parseControls(const char *kernels, const char *launches, const char *data,
                              const char *maxBytes, const char *callSites = nullptr,
                              const char *store = nullptr, const char *minFree = nullptr,
                              const char *dataAfter = nullptr, const char *dataPerShape = nullptr,
                              const char *pack = nullptr);
/// The program store's default folder: $XDG_CACHE_HOME/clcapture/programs (an absolute XDG_CACHE_HOME only,
/// as the XDG base-directory spec says), else $HOME/.cache/clcapture/programs; nothing without either.
std::optional<std::string> defaultStoreFolder(const char *xdgCacheHome, const char *home);
CaptureControls controlsFromEnvironment();

} // namespace clcapture::layer
