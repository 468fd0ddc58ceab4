//===- Optimiser.h - LLVM's standard pipeline, as a driver runs it -*- C++ -*-===//
//
// A testing knob (CLCAPTURE_VERIFY_OPT_LEVEL, KernelCompiler.h): the analysis of the IR an optimising
// driver would see. After Clang's code generation, LLVM's per-module default pipeline at -O1, -O2 or -O3
// (llvm::PassBuilder::buildPerModuleDefaultPipeline), tuned as Clang tunes it at that level (loop and SLP
// vectorisation at -O2 and -O3, unrolling), with the target's own library information (a driver's: `memset`
// and `memcpy` are known, so a zeroing loop may become `llvm.memset`) and no target machine (SPIR has no
// LLVM backend; a driver emitting SPIR has none either). Debug locations stay where LLVM keeps them.
//
// The optimiser may move, merge, drop or speculate memory accesses (docs/optimisation-levels.md says which
// verdicts that changes on the corpus and why); the default analysis (level 0) never runs it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Expected.h"

#include <llvm/IR/Module.h>

namespace clcapture::frontend {

/// Runs LLVM's default pipeline at `level` (1, 2 or 3) on `module`. Fails when the result is not valid IR.
format::Status optimiseModule(llvm::Module &module, unsigned level);

} // namespace clcapture::frontend
