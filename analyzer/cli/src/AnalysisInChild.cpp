//===- AnalysisInChild.cpp - One analysis asked of a child process --------===//

#include "clcapture/verify/AnalysisInChild.h"

#include "clcapture/verify/RunBudget.h"
#include "clcapture/verify/VerdictCache.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>
#include <nlohmann/json.hpp>

namespace clcapture::verify {

using Json = nlohmann::json;
using report::InstantiationResult;

std::string requestText(const ChildRequest &request) {
  return Json{{"group", request.group}, {"id", request.id}, {"limit", request.limitSeconds}}.dump();
}

std::optional<ChildRequest> parseRequest(const std::string &text) {
  Json j = Json::parse(text, nullptr, false);
  try {
    if (j.is_discarded())
      return std::nullopt;
    return ChildRequest{j.at("group").get<bool>(), j.at("id").get<std::size_t>(),
                        j.at("limit").get<double>()};
  } catch (const Json::exception &) {
    return std::nullopt;
  }
}

std::string replyText(const InstantiationResult &result) {
  Json j = {{"result", resultToJson(result)}, {"headers", result.headersRead}, {"peak_memory", nullptr}};
  if (result.peakMemoryBytes)
    j["peak_memory"] = *result.peakMemoryBytes;
  return j.dump();
}

std::optional<InstantiationResult> parseReply(const std::string &text) {
  Json j = Json::parse(text, nullptr, false);
  try {
    if (j.is_discarded())
      return std::nullopt;
    std::optional<InstantiationResult> r = resultFromJson(j.at("result").get<std::string>());
    if (!r)
      return std::nullopt;
    r->headersRead = j.at("headers").get<std::vector<std::string>>();
    if (!j.at("peak_memory").is_null())
      r->peakMemoryBytes = j.at("peak_memory").get<std::uint64_t>();
    return r;
  } catch (const Json::exception &) {
    return std::nullopt;
  }
}

bool abortedInSolver(const AnalysisProcesses::Outcome &outcome) {
  // cvc5 1.0.3 aborts now and then when a time limit (the launch's, or a query's budget) interrupts its SAT
  // solver ("cadical: fatal error: … can only get value in satisfied state"): an abort inside a solver query
  // is that limit reached, not a crash of ours. A loaded machine reaches it where an idle one does not.
  return outcome.signal == SIGABRT && outcome.step.rfind("while asking the solver", 0) == 0;
}

namespace {

constexpr const char *kSolverAborted = "cvc5 aborted when a time limit interrupted its SAT solver";

AnalysisProcesses::Outcome asTimedOut(AnalysisProcesses::Outcome outcome) {
  outcome.ending = AnalysisProcesses::Ending::TimedOut;
  outcome.step = std::string(kSolverAborted) + ", " + outcome.step;
  return outcome;
}

} // namespace

AnalysisProcesses::Outcome runRetryingCrash(AnalysisProcesses &processes,
                                            const std::function<std::string(double)> &withLimit,
                                            double limitSeconds, std::uint64_t memoryBytes,
                                            const std::function<void(int)> &onRetry) {
  auto start = std::chrono::steady_clock::now();
  auto attempt = [&](double seconds) {
    AnalysisProcesses::Limits limits;
    if (seconds > 0)
      limits.deadline =
          std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                 std::chrono::duration<double>(seconds));
    limits.memoryBytes = memoryBytes;
    return processes.run(withLimit(softLimitSeconds(seconds)), limits);
  };
  auto secondsLeft = [&] {
    return limitSeconds > 0
               ? limitSeconds -
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
               : 0;
  };
  AnalysisProcesses::Outcome outcome = attempt(limitSeconds);
  if (outcome.ending != AnalysisProcesses::Ending::Crashed || !outcome.signal)
    return outcome;
  double left = secondsLeft();
  bool noTimeToRetry = limitSeconds > 0 && left < 1;
  // Without a time limit no limit interrupted the solver: a crash is a crash.
  bool limited = limitSeconds > 0;
  if (noTimeToRetry)
    return limited && abortedInSolver(outcome) ? asTimedOut(std::move(outcome)) : outcome;
  if (onRetry)
    onRetry(outcome.signal);
  outcome = attempt(left);
  if (outcome.ending == AnalysisProcesses::Ending::Crashed && limited && abortedInSolver(outcome))
    return asTimedOut(std::move(outcome));
  return outcome;
}

double softLimitSeconds(double limitSeconds) {
  return limitSeconds - std::min(1.0, 0.05 * limitSeconds);
}

std::uint64_t hardMemoryBytes(const VerifyOptions &options) {
  return options.maxMemoryBytes + options.maxMemoryBytes / 2;
}

InstantiationResult resultOfEnding(const AnalysisProcesses::Outcome &outcome, double limitSeconds,
                                   const VerifyOptions &options) {
  InstantiationResult r;
  using Ending = AnalysisProcesses::Ending;
  switch (outcome.ending) {
  case Ending::TimedOut:
    r.verdict = report::Verdict::Unknown;
    r.errorKind = report::ErrorKind::Timeout;
    if (outcome.step.rfind(kSolverAborted, 0) == 0) {
      r.reason = "timed out: " + outcome.step + " (twice, or with no time left to ask again)";
      break;
    }
    r.reason = "timed out: still running at the " + secondsText(limitSeconds) + " s limit in a step that " +
               (outcome.step.empty() ? std::string("does not stop by itself (one solver query, or compiling)")
                                     : "does not stop by itself, " + outcome.step) +
               ", and ended there";
    break;
  case Ending::OverMemory:
    r.verdict = report::Verdict::Unknown;
    r.reason = "over the memory budget: the analysis held " + std::to_string(outcome.memoryBytes >> 20) +
               " MiB, more than --max-memory=" + std::to_string(options.maxMemoryBytes >> 20) +
               " MiB allows with the allocator's own share, and was stopped" +
               (outcome.step.empty() ? std::string() : " " + outcome.step);
    break;
  case Ending::Crashed:
    r.verdict = report::Verdict::Error;
    r.errorKind = report::ErrorKind::Other;
    r.reason = outcome.signal
                   ? "internal error: the analysis crashed (signal " + std::to_string(outcome.signal) + ", " +
                         std::string(strsignal(outcome.signal)) + ")"
                   : std::string("internal error: the analysis process ended without a result "
                                 "(killed from outside: the system's out-of-memory killer?)");
    if (!outcome.step.empty())
      r.reason += ", " + outcome.step;
    r.reason += "; --in-process runs the analysis inside clcapture-verify, for a debugger";
    break;
  case Ending::Replied:
  case Ending::Unavailable:
    r.verdict = report::Verdict::Error;
    r.errorKind = report::ErrorKind::Other;
    r.reason = "internal error: the analysis process's reply did not parse";
    break;
  }
  return r;
}

} // namespace clcapture::verify
