//===- AffineOffsets.h - Offsets as integer sums over the ids, and a dependence test -*- C++ -*-===//
//
// Internal to encode/ (docs/semantics.md row 36). An access's offset term is read as an integer affine
// form, Σ coefficient × atom + constant, where an atom is a work-item id or any other subterm taken whole
// (bounded by TermFactory's asserted bounds). A node becomes part of a form only when the form's range over
// its atoms' ranges fits the node's width: then the node's unsigned bit-vector value *is* the form's
// integer value (no wrap-around anywhere below it); otherwise the node is an atom itself. Two accesses of
// two distinct work-items then meet only where the difference of their forms lies within the byte window
// their sizes make. That is decided as a compiler's dependence test does (Banerjee's bounds, per direction
// of each pair of ids): for every direction vector of the two work-items' group and local ids (<, =, >
// per id), the difference's range under it; the all-equal vector is the same work-item, which the encoding
// excludes (EncodingState::distinct), and is skipped only when the ids are the launch's variables. A query
// of one scope fixes the group pairs' directions: all equal for the same group, not all equal for
// different groups. Where a vector's range meets the window, the difference is decided over the integers:
// the term of the largest coefficient can take only the values that leave the rest's range able to reach
// the window, each tried in turn (a bounded search; past its bound the accesses may meet). No vector whose
// difference can reach the window ⇒ the two accesses never meet.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "EncodingState.h"
#include "clcapture/encode/QueryOutcome.h"

#include <array>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace clcapture::encode::detail {

__extension__ typedef __int128 Wide; // a GCC and Clang extension: exact sums of 64-bit products

/// Σ coefficients[atom] × atom + constant, with its range over the atoms' ranges.
struct AffineForm {
  std::map<cvc5::Term, Wide> coefficients;
  Wide constant = 0;
  Wide low = 0, high = 0;
};

/// Affine forms of terms, cached across queries (one per encoding).
class AffineForms {
public:
  explicit AffineForms(EncodingState &s);
  /// The form of a bit-vector term of at most 64 bits; nullptr for a wider one.
  const AffineForm *of(const cvc5::Term &t);
  /// Whether the accesses at `offsetA` (size at most `sizeA` bytes) of work-item A and `offsetB` (at most
  /// `sizeB`) of work-item B, in one memory object, may share a byte when A and B are distinct work-items
  /// related as `scope` says (the query asserts it: EncodingState::sameGroup or its negation).
  bool mayMeet(const cvc5::Term &offsetA, std::uint64_t sizeA, const cvc5::Term &offsetB, std::uint64_t sizeB,
               Scope scope);
  /// Whether `a` and `b` (bit-vector terms of at most 64 bits) may take one value: their difference, each
  /// atom over its own range (ids too, as independent atoms), decided over the integers. Barrier intervals
  /// inside a loop that is not unrolled are c + n·iteration + k (n barriers an iteration, k before the
  /// access): two whose k differ by less than n are never equal.
  bool mayBeEqual(const cvc5::Term &a, const cvc5::Term &b);

private:
  /// coefficient × x for an integer x of [low, high]; x may be one id of a pair (`pair`), below or above
  /// the other id of that pair.
  struct Scaled {
    Wide coefficient = 0, low = 0, high = 0;
    int pair = -1;
    bool below = false;
  };
  static bool sumMayReach(std::vector<Scaled> terms, Wide constant, Wide low, Wide high, std::size_t &steps);
  struct IdPair {
    cvc5::Term a, b;
    Wide max = 0;
    bool group = false; ///< a pair of group ids (else local ids)
  };
  AffineForm atom(const cvc5::Term &t);
  std::optional<AffineForm> build(const cvc5::Term &t, unsigned depth);
  const AffineForm *ofAt(const cvc5::Term &t, unsigned depth);

  EncodingState &m_s;
  std::unordered_map<cvc5::Term, AffineForm> m_cache;
  std::unordered_map<cvc5::Term, std::pair<Wide, Wide>> m_ranges; ///< each atom's range
  std::unordered_set<cvc5::Term> m_idTerms;
  std::vector<IdPair> m_ids;      ///< the two work-items' group and local ids that are not constants
  bool m_idsAreVariables = false; ///< the all-equal direction is the same work-item (no open local size)
  bool m_allGroupPairs = true;    ///< every dimension of several groups has its pair in m_ids
};

} // namespace clcapture::encode::detail
