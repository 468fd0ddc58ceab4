//===- JsonReport.h - The JSON report (schemas/report.schema.json) -*- C++ -*-===//
//
// docs/contract.md §4's JSON report, keys in the schema's order, laid out by common/'s JsonEmitter
// (byte-stable: only `seconds` differs between two runs). Optional keys extend the SPEC's example, all
// allowed by the schema: `strict` (present and true under --strict, where benign races are errors); per
// result, `same_as` (the index whose result was copied because the instantiations are identical); per
// finding, `values` (the scalar arguments the capture does not give, name → the OpenCL C literal the witness
// chose) and `local_size` (the work-group size the witness chose when the capture leaves it open).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/report/AnalysisResult.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace clcapture::report {

/// The keys JSON and SARIF (as properties) both give: a finding's `values` and `local_size` (the open values
/// its witness chose), and a result's `parametric` record; added to `into` when the result or finding has
/// them.
void addWitnessValues(const Finding &f, nlohmann::ordered_json &into);

/// A memory-safety finding's facts (memory, array, index, offset, size, object_bytes, within_object,
/// access_mode), as the JSON report and SARIF's properties name them.
void addMemorySafetyFacts(const Finding &f, nlohmann::ordered_json &into);
void addParametric(const InstantiationResult &r, nlohmann::ordered_json &into);

/// The report as a JSON value.
nlohmann::ordered_json jsonReportValue(const std::vector<InstantiationResult> &results,
                                       const ReportInfo &info);

/// The report as text, with a final line break.
std::string jsonReport(const std::vector<InstantiationResult> &results, const ReportInfo &info);

} // namespace clcapture::report
