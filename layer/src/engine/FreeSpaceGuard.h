//===- FreeSpaceGuard.h - Buffer bytes never fill the capture's file system -*- C++ -*-===//
//
// The safe default: the capture never takes the file system that holds the capture folder below a
// floor of free space — CLCAPTURE_MIN_FREE bytes, by default 10 % of its size or 2 GiB, whichever is larger.
// Before buffer bytes are read for a launch, take(n) says whether n more bytes still leave the floor free;
// when not, that buffer is metadata only (data_skipped says why) and the launch is still recorded.
// The free space is asked of the kernel (statvfs) at the first take and again after every 256 MiB taken, or
// when a take would cross the floor, so a launch costs no system call; what other processes write in between
// is seen at the next refresh. Bytes are counted before deduplication, so the estimate errs on the safe side.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace clcapture::layer {

class FreeSpaceGuard {
public:
  static constexpr std::uint64_t kDefaultFloorBytes = 2ull << 30; ///< 2 GiB
  static constexpr unsigned kDefaultFloorPercent = 10;
  static constexpr std::uint64_t kRefreshEvery = 256ull << 20;

  /// `minFree`: the floor in bytes (0: none); unset: the default. Nothing is checked before this is called.
  void configure(std::string folder, std::optional<std::uint64_t> minFree);
  /// Whether `bytes` more can be written while the floor stays free; when so, they are counted as written.
  bool take(std::uint64_t bytes);
  /// The floor in bytes (known after the first take).
  std::uint64_t floor() const { return m_floor; }

  /// The default floor of a file system of `total` bytes.
  static std::uint64_t defaultFloor(std::uint64_t total);

private:
  bool refresh();

  std::string m_folder;
  std::optional<std::uint64_t> m_minFree;
  bool m_configured = false;
  bool m_known = false;     ///< statvfs answered at least once
  bool m_unusable = false;  ///< statvfs never answered: no bytes are taken
  std::uint64_t m_free = 0; ///< bytes available to us, minus what was taken since the last refresh
  std::uint64_t m_floor = 0;
  std::uint64_t m_sinceRefresh = 0;
};

} // namespace clcapture::layer
