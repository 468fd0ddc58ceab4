//===- ProgramDeclarations.cpp - Functions the program declares without a body -===//

#include "ProgramDeclarations.h"

#include "clcapture/frontend/DeclaredByProgram.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Mangle.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/IR/Module.h>

namespace clcapture::frontend {

void ProgramDeclarations::HandleTranslationUnit(clang::ASTContext &context) {
  const clang::SourceManager &sources = context.getSourceManager();
  clang::ASTNameGenerator mangler(context);
  for (const clang::Decl *decl : context.getTranslationUnitDecl()->decls()) {
    const auto *function = llvm::dyn_cast<clang::FunctionDecl>(decl);
    if (!function || function->hasBody())
      continue;
    // Built-ins: declared on demand by Clang (implicit), or in its own headers (opencl-c-base.h, a system
    // header of the resource directory).
    if (function->isImplicit() || function->getBuiltinID() != 0)
      continue;
    clang::SourceLocation at = function->getLocation();
    if (at.isInvalid() || sources.isInSystemHeader(sources.getSpellingLoc(at)))
      continue;
    m_names.insert(mangler.getName(function));
  }
}

void markProgramDeclared(llvm::Module &module, const std::set<std::string> &names) {
  for (const std::string &name : names)
    if (llvm::Function *function = module.getFunction(name); function && function->isDeclaration())
      function->addFnAttr(kDeclaredByProgram);
}

} // namespace clcapture::frontend
