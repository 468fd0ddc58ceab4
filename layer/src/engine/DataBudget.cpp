//===- DataBudget.cpp - Whether a buffer's bytes may be captured -===//

#include "engine/DataBudget.h"

#include "clcapture/format/BlobPack.h"

#include <algorithm>

namespace clcapture::layer {

namespace fmt = clcapture::format;

void DataBudget::configure(const std::string &folder) {
  m_freeSpace.configure(folder, m_controls.minFree);
}

std::optional<std::string> DataBudget::refusal(std::uint64_t size) const {
  const CaptureControls &c = m_controls;
  if (!c.captureData)
    return "metadata-only mode (CLCAPTURE_DATA=none)";
  if (size > c.perBufferCap)
    return "larger than the per-buffer cap (CLCAPTURE_DATA=" + std::to_string(c.perBufferCap) + ")";
  return std::nullopt;
}

std::optional<std::string> DataBudget::take(std::uint64_t size) {
  const CaptureControls &c = m_controls;
  if (auto refused = refusal(size))
    return refused;
  if (size > c.totalBudget - std::min(m_taken, c.totalBudget))
    return "byte budget exhausted (CLCAPTURE_MAX_BYTES=" + std::to_string(c.totalBudget) +
           (c.totalBudget == CaptureControls::kDefaultTotalBudget ? ", the default" : "") + ")";
  // On disk a packed blob costs its pack record's head and checksum too (BlobPack.h); counted for every
  // blob that small, packed or not, so the estimate errs on the safe side.
  std::uint64_t onDisk = size + (size <= fmt::kPackMaxBlobBytes ? fmt::kPackRecordOverhead : 0);
  if (!m_freeSpace.take(onDisk))
    return "free-space floor: the capture folder's file system keeps " + std::to_string(m_freeSpace.floor()) +
           " bytes free (CLCAPTURE_MIN_FREE" + (c.minFree ? "" : ", by default 10 % or 2 GiB") + ")";
  m_taken += size;
  return std::nullopt;
}

} // namespace clcapture::layer
