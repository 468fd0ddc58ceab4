//===- TextReport.h - GPUVerify-style text report ----------------*- C++ -*-===//
//
// docs/contract.md §4: one block per instantiation, findings in GPUVerify's style, then a one-line summary:
//
//   instantiation 0: k in run/k.cl: defects
//   run/k.cl:13:5: error: possible write-write race on tmp[7] (local memory, bytes 28..31):
//     write by work-item global (7, 0, 0) local (7, 0, 0) group (0, 0, 0), run/k.cl:13:5: a[7] = 0;
//     write by work-item global (3, 0, 0) local (3, 0, 0) group (0, 0, 0), run/k.cl:15:5: a[l + 4] = 1;
//   instantiation 1: k in run/k.cl: verified
//   instantiation 2: k in run/k.cl: verified (same as #1)
//   instantiation 3: f in run/f.cl: verified
//   run/f.cl:4:13: warning: possible benign write-write race on flag[0] (global memory, bytes 0..3, every
//   writer stores the same value):
//     … the two work-items, as above
//   clcapture-verify: 4 instantiations: 3 verified, 1 defects, 0 unknown, 0 error
//
// Paths are the captures file's folder joined with the capture-relative path, so they open from where the
// command ran. No timings: the text is byte-stable across runs.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/report/AnalysisResult.h"

#include <string>
#include <vector>

namespace clcapture::report {

/// The whole text report; `results` in the order to print (the driver sorts them by index).
std::string textReport(const std::vector<InstantiationResult> &results, const ReportInfo &info);

/// The summary line alone, without a line break.
std::string textSummaryLine(const std::vector<InstantiationResult> &results);

} // namespace clcapture::report
