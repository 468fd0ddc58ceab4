//===- Normalizer.h - The normalisation pipeline ----------------*- C++ -*-===//
//
// Turns a freshly compiled kernel into the form the model reads: one function (the entry kernel, every
// helper inlined), private scalars in SSA form, constant branches folded, loops in loop-simplify form
// (preheader, single latch, dedicated exits) so that ScalarEvolution finds induction variables and trip
// counts.
//
// The pipeline never adds a memory access to a path that the source does not perform there, and never drops
// one the source performs: a speculated load of global or local memory is a false race, a dropped one a
// missed race (SPEC §4: `verified` is sound). Hence no LICM, GVN/PRE, SimplifyCFG (it hoists, sinks,
// speculates and merges loads and stores), InstCombine, DSE/EarlyCSE, loop rotation, vectorisation or
// unrolling, and reads whose value is unused survive. Work-item functions (moved to the entry, one call per
// query), barriers, fences, atomics, async copies and vload/vstore stay calls to their (mangled) OpenCL
// builtin declarations; every memory access from the source keeps its debug location. The pass list and
// why each pass is safe: Normalizer.cpp.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Expected.h"
#include "clcapture/frontend/CompiledKernel.h"

namespace clcapture::frontend {

class Normalizer {
public:
  /// Normalises `kernel` in place. Fails when the entry still calls a function of the program afterwards
  /// (recursion, forbidden by OpenCL 1.2 §6.9) or the result is not valid IR (a bug of ours).
  static format::Status normalize(CompiledKernel &kernel);
};

} // namespace clcapture::frontend
