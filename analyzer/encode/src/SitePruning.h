//===- SitePruning.h - Sites a race query can leave out, and a cheaper overlap test -*- C++ -*-===//
//
// Internal to encode/: before a race query is built, sites that cannot meet any site of the other work-item
// (another memory object, another barrier interval) are dropped; when every access is one aligned unit,
// overlap is equality of offsets.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "EncodingState.h"
#include "clcapture/encode/QueryOutcome.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace clcapture::encode::detail {

/// A site whose memory object is a constant that no site of the other work-item can have never overlaps
/// them (objects are memory objects: arguments the sidecar says alias share one, row 11): it is dropped
/// before the solver sees its reach and address terms, which can be large (32 unrolled reads through
/// captured tables in OpenMM's computeNonbonded, over 85 s of bit-blasting against one write elsewhere).
void dropSitesOfOtherObjects(EncodingState &s, std::vector<unsigned> &a, std::vector<unsigned> &b);

/// Sites whose byte ranges cannot meet: a site of one work-item whose offsets, by interval arithmetic over
/// its offset and size terms (TermFactory::upperBoundAsserted, lowerBoundAsserted: with the ids' asserted
/// ranges), lie apart from those of every site of the other is dropped (a straight-line kernel storing to
/// RF[k·N + gid] for 206 values of k: 21,321 pair queries, all but 206 settled here).
void dropSitesApart(EncodingState &s, std::vector<unsigned> &a, std::vector<unsigned> &b);

/// Pairs of sites that the dependence test (AffineOffsets.h, docs/semantics.md row 36) shows never share a
/// byte for two distinct work-items related as `scope` says: a site that meets no site of the other work-item
/// is dropped (Rodinia's nw stores row ty of its tile to `index + cols·ty` in 16 unrolled stores, each a 0.5
/// s solver query against the other 16). Skipped for more than kMaxDependencePairs pairs.
void dropSitesThatNeverMeet(EncodingState &s, std::vector<unsigned> &a, std::vector<unsigned> &b,
                            Scope scope);
constexpr std::size_t kMaxDependencePairs = 4096;
constexpr std::size_t kMaxIntervalPairs = 65536;

/// Same-group pairs need one barrier interval: where every interval is a constant (straight-line or
/// unrolled code), sites whose interval the other work-item never has cannot race and are dropped. Where
/// some are not (a loop with barriers that is not unrolled: c + n·iteration + k), a site is dropped when its
/// interval can equal no interval of the other's sites over the integers (SHOC sort's bottom_scan: 16
/// inlined scans of 8 steps in a loop, 128 writes of one source line, each in an interval of its own).
/// Skipped for more than kMaxIntervalPairs pairs.
void dropSitesInOtherIntervals(EncodingState &s, std::vector<unsigned> &a, std::vector<unsigned> &b,
                               bool local);

/// The common size of every access of both sets when it is a power of two 2^k and every offset is a
/// multiple of it by its structure: then two accesses overlap exactly when their offsets are equal, a
/// condition the solver settles faster than the two comparisons of byte ranges (OpenCV's
/// ifft_multi_radix_rows, ten strided stores against themselves: 39 s → 22 s). nullopt otherwise.
std::optional<std::uint64_t> alignedUnit(EncodingState &s, const std::vector<unsigned> &a,
                                         const std::vector<unsigned> &b);

} // namespace clcapture::encode::detail
