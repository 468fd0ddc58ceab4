//===- PackSelection.h - What of a capture goes into a bug-report archive -*- C++ -*-===//
//
// The selected instantiations (`--only`, renumbered from 0) with their kernels and data only, the sidecar's
// entries for them (instantiation indices renumbered; launches that were never instantiations are kept when
// everything is selected, since they say what the capture lacks), buffer bytes by the `--data` policy, and
// host paths cut to base names on request. Everything goes through common/'s reader and writer.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/archive/ArchiveWriter.h"
#include "clcapture/format/CaptureReader.h"
#include "clcapture/format/Expected.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

namespace clcapture::pack {

struct PackPolicy {
  std::optional<std::vector<std::size_t>> only; ///< captures.json indices; absent: all
  std::vector<std::uint64_t> onlyProcesses;     ///< --only pid=N: every launch of those processes' parts
  bool data = true;                             ///< --data none: no buffer bytes at all
  std::uint64_t dataCap = UINT64_MAX;           ///< --data BYTES: larger buffers left out
  bool redactPaths = false;
};

struct PackedCapture {
  std::vector<format::Instantiation> instantiations;
  format::Sidecar sidecar;
  std::vector<archive::ArchiveEntry> files; ///< kernels/ and data/ files, by their paths in the folder
  std::size_t dataLeftOut = 0;              ///< buffers whose bytes the policy left out
};

/// `capture` was loaded from `folder` (loadCapture). Fails on an index out of range.
format::Expected<PackedCapture> selectForPack(const format::Capture &capture,
                                              const std::filesystem::path &folder, const PackPolicy &policy);

} // namespace clcapture::pack
