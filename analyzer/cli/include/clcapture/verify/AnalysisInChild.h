//===- AnalysisInChild.h - One analysis asked of a child process, and what its ending means -*- C++ -*-===//
//
// The words between the driver and a child of AnalysisProcesses.h. The request names the analysis (a
// distinct launch alone, or a parametric group's attempt, by its position in the run the child copied) and
// the limit the child itself keeps; the reply is the result as the verdict cache stores it
// (VerdictCache.h) plus what the cache leaves out (the memory the analysis held, the headers it read).
// resultOfEnding() turns a child that did not reply into the launch's result: `unknown` for a limit, with
// the limit named; `error` for a crash, with the signal named.
//
// The child keeps a limit a little short of the driver's (softLimitSeconds), so that an analysis that can
// stop by itself does, naming how far it got, and the driver's kill is for the one solver call that does
// not stop.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/report/AnalysisResult.h"
#include "clcapture/verify/AnalysisProcesses.h"
#include "clcapture/verify/VerifyOptions.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace clcapture::verify {

/// What a child analyses: distinct launch `id` (a slot of the run) alone, or group `id`'s attempt.
struct ChildRequest {
  bool group = false;
  std::size_t id = 0;
  double limitSeconds = 0; ///< the child's own --timeout for it (0: none)
};

std::string requestText(const ChildRequest &request);
std::optional<ChildRequest> parseRequest(const std::string &text);

std::string replyText(const report::InstantiationResult &result);
/// The result a child replied (index, entry point and kernel file are the caller's to set); nullopt if the
/// reply does not parse.
std::optional<report::InstantiationResult> parseReply(const std::string &text);

/// The limit a child keeps under the driver's `limitSeconds`: 5 % less, at most 1 s less (0 stays 0).
double softLimitSeconds(double limitSeconds);

/// The result of an analysis whose child did not reply (`outcome.ending` is not Replied): it ran into
/// `limitSeconds`, past the memory bound the driver gave it, or crashed.
report::InstantiationResult resultOfEnding(const AnalysisProcesses::Outcome &outcome, double limitSeconds,
                                           const VerifyOptions &options);

/// Whether a crash is cvc5 aborting as a time limit interrupts its SAT solver: SIGABRT inside a solver query.
bool abortedInSolver(const AnalysisProcesses::Outcome &outcome);

/// Asks `request` of a child (AnalysisProcesses::run) with `limitSeconds` (0: none) and the memory bound
/// `memoryBytes`; a child that crashed with a signal is asked once more, in a fresh child, with the time
/// left (when at least 1 s is), and `onRetry` hears of it with the signal. cvc5 1.0.3 aborts now and then
/// when a time limit interrupts its SAT solver, how often depending on the machine's load; a crash that
/// comes again is the outcome — unless, with a time limit, it is that abort (abortedInSolver), again or with
/// no time left to ask again: then the outcome is TimedOut (the verdict `unknown`, the cause the time limit).
/// `withLimit(seconds)` is the request text for a limit (the child's own, softLimitSeconds of the one the
/// driver keeps).
AnalysisProcesses::Outcome runRetryingCrash(AnalysisProcesses &processes,
                                            const std::function<std::string(double)> &withLimit,
                                            double limitSeconds, std::uint64_t memoryBytes,
                                            const std::function<void(int)> &onRetry);

/// The most private memory a child may hold before it is ended: --max-memory counts the heap the analysis
/// allocates, which the resident memory exceeds by what the allocator keeps; half as much again (0: none).
std::uint64_t hardMemoryBytes(const VerifyOptions &options);

} // namespace clcapture::verify
