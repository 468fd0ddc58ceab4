//===- DataBudget.h - Whether a buffer's bytes may be captured -*- C++ -*-===//
//
// Safe defaults for data (docs/contract.md §2): buffer bytes are taken only while CLCAPTURE_DATA allows them
// (none, or a per-buffer cap), the total stays within CLCAPTURE_MAX_BYTES (4 GiB by default) and the capture
// folder's file system keeps its free-space floor (FreeSpaceGuard.h). A buffer refused is metadata only,
// with the reason in the sidecar's data_skipped; the launch is still recorded. Guarded by the engine's lock.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/FreeSpaceGuard.h"
#include "process/CaptureControls.h"

#include <cstdint>
#include <optional>
#include <string>

namespace clcapture::layer {

class DataBudget {
public:
  explicit DataBudget(const CaptureControls &controls) : m_controls(controls) {}

  /// The capture folder is known: its file system's free space is what the floor protects.
  void configure(const std::string &folder);

  /// Takes `size` bytes and answers empty when they may be captured; else why not (nothing taken).
  std::optional<std::string> take(std::uint64_t size);
  /// Whether `size` bytes already stored may be recorded again (CLCAPTURE_DATA only: they cost no space).
  std::optional<std::string> refusal(std::uint64_t size) const;

private:
  const CaptureControls &m_controls;
  std::uint64_t m_taken = 0; ///< buffer bytes captured so far, against CLCAPTURE_MAX_BYTES
  FreeSpaceGuard m_freeSpace;
};

} // namespace clcapture::layer
