//===- SolverQuery.cpp - One solver query under the deadline ----===//

#include "SolverQuery.h"

#include <algorithm>
#include <chrono>

namespace clcapture::encode::detail {

QueryOutcome ask(EncodingState &s, const cvc5::Term &query, const std::string &label,
                 std::optional<long long> budgetMs) {
  auto started = std::chrono::steady_clock::now();
  std::optional<long long> limit;
  if (s.options.deadline)
    limit = std::max<long long>(
        1, std::chrono::duration_cast<std::chrono::milliseconds>(*s.options.deadline - started).count());
  bool budgetBinds = budgetMs && (!limit || *budgetMs < *limit);
  if (budgetBinds)
    limit = std::max<long long>(1, *budgetMs);
  if (limit || s.limitSet)
    s.solver.setOption("tlimit-per", limit ? std::to_string(*limit) : "0");
  s.limitSet = limit.has_value();
  cvc5::Result r = s.solver.checkSatAssuming(query);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
  s.queryLog.push_back({label, query, r.toString() + " in " + std::to_string(ms.count()) + " ms"});
  QueryOutcome out;
  if (r.isUnsat()) {
    out.status = QueryOutcome::Status::Unsat;
  } else if (r.isSat()) {
    out.status = QueryOutcome::Status::Sat;
  } else {
    out.status = QueryOutcome::Status::Unknown;
    bool timeout = r.getUnknownExplanation() == cvc5::UnknownExplanation::TIMEOUT;
    out.unknownReason = timeout ? "solver timeout" : "the solver gave up";
    // The per-query limit is what was left of the instantiation's time: a timeout then is the whole
    // analysis running out of time.
    out.deadlineHit = timeout && s.options.deadline.has_value() && !budgetBinds;
    out.budgetHit = timeout && budgetBinds;
  }
  return out;
}

} // namespace clcapture::encode::detail
