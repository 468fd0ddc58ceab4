//===- ReadOptions.h - How strictly capture files are read ------*- C++ -*-===//
//
// The options every reader of a capture takes (captures.json, the sidecar, a whole folder) and the
// validation the writer shares with them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>

namespace clcapture::format {

struct ReadOptions {
  /// Unknown keys are errors (GPUVerify's own loader rejects them); when false they are warnings.
  bool strict = true;
  /// A file that ends mid-record yields the records before the cut (with a warning) instead of an error.
  bool recoverTruncated = true;
  /// Check that referenced files exist inside the capture folder and that data files match their sizes.
  bool checkFiles = true;
  /// OpenCL 2.0 allows a global size that is not a multiple of the local size; GPUVerify does not.
  bool allowNonUniformWorkGroups = false;
  std::size_t maxErrors = 100;
  /// loadCapture: read captures.json and the sidecar at the same time (two threads) when > 1.
  unsigned threads = 1;
};

} // namespace clcapture::format
