//===- KernelChecker.h - Which queries to ask, and their answers as findings -*- C++ -*-===//
//
// docs/contract.md §4–5 over one encoded launch:
// - barrier divergence: for every barrier, can two work-items of one group disagree on reaching it;
// - data races: for every pair of access sites to the same memory space where at least one writes and not
//   both are atomic, can two distinct work-items make them overlap — in one group and one barrier interval
//   (for the fence of that memory), or, for global memory, in different groups; a write-write race whose
//   writers always store the same value is benign;
// - memory safety: for every access, can a work-item touch a byte outside its memory (a sized buffer's or
//   sub-buffer's region, a local argument, a program-scope array) or access through the null pointer.
// A satisfiable exact query is a finding with its witness; a satisfiable query that went through an
// abstraction, or one the solver could not decide, leaves the launch undecided (verdict unknown, reason
// given) — unless it is a write-write race whose writers always store the same bytes, which is benign
// whether or not it happens; all unsatisfiable is a proof.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/encode/KernelEncoding.h"
#include "clcapture/report/AnalysisResult.h"

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace clcapture::check {

struct CheckContext {
  std::string kernelFile;               ///< as captures.json names it: locations in this file use this name
  std::vector<std::string> sourceLines; ///< the kernel file's lines, for the report's `source`
  std::optional<std::chrono::steady_clock::time_point> deadline;
  /// When set and true, the analysis is over its memory budget (--max-memory): no further query.
  std::function<bool()> overMemory;
  /// Which checks to run (--checks): races (data races), divergence (barriers), bounds (memory safety).
  bool races = true, divergence = true, bounds = false;
  /// Told before each solver query what it asks ("while asking the solver whether …"); may be unset.
  std::function<void(const std::string &)> onStep;
};

struct CheckOutcome {
  std::vector<report::Finding> findings;
  std::vector<std::string> undecided; ///< why some query was not decided, one line each
  /// Write-write races that may or may not happen (an abstraction decides), but whose writers store the
  /// same bytes whenever they do: benign either way (docs/contract.md §4), unless --strict counts benign
  /// races.
  std::vector<std::string> benignIfAny;
  bool timedOut = false;
  bool overMemory = false; ///< stopped by CheckContext::overMemory
  /// The memory arguments whose size the capture does not give: their accesses were not bounds-checked.
  std::vector<std::string> unsized;
  unsigned queries = 0;
};

CheckOutcome checkKernel(encode::KernelEncoding &encoding, const CheckContext &context);

} // namespace clcapture::check
