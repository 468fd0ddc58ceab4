//===- ProgramDeclarations.h - Functions the program declares without a body -*- C++ -*-===//
//
// After inlining, every call left in a kernel is taken to be an OpenCL C built-in and classified by its name
// (model/Builtins.h). A function the program itself declares but never defines is not one, whatever its
// name: `int atomic_add_twice(global int *p);` or a helper whose body the compiler did not emit would
// otherwise read as an atomic or as a pure math function, and a barrier or a write inside it would vanish.
// This consumer, run beside code generation, collects the symbol names of such declarations from Clang's
// AST (a declaration in a file of the program's, not in Clang's own headers and not one of the built-ins
// Clang declares on demand); markProgramDeclared() then tags their LLVM declarations so that the model
// classifies them as unsupported, with the function named.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <clang/AST/ASTConsumer.h>
#include <set>
#include <string>

namespace llvm {
class Module;
}

namespace clcapture::frontend {

class ProgramDeclarations : public clang::ASTConsumer {
public:
  /// `names` receives the symbol names (mangled where overloadable) of the functions the program declares
  /// and defines nowhere in the translation unit.
  explicit ProgramDeclarations(std::set<std::string> &names) : m_names(names) {}
  void HandleTranslationUnit(clang::ASTContext &context) override;

private:
  std::set<std::string> &m_names;
};

/// Tags each function of `module` named in `names` that has no body with the attribute
/// kDeclaredByProgram (DeclaredByProgram.h).
void markProgramDeclared(llvm::Module &module, const std::set<std::string> &names);

} // namespace clcapture::frontend
