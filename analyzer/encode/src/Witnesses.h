//===- Witnesses.h - Reading a witness out of a model, and keeping it to defined behaviour -*- C++ -*-===//
//
// Internal to encode/: after a satisfiable query, the work-items' ids, the open values and the local size the
// model chose; the guards (WitnessGuard) a real witness keeps to; and a last query for small open values.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "EncodingState.h"
#include "clcapture/encode/QueryOutcome.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace clcapture::encode::detail {

/// The model's value of a bit-vector term of at most 64 bits (0 for anything else).
std::uint64_t modelValue(cvc5::Solver &solver, const cvc5::Term &t);

/// The model's ids of work-item `t` (0 = A, 1 = B).
WorkItemIds idsFromModel(EncodingState &s, unsigned t);

/// The values the current model gives the scalar arguments the capture does not give.
/// `upTo`: a bounds witness, which names only what work-item A read before that access.
OpenValues openValuesFromModel(EncodingState &s, const llvm::Instruction *upTo = nullptr);
/// The values the current model gives the named variables an access's address depends on
/// (AccessRecord::indexVariables), as signed integers of their width.
OpenValues indexVariablesFromModel(EncodingState &s, const AccessRecord &r);

/// The model's local size, when the capture left it open; nullopt otherwise.
std::optional<std::array<std::uint64_t, 3>> localSizeFromModel(EncodingState &s);

/// Both work-items keep every guard; with `upTo` (a bounds witness), work-item A keeps those of the steps
/// that may run before that access: what it does there or after is not part of the witness.
cvc5::Term withinGuards(EncodingState &s, const llvm::Instruction *upTo = nullptr);

/// After `query` was satisfiable with an exact witness: if the model breaks a guard, ask again within the
/// guards. Sat: the new model stands (true). Unsat: every witness of the query needs that behaviour — `out`
/// becomes a satisfiable outcome through an abstraction named by the guard (false). Unknown: `out` is
/// that answer (false).
/// `upTo`: only the guards withinGuards(s, upTo) keeps count (BoundsQuery: the access it shows).
bool keepWithinGuards(EncodingState &s, const cvc5::Term &query, const std::string &label, QueryOutcome &out,
                      const llvm::Instruction *upTo = nullptr);

/// A witness reads better with small values of the open arguments (an index 7 rather than 2147483647): when
/// the model's are not all in [0, 256], ask once more with them there; when that has no witness, ask
/// `query` again for a model. `query` holds in the current model (the caller's witness query, guards
/// included).
void preferSmallValues(EncodingState &s, const cvc5::Term &query, const std::string &label);

/// A memory-safety witness over open arguments (--open=scalars) names the least value of each, in turn, that
/// still makes the access leave its memory ("out-of-bounds read on in[1000] with n = 1001": the first n past
/// the buffer), by bisection: at most 96 queries of 0.5 s and 10 s in all. `query` holds in
/// the current model; on return the model is one of `query` again (the least values found, or the model
/// `query` gives when a probe could not be settled and the bisection stopped).
void preferLeastArguments(EncodingState &s, const cvc5::Term &query, const std::string &label);

/// An out-of-bounds witness shows the access nearest its memory: past the end, the least offset (in[1000] of
/// a 1000-int buffer, not in[1006]); before the start (a negative offset), the greatest. By bisection on
/// `offset` under `query`, at most 24 queries of 0.5 s and 5 s in all (the nearest found by then); on return
/// the model is one of `query` again.
void preferNearestOffset(EncodingState &s, const cvc5::Term &query, const cvc5::Term &offset,
                         const std::string &label);

} // namespace clcapture::encode::detail
