//===- ClangParse.h - Clang 16 on one OpenCL C source, in-process -*- C++ -*-===//
//
// The source parsed the way the analyzer's frontend compiles a captured kernel (analyzer/frontend's
// KernelCompiler: SPIR triple, `-x cl -cl-std=CL1.2`, the program's build options, Clang's default OpenCL
// header and builtin declarations), to an AST only: the first parse hands the AST to the instrumenter, the
// second checks that the instrumented text still compiles.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
} // namespace clang

namespace clcapture::instrument {

struct ParseInput {
  std::string file;                   ///< the name Clang uses (relative includes resolve beside it)
  std::string text;                   ///< the source's text (the file on disk is not read)
  std::vector<std::string> buildArgs; ///< from the program's build options (frontend's parseCompilerFlags)
  unsigned addressBits = 64;
};

struct ClangDiagnostic {
  bool error = false;   ///< an error (or fatal)
  bool warning = false; ///< a warning; neither: a note
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
  std::optional<unsigned> mainOffset; ///< the offset in the parsed text, when the message points into it
  std::string text;

  /// `file:line:col: error: text` (or warning, note).
  std::string format() const;
};

using AstCallback = std::function<void(clang::ASTContext &)>;

/// Parses `input`; `onAst` (may be empty) runs on the translation unit when it parsed without errors.
/// Returns whether it did; `diagnostics` gets Clang's messages either way.
bool parseOpenCl(const ParseInput &input, std::vector<ClangDiagnostic> &diagnostics,
                 const AstCallback &onAst);

} // namespace clcapture::instrument
