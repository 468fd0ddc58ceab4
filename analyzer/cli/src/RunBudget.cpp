//===- RunBudget.cpp - Time limits that fit a run, not only a launch -----===//

#include "clcapture/verify/RunBudget.h"

#include <algorithm>
#include <sstream>

namespace clcapture::verify {

std::string secondsText(double s) {
  std::ostringstream out;
  out << s;
  return out.str();
}

double groupAttemptBudget(std::size_t members, double firstMemberSeconds, const VerifyOptions &options) {
  if (members < 2)
    return 0;
  if (options.groupBudgetSeconds)
    return options.timeoutSeconds > 0 ? std::min(*options.groupBudgetSeconds, options.timeoutSeconds)
                                      : *options.groupBudgetSeconds;
  double budget = kGroupShare * static_cast<double>(members - 1) * std::max(firstMemberSeconds, 0.0);
  if (options.timeoutSeconds > 0)
    budget = std::min(budget, kGroupCap * options.timeoutSeconds);
  return budget < options.minGroupBudgetSeconds ? 0 : budget;
}

RunBudget::RunBudget(const VerifyOptions &options, Clock::time_point start)
    : m_timeout(options.timeoutSeconds), m_giveUpAfter(options.giveUpAfter),
      m_totalSeconds(options.totalTimeoutSeconds) {
  if (options.totalTimeoutSeconds > 0)
    m_end = start + std::chrono::duration_cast<Clock::duration>(
                        std::chrono::duration<double>(options.totalTimeoutSeconds));
}

double RunBudget::limit(double limitSeconds, Clock::time_point now) const {
  if (!m_end)
    return limitSeconds;
  double left = std::max(std::chrono::duration<double>(*m_end - now).count(), 0.001);
  return limitSeconds > 0 ? std::min(limitSeconds, left) : left;
}

std::optional<std::string> RunBudget::cutShort(const std::string &kernel, Clock::time_point now) {
  std::lock_guard<std::mutex> lock(m_mutex);
  std::optional<std::string> why;
  if (over(now)) {
    why = "not analysed: the run's --total-timeout of " + secondsText(m_totalSeconds) + " s ran out first";
  } else if (m_giveUpAfter > 0) {
    auto it = m_timeouts.find(kernel);
    if (it != m_timeouts.end() && it->second >= m_giveUpAfter)
      why = "not analysed: " + std::to_string(it->second) + " earlier launches of " + kernel +
            " ran into the " + secondsText(m_timeout) + " s limit (--give-up-after=0 analyses every launch)";
  }
  if (why)
    ++m_cutShort;
  return why;
}

void RunBudget::record(const std::string &kernel, const report::InstantiationResult &result) {
  if (result.errorKind != report::ErrorKind::Timeout || result.cutShort)
    return;
  std::lock_guard<std::mutex> lock(m_mutex);
  ++m_timeouts[kernel];
}

std::size_t RunBudget::cutShortCount() const {
  std::lock_guard<std::mutex> lock(m_mutex);
  return m_cutShort;
}

report::InstantiationResult cutShortResult(std::string reason) {
  report::InstantiationResult r;
  r.verdict = report::Verdict::Unknown;
  r.errorKind = report::ErrorKind::Timeout;
  r.reason = std::move(reason);
  r.cutShort = true;
  return r;
}

} // namespace clcapture::verify
