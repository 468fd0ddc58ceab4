//===- EncodeOptions.h - What the caller tells the encoding ------*- C++ -*-===//
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

namespace clcapture::encode {

struct EncodeOptions {
  /// When set, each query's time limit is what is left until then (so the last query cannot overrun it);
  /// unset: no limit.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  std::uint64_t maxCapturedTableBytes = 4096; ///< read-only buffers up to this size are read exactly
};

} // namespace clcapture::encode
