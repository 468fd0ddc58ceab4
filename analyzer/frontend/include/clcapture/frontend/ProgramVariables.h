//===- ProgramVariables.h - What program-scope variables hold, without folding past their end -*- C++ -*-===//
//
// LLVM folds a load from a constant global at a constant offset into the initialiser's value there, and a
// load past its end into poison, which erases the read: `c_arr[5]` of `constant int c_arr[2]`, or an unrolled
// `k <= 2` loop over it, came out `verified`. So no program-scope variable stays an LLVM constant while the
// analyser transforms the kernel; instead each one the program never writes (every `constant` variable, and
// a `global` one, or one Clang made for a private aggregate's initialiser, that no function of the program
// stores to or lets its address escape from) is marked unwritten,
// and FoldUnwrittenLoadsPass folds only loads that lie wholly inside it. The encoder reads the others
// through its tables (encode/ReadOnlyTables.cpp) and checks their bounds (docs/semantics.md row 37k).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>

namespace clcapture::frontend {

/// While the whole program is in `module` (before the other kernels are dropped): marks each program-scope
/// variable with a definitive initialiser that no function may write as unwritten, and makes no variable an
/// LLVM constant.
void prepareProgramVariables(llvm::Module &module);

/// Whether prepareProgramVariables marked `variable` unwritten: it holds its initialiser in every launch.
bool isUnwrittenVariable(const llvm::GlobalVariable &variable);

/// Folds each load whose bytes lie at a constant offset wholly inside an unwritten variable into the value
/// its initialiser has there (what InstSimplify does for LLVM constants); a load past either end stays.
class FoldUnwrittenLoadsPass : public llvm::PassInfoMixin<FoldUnwrittenLoadsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
};

} // namespace clcapture::frontend
