//===- ExitCode.h - clcapture-verify's exit status -------------*- C++ -*-===//
//
// docs/contract.md §4, GPUVerify's numbering. When several apply, the first of this list wins:
//   1  command-line error (bad option, --only index that does not exist, --output/--dump-* not writable)
//   10 the capture is invalid (nothing is analysed)
//   2  some kernel did not compile (ErrorKind::Compile)
//   7  some analysis timed out (ErrorKind::Timeout)
//   6  some instantiation is `defects`, `unknown`, or `error` for another reason
//   0  every selected instantiation is `verified` (also when none was selected)
// 1 and 10 end the run before any analysis, in the order they are found: option syntax first (nothing is
// read yet), then the capture (10), then what needs the capture to check (an --only index past the end: 1).
// Among results, the earliest stage that failed wins: a kernel that does not compile says the capture or its
// build options need attention before any verdict means much; a timeout says to rerun with a larger
// --timeout; 6 is the ordinary "not all verified".
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/report/AnalysisResult.h"

#include <vector>

namespace clcapture::verify {

enum ExitCode : int {
  kExitVerified = 0,
  kExitCommandLine = 1,
  kExitCompileError = 2,
  kExitNotAllVerified = 6,
  kExitTimeout = 7,
  kExitCaptureInvalid = 10,
};

/// The exit status for finalised results, by the precedence above.
int exitCodeFor(const std::vector<report::InstantiationResult> &results);

} // namespace clcapture::verify
