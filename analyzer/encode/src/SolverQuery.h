//===- SolverQuery.h - One solver query under the deadline -*- C++ -*-===//
//
// Internal to encode/: every satisfiability question the encoder asks goes through `ask`, which applies the
// time limits and logs the query for --dump-smt2.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "EncodingState.h"
#include "clcapture/encode/QueryOutcome.h"

#include <optional>
#include <string>

namespace clcapture::encode::detail {

/// One solver query under the deadline, logged for --dump-smt2.
/// `budgetMs`: a limit of its own for this query (below the deadline's); a timeout then sets budgetHit.
QueryOutcome ask(EncodingState &s, const cvc5::Term &query, const std::string &label,
                 std::optional<long long> budgetMs = std::nullopt);

} // namespace clcapture::encode::detail
