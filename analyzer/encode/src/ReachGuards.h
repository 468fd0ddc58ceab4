//===- ReachGuards.h - Bounds an access's path condition keeps its values in -*- C++ -*-===//
//
// Internal to encode/. Wherever an access happens, every conjunct of its reach holds: a comparison of a term
// with a constant there (`if (j < n) … posq[j]`) bounds that term at the access. Interval arithmetic over the
// access's offset under those bounds (TermFactory::boundsUnder) then shows many guarded accesses in bounds
// without a solver query (docs/semantics.md row 37h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Terms.h"

namespace clcapture::encode::detail {

/// The unsigned bounds that the top-level conjuncts of `reach` give terms: unsigned comparisons and
/// equalities with a constant; a signed comparison with a non-negative constant where the term is also
/// shown non-negative (by another conjunct or by its form). Nothing for a conjunct of another shape.
TermFactory::Guards guardsOf(TermFactory &tf, const cvc5::Term &reach);

} // namespace clcapture::encode::detail
