//===- RunStatus.h - What the layer saw in this process, for the launcher -*- C++ -*-===//
//
// The launcher cannot see inside the application: whether the ICD loader loaded the capture library at all,
// whether the application got platforms through it, how many launches the filters left out. When
// CLCAPTURE_STATUS_FILE names a file (the launcher sets it), the layer appends one line of JSON to it at
// process exit (one write(2) with O_APPEND, so the processes of one run never interleave):
//   {"pid":P,"front_end":"icd"|"layer","platforms":N,"launches":N,"filtered_kernels":N,"filtered_launches":N}
// platforms is the number the shim handed to the loader (-1 as a layer, where the loader lists them).
// Nothing is written when the variable is unset; a failure to write is ignored.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <atomic>
#include <cstdint>

namespace clcapture::layer {

class RunStatus {
public:
  static RunStatus &instance();

  void loadedAs(const char *frontEnd) noexcept;
  void platformsListed(std::uint64_t count) noexcept;
  void launchSeen() noexcept { m_launches.fetch_add(1, std::memory_order_relaxed); }
  void filteredByKernels() noexcept { m_filteredKernels.fetch_add(1, std::memory_order_relaxed); }
  void filteredByLaunchRange() noexcept { m_filteredLaunches.fetch_add(1, std::memory_order_relaxed); }

  /// Appends the line (also called at exit).
  void write() const noexcept;

private:
  RunStatus();
  std::atomic<const char *> m_frontEnd{"icd"};
  std::atomic<std::int64_t> m_platforms{-1};
  std::atomic<std::uint64_t> m_launches{0};
  std::atomic<std::uint64_t> m_filteredKernels{0};
  std::atomic<std::uint64_t> m_filteredLaunches{0};
};

} // namespace clcapture::layer
