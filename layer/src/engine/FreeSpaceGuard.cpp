//===- FreeSpaceGuard.cpp - Buffer bytes never fill the capture's file system -===//

#include "engine/FreeSpaceGuard.h"

#include "process/Log.h"

#include <algorithm>
#include <sys/statvfs.h>

namespace clcapture::layer {

void FreeSpaceGuard::configure(std::string folder, std::optional<std::uint64_t> minFree) {
  m_folder = std::move(folder);
  m_minFree = minFree;
  m_configured = true;
  m_known = false;
}

std::uint64_t FreeSpaceGuard::defaultFloor(std::uint64_t total) {
  return std::max(total / 100 * kDefaultFloorPercent, kDefaultFloorBytes);
}

bool FreeSpaceGuard::refresh() {
  struct statvfs fs {};
  if (::statvfs(m_folder.c_str(), &fs) != 0)
    return false;
  std::uint64_t unit = fs.f_frsize ? fs.f_frsize : fs.f_bsize;
  std::uint64_t total = static_cast<std::uint64_t>(fs.f_blocks) * unit;
  m_free = static_cast<std::uint64_t>(fs.f_bavail) * unit;
  m_floor = m_minFree ? *m_minFree : defaultFloor(total);
  m_sinceRefresh = 0;
  m_known = true;
  return true;
}

bool FreeSpaceGuard::take(std::uint64_t bytes) {
  if (!m_configured || (m_minFree && *m_minFree == 0))
    return true;
  if (m_unusable)
    return false;
  if (!m_known || m_sinceRefresh >= kRefreshEvery) {
    if (!refresh() && !m_known) {
      // No answer at all (an exotic file system): the floor cannot be kept, so no bytes are taken.
      log(LogLevel::Warning,
          "cannot ask the free space of " + m_folder +
              "; buffer contents are not captured (CLCAPTURE_MIN_FREE=0 turns the check off)");
      m_unusable = true;
      return false;
    }
  }
  auto fits = [&] { return m_free >= bytes && m_free - bytes >= m_floor; };
  if (!fits() && m_sinceRefresh > 0)
    refresh(); // space may have been freed, or dedup wrote less than counted
  if (!fits())
    return false;
  m_free -= bytes;
  m_sinceRefresh += bytes;
  return true;
}

} // namespace clcapture::layer
