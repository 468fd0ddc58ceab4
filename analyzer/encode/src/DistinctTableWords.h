//===- DistinctTableWords.h - Equal words of a table of distinct words sit at one place -*- C++ -*-===//
//
// Internal to encode/: docs/semantics.md row 13c. loadValue records the reads the fact can be stated for
// (ThreadEncoder::noteDistinctWordRead, DistinctTableWords.cpp); each race query asks for the facts of its
// two sites (RaceQuery.cpp `overlapping`).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "EncodingState.h"

#include <vector>

namespace clcapture::encode::detail {

/// Distinct table words, for one race query between sites `a` (work-item A) and `b` (B): two reads of one
/// captured read-only table (row 13) at the same width, one by each work-item, whose values take part in
/// those sites' addresses, and that both land on a whole captured word (offset = origin + k·size, k below
/// the word count) and read equal values, read the same place — provided the table's words of that width
/// are pairwise distinct (a permutation, a list of distinct keys). Why it holds: loadValue reads such an
/// offset as the word at it (one arm of its choice among the words matches), so equal values are one word,
/// and a word sits at one place only. It is implied by the reads' own terms, so it removes no execution; it
/// spares the solver finding that out for itself (`out[perm[i]] = …` over a 96-word permutation: minutes
/// without it). Stated only in the queries whose addresses use the reads: asserted for the whole launch it
/// slowed queries it does not help (atomics/histogram_clear_race: 0.36 s to 0.99 s). Unaligned reads, reads
/// of other widths, other tables and tables with a repeated word get no fact. True when there is none.
cvc5::Term distinctWordFacts(EncodingState &s, const std::vector<unsigned> &a,
                             const std::vector<unsigned> &b);

} // namespace clcapture::encode::detail
