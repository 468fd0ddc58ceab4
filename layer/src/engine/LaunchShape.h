//===- LaunchShape.h - A launch's NDRange as the application enqueued it -*- C++ -*-===//
#pragma once

#include <cstdint>
#include <vector>

namespace clcapture::layer {

/// The NDRange of one enqueue, before the driver sees it.
struct LaunchShape {
  std::vector<std::uint64_t> globalOffset; ///< empty: NULL
  std::vector<std::uint64_t> globalSize;
  std::vector<std::uint64_t> localSize; ///< empty: NULL
  const char *enqueueFunction = "clEnqueueNDRangeKernel";
};

} // namespace clcapture::layer
