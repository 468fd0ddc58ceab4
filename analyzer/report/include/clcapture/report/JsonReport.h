//===- JsonReport.h - The JSON report (schemas/report.schema.json) -*- C++ -*-===//
//
// SPEC §4's JSON report, keys in the schema's order, laid out by common/'s JsonEmitter (byte-stable: only
// `seconds` differs between two runs). Two optional keys extend the SPEC's example, both allowed by the
// schema: `strict` (present and true under --strict, where benign races are errors) and, per result,
// `same_as` (the index whose result was copied because the instantiations are identical).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/report/AnalysisResult.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace clcapture::report {

/// The report as a JSON value.
nlohmann::ordered_json jsonReportValue(const std::vector<InstantiationResult> &results,
                                       const ReportInfo &info);

/// The report as text, with a final line break.
std::string jsonReport(const std::vector<InstantiationResult> &results, const ReportInfo &info);

} // namespace clcapture::report
