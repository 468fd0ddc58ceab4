//===- LaunchFacts.h - What holds in every execution, stated once both work-items are encoded -*- C++ -*-===//
//
// Internal to encode/: facts relating the two work-items' records, asserted (or, for guards, recorded)
// after encodeThread, in the order KernelEncoding::encode states them: stateCounterFacts,
// guardCounterResults, stateUniformReads, stateExclusiveSuccesses.
// oneWorkItemPerGroup is the launch property they and the queries share.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "EncodingState.h"

namespace clcapture::encode::detail {

/// Every work-group holds one work-item (a captured local size of 1 in each dimension): no two distinct
/// work-items share a group, so local memory is never shared, and no same-group race or divergence exists
/// (OpenCL 1.2 §3.2: a work-group's local memory and barriers are its work-items').
bool oneWorkItemPerGroup(const model::LaunchConfig &l);
/// The NDRange has a single work-item: A and B are then one work-item (not asserted distinct), and no
/// query or fact about two work-items applies.
bool oneWorkItem(const model::LaunchConfig &l);

/// Uniform reads: two work-items that read one place of shared memory with one plain load read the same
/// value — when they are in one group and one barrier interval of the memory's fence, or, for global
/// memory, in different groups — unless a data race on that place comes first. Asserted for every load
/// whose value is open (AccessRecord::loaded), for the pair's reads at the same site.
///
/// Why it is sound (GPUVerify's equality abstraction argues the same way): take any execution with a race
/// or a barrier divergence, and its first one. Before it, no write to a place meets a read of it in the
/// same interval (same group) or anywhere (different groups): that would be an earlier race. So every read
/// before the first defect sees the value the place had at the interval's start (same group) or throughout
/// (never written, different groups) — the same for both. Reads after the first defect do not decide it,
/// and the facts leave their values free to agree. The two-thread query for that first defect therefore
/// has a model, and `verified` (every query unsatisfiable) means there is no defect.
void stateUniformReads(EncodingState &s);

/// Atomic counters: two distinct work-items that each atomically add the same non-zero constant `step`
/// to one location get different old values back, provided that
///   - nothing else writes that memory (no other atomic, no plain store: the counter is only counted);
///   - the counts cannot wrap: with N additions in all, old values repeat only when some k < N has
///     k · step ≡ 0 (mod 2^width), i.e. N > 2^(width − trailing zeros of step). N is bounded by the
///     work-items times the counter's call sites; a call inside a loop that was not unrolled has no bound,
///     and then nothing is stated;
///   - the two work-items share the counter: a counter in local memory is one per work-group, and an
///     atomic of memory_scope_work_group is atomic only within a group — then only work-items of one group
///     get distinct values.
/// This is what makes `out[atomic_inc(&n)] = v` (appending to a list) provable.
void stateCounterFacts(EncodingState &s);

/// Exclusive successes: of the atomic_cmpxchg calls at one site on one location, within one barrier
/// interval of a work-group (local memory) or within the launch (global memory), at most one that
/// changes the value succeeds, provided that
///   - every work-item there passes the same `expected` value e (asked of the solver, under the facts
///     stated so far);
///   - nothing else writes that memory in that interval (no other site, plain or atomic; for global
///     memory, nowhere in the kernel), and each work-item makes the call at most once (not in a loop).
/// Why: a call succeeds only when the location holds e. The location changes only by successes; one
/// whose `desired` is not e leaves a value other than e, and no call can succeed after it. So two
/// work-items' calls that both succeed cannot both store values other than e. This is what proves
/// `if (atomic_cmpxchg(&x, before, before + 1) == before) r = x;` free of races: the winner's read meets
/// only failing calls, which write nothing (CompareExchange).
void stateExclusiveSuccesses(EncodingState &s);

/// The results of counter calls marked exactWithGuard (atomic_inc, atomic_add of one constant) are exact
/// only where a real execution can give them; a witness must keep to those (WitnessGuard). The counter
/// starts open (contentsOpen) and nothing but this one call writes it (setUpReadOnlyTables), so one
/// work-item's result alone can be any value: the initial value plus its place in the order. Two
/// work-items that count on one counter (one location; one group for a group-scoped one) get results
/// `step` apart when one counted right after the other; other distances need calls in between that the
/// witness does not show, so a witness keeps to `step`. Proofs are unchanged: a guard only restricts
/// witnesses, and the facts stateCounterFacts states hold in every execution.
void guardCounterResults(EncodingState &s);

} // namespace clcapture::encode::detail
