//===- CreationSites.h - Which host call made the buffer a memory-safety finding is about -*- C++ -*-===//
//
// The layer records the application's clCreateBuffer / clCreateSubBuffer behind each buffer argument of a
// launch (the sidecar's host_calls, with the argument's index). A memory-safety finding on that argument
// names it (report::Finding::createdBy): where the host chose the size the access leaves. Added to the
// results after the analysis (and after the verdict cache), from the capture alone.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/CaptureReader.h"
#include "clcapture/report/AnalysisResult.h"

#include <cstddef>
#include <vector>

namespace clcapture::verify {

/// For each result whose instantiation is captures.instantiations[positions[k]] (matched by index), names
/// the creating call on each memory-safety finding whose `array` is a buffer argument the sidecar knows.
void nameCreationSites(std::vector<report::InstantiationResult> &results, const format::Capture &capture,
                       const std::vector<std::size_t> &positions);

} // namespace clcapture::verify
