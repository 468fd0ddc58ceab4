//===- VerifyDriver.h - clcapture-verify from options to exit status -*- C++ -*-===//
//
// Load and validate the capture (common/'s reader, files checked), select the instantiations (--only),
// analyse each distinct one once on a pool of -j N threads, copy the result to identical ones, finalise
// the results (report::finalizeResult), write the report, return the exit status (ExitCode.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/CaptureReader.h"
#include "clcapture/pipeline/InstantiationAnalyzer.h"
#include "clcapture/report/AnalysisResult.h"
#include "clcapture/verify/VerifyOptions.h"

#include <cstddef>
#include <iosfwd>
#include <vector>

namespace clcapture::verify {

/// Analyses capture.captures.instantiations[p] for every position p in `positions` (ascending), each
/// distinct instantiation once, and returns finalised results in the same order. `progress`, when not null,
/// receives a progress line rewritten in place ("\r").
std::vector<report::InstantiationResult> analyzeInstantiations(const format::Capture &capture,
                                                               const std::vector<std::size_t> &positions,
                                                               pipeline::InstantiationAnalyzer &analyzer,
                                                               const VerifyOptions &options,
                                                               std::ostream *progress = nullptr);

/// The whole program after parsing: the report goes to options.output or `out`, diagnostics and the
/// progress line to `err`. Returns the exit status.
int runVerify(const VerifyOptions &options, pipeline::InstantiationAnalyzer &analyzer, std::ostream &out,
              std::ostream &err);

} // namespace clcapture::verify
