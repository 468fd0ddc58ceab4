//===- ReplayReport.h - clcapture-replay's text and JSON output -*- C++ -*-===//
//
// Text: one line per launch (its buffers' comparisons on indented lines below it), then a summary line.
// JSON (replay.json under --output, or stdout with --format=json): per launch its status, reason, device,
// seconds and, per written buffer, file, size and comparison. Deterministic but for the seconds.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/replay/ReplayResult.h"

#include <string>
#include <vector>

namespace clcapture::replay {

struct ReplayReportInfo {
  std::string captures; ///< as given
  std::string device;   ///< OpenClDriver::description(), empty when no driver was opened
  bool compare = false;
  std::uint64_t ulp = 0;
  std::uint32_t repeat = 1;
};

std::string textReport(const std::vector<LaunchResult> &results, const ReplayReportInfo &info);
std::string textSummaryLine(const std::vector<LaunchResult> &results, const ReplayReportInfo &info);
std::string jsonReport(const std::vector<LaunchResult> &results, const ReplayReportInfo &info);

/// docs/contract.md §4's numbering: 0 when every launch was replayed (and nothing differed), else 6.
int exitCodeFor(const std::vector<LaunchResult> &results);

} // namespace clcapture::replay
