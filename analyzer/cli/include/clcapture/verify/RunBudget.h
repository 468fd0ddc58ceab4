//===- RunBudget.h - Time limits that fit a run, not only a launch -*- C++ -*-===//
//
// A whole application is hundreds of launches, and --timeout alone lets each of them spend it: one kernel
// whose launches all run into the limit costs the limit times its launches. The budget of a run:
//  - --total-timeout S: no analysis starts after S seconds, and none runs past them; a launch not analysed
//    in time is `unknown`, cut short, with the cause named;
//  - the per-kernel policy: after --give-up-after N launches of one kernel (its entry point in its source)
//    ran into the limit, later launches of it are not analysed but `unknown`, cut short, with the cause
//    named (0: every launch is analysed);
//  - the budget of a parametric group's attempt (ParametricGroups.h): at most kGroupShare of what analysing
//    the group's other members alone would cost, estimated from the first member's own analysis, and at most
//    kGroupCap of --timeout, so that the attempt never costs more than a tenth of what it may save; an
//    attempt whose budget would be under --min-group-budget is not made (it could save little).
// The report counts the launches cut short (JSON summary `cut_short`).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/report/AnalysisResult.h"
#include "clcapture/verify/VerifyOptions.h"

#include <chrono>
#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace clcapture::verify {

/// A limit in seconds as messages write it: "300", "4.5".
std::string secondsText(double seconds);

/// A group's attempt costs at most this share of its other members' estimated cost alone.
constexpr double kGroupShare = 0.1;
/// … and at most this share of --timeout.
constexpr double kGroupCap = 0.25;

/// The time a group of `members` distinct launches may spend on its attempt, when its first member's own
/// analysis took `firstMemberSeconds` (see the file comment), or --group-budget within --timeout; 0: no
/// attempt.
double groupAttemptBudget(std::size_t members, double firstMemberSeconds, const VerifyOptions &options);

class RunBudget {
public:
  using Clock = std::chrono::steady_clock;
  explicit RunBudget(const VerifyOptions &options, Clock::time_point start = Clock::now());

  /// The seconds an analysis that starts now and may take `limitSeconds` (0: no limit) has: the lesser of
  /// its own limit and what is left of the run (never 0 while some is left: 0 means no limit); 0 for neither.
  double limit(double limitSeconds, Clock::time_point now = Clock::now()) const;

  /// Whether the run's --total-timeout has run out.
  bool over(Clock::time_point now = Clock::now()) const { return m_end && now >= *m_end; }

  /// Why a launch of `kernel` (report::kernelName) must not be analysed now (the run's time is out; the
  /// kernel gave up), or nullopt. Counts the launch as cut short when it returns a reason.
  std::optional<std::string> cutShort(const std::string &kernel, Clock::time_point now = Clock::now());

  /// Records the analysis of a launch of `kernel`: a timeout counts toward the per-kernel policy.
  void record(const std::string &kernel, const report::InstantiationResult &result);

  std::size_t cutShortCount() const;

private:
  double m_timeout;
  unsigned m_giveUpAfter;
  std::optional<Clock::time_point> m_end;
  double m_totalSeconds;
  mutable std::mutex m_mutex;
  std::map<std::string, unsigned> m_timeouts;
  std::size_t m_cutShort = 0;
};

/// The result of a launch that was not analysed: `unknown`, a timeout, cut short, `reason` naming why.
report::InstantiationResult cutShortResult(std::string reason);

} // namespace clcapture::verify
