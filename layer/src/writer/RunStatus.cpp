//===- RunStatus.cpp - What the layer saw in this process, for the launcher -===//

#include "writer/RunStatus.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <unistd.h>

namespace clcapture::layer {

RunStatus &RunStatus::instance() {
  static RunStatus *status = new RunStatus(); // never destroyed: written from an exit handler
  return *status;
}

RunStatus::RunStatus() {
  if (const char *file = std::getenv("CLCAPTURE_STATUS_FILE"); file && *file)
    std::atexit([] { RunStatus::instance().write(); });
}

void RunStatus::loadedAs(const char *frontEnd) noexcept {
  m_frontEnd.store(frontEnd, std::memory_order_relaxed);
}

void RunStatus::platformsListed(std::uint64_t count) noexcept {
  m_platforms.store(static_cast<std::int64_t>(count), std::memory_order_relaxed);
}

void RunStatus::write() const noexcept {
  const char *file = std::getenv("CLCAPTURE_STATUS_FILE");
  if (!file || !*file)
    return;
  char line[256];
  int n = std::snprintf(
      line, sizeof line,
      "{\"pid\":%ld,\"front_end\":\"%s\",\"platforms\":%" PRId64 ",\"launches\":%" PRIu64
      ",\"filtered_kernels\":%" PRIu64 ",\"filtered_launches\":%" PRIu64 "}\n",
      static_cast<long>(::getpid()), m_frontEnd.load(std::memory_order_relaxed),
      m_platforms.load(std::memory_order_relaxed), m_launches.load(std::memory_order_relaxed),
      m_filteredKernels.load(std::memory_order_relaxed), m_filteredLaunches.load(std::memory_order_relaxed));
  if (n <= 0 || static_cast<std::size_t>(n) >= sizeof line)
    return;
  int fd = ::open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0)
    return;
  ssize_t written = ::write(fd, line, static_cast<std::size_t>(n));
  (void)written;
  ::close(fd);
}

} // namespace clcapture::layer
