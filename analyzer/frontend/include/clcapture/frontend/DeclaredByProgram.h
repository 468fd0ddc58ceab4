//===- DeclaredByProgram.h - A function the program declares without a body -*- C++ -*-===//
//
// The frontend tags each LLVM declaration that stands for a function the program itself declares and never
// defines (src/ProgramDeclarations.h): such a call is not an OpenCL C built-in, whatever its name, and the
// model classifies it as unsupported (`unknown`, the function named) instead of by its name.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <llvm/IR/Function.h>

namespace clcapture::frontend {

/// The string attribute the frontend puts on such declarations.
constexpr const char *kDeclaredByProgram = "clcapture-declared-by-program";

inline bool declaredByProgram(const llvm::Function &function) {
  return function.isDeclaration() && function.hasFnAttribute(kDeclaredByProgram);
}

} // namespace clcapture::frontend
