//===- SarifReport.h - SARIF 2.1.0 for code-scanning tools ------*- C++ -*-===//
//
// One run; tool.driver names clcapture-verify with four rules:
//   data-race, barrier-divergence  findings (docs/contract.md §4): one result each, level "error" or
//   "warning" (a benign
//                                  race), message = the finding's message; locations[0] = the first
//                                  access (the barrier for divergence), relatedLocations = both work-items
//                                  (ids 1 and 2) with what each did; properties carry the structured fields
//                                  (`values` and `local_size`: the open values the witness chose, as in
//                                  JSON).
//   unknown                        an `unknown` verdict: one result of level "note" on the kernel file,
//                                  message "could not verify <entry> (instantiation N): <reason>".
//   analysis-error                 an `error` verdict: one result of level "note" likewise ("could not
//                                  analyse …"); the exit status still says it failed.
// `verified` instantiations produce no result. Artifact URIs are the capture-relative paths with uriBaseId
// "CAPTURES", defined in run.originalUriBaseIds as the captures file's folder (when known). Every result has
// properties.instantiation (and properties.same_as for a copied result). Byte-stable: no times, no dates.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/report/AnalysisResult.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace clcapture::report {

nlohmann::ordered_json sarifReportValue(const std::vector<InstantiationResult> &results,
                                        const ReportInfo &info);

/// The SARIF log as text, with a final line break.
std::string sarifReport(const std::vector<InstantiationResult> &results, const ReportInfo &info);

} // namespace clcapture::report
