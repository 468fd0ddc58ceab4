//===- ClangParse.cpp - Clang 16 on one OpenCL C source, in-process -------===//

#include "ClangParse.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <filesystem>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/MemoryBuffer.h>

namespace clcapture::instrument {

namespace {

/// Clang's messages in order, each with its place in the parsed text when it has one.
class Collector : public clang::DiagnosticConsumer {
public:
  explicit Collector(std::vector<ClangDiagnostic> &out) : m_out(out) {}

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic &info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level == clang::DiagnosticsEngine::Ignored)
      return;
    llvm::SmallString<256> text;
    info.FormatDiagnostic(text);
    ClangDiagnostic d;
    d.error = level >= clang::DiagnosticsEngine::Error;
    d.warning = level == clang::DiagnosticsEngine::Warning;
    d.text = std::string(text.str());
    if (info.getLocation().isValid() && info.hasSourceManager()) {
      const clang::SourceManager &sm = info.getSourceManager();
      clang::PresumedLoc where = sm.getPresumedLoc(info.getLocation());
      if (where.isValid()) {
        d.file = where.getFilename();
        d.line = where.getLine();
        d.column = where.getColumn();
      }
      auto [file, offset] = sm.getDecomposedExpansionLoc(info.getLocation());
      if (file == sm.getMainFileID())
        d.mainOffset = offset;
    }
    m_out.push_back(std::move(d));
  }

private:
  std::vector<ClangDiagnostic> &m_out;
};

class Consumer : public clang::ASTConsumer {
public:
  Consumer(clang::CompilerInstance &compiler, const AstCallback &onAst)
      : m_compiler(compiler), m_onAst(onAst) {}

  void HandleTranslationUnit(clang::ASTContext &context) override {
    if (m_onAst && !m_compiler.getDiagnostics().hasErrorOccurred())
      m_onAst(context);
  }

private:
  clang::CompilerInstance &m_compiler;
  const AstCallback &m_onAst;
};

class Action : public clang::ASTFrontendAction {
public:
  explicit Action(const AstCallback &onAst) : m_onAst(onAst) {}

protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &compiler,
                                                        llvm::StringRef) override {
    return std::make_unique<Consumer>(compiler, m_onAst);
  }

private:
  const AstCallback &m_onAst;
};

std::vector<std::string> clangArguments(const ParseInput &input) {
  // OpenCL 1.2 §6.1.1: size_t and pointers are as wide as the device's address space.
  const char *triple = input.addressBits == 32 ? "spir-unknown-unknown" : "spir64-unknown-unknown";
  std::vector<std::string> args{"-triple", triple, "-x", "cl", "-cl-std=CL1.2"};
  args.insert(args.end(), input.buildArgs.begin(), input.buildArgs.end());
  std::string folder = std::filesystem::path(input.file).parent_path().string();
  for (const char *fixed : {"-finclude-default-header", "-fdeclare-opencl-builtins", "-fno-caret-diagnostics",
                            "-ferror-limit", "20"})
    args.emplace_back(fixed);
  args.insert(args.end(), {"-resource-dir", CLCAPTURE_CLANG_RESOURCE_DIR, "-I", folder.empty() ? "." : folder,
                           input.file});
  return args;
}

} // namespace

std::string ClangDiagnostic::format() const {
  std::string where =
      file.empty() ? std::string() : file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": ";
  return where + (error ? "error: " : warning ? "warning: " : "note: ") + text;
}

bool parseOpenCl(const ParseInput &input, std::vector<ClangDiagnostic> &diagnostics,
                 const AstCallback &onAst) {
  std::vector<std::string> args = clangArguments(input);
  std::vector<const char *> argv;
  argv.reserve(args.size());
  for (const std::string &arg : args)
    argv.push_back(arg.c_str());

  // Heap-held: a compiler that crashed is not destroyed (its state cannot be trusted any more).
  auto compiler = std::make_unique<clang::CompilerInstance>();
  compiler->createDiagnostics(new Collector(diagnostics), /*ShouldOwnClient=*/true);
  auto invocation = std::make_shared<clang::CompilerInvocation>();
  if (!clang::CompilerInvocation::CreateFromArgs(*invocation, argv, compiler->getDiagnostics()) ||
      compiler->getDiagnostics().hasErrorOccurred())
    return false;
  invocation->getPreprocessorOpts().addRemappedFile(
      input.file, llvm::MemoryBuffer::getMemBufferCopy(input.text, input.file).release());
  compiler->setInvocation(std::move(invocation));
  Action action(onAst);
  bool ran = false;
  // A crash inside Clang (an input it does not expect) is a message and an exit status, not a core dump.
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext recovery;
  if (!recovery.RunSafely([&] { ran = compiler->ExecuteAction(action); })) {
    (void)compiler.release();
    ClangDiagnostic crash;
    crash.error = true;
    crash.text = "Clang 16 (or clcapture-instrument on its AST) crashed on " + input.file;
    diagnostics.push_back(std::move(crash));
    return false;
  }
  return ran && !compiler->getDiagnostics().hasErrorOccurred();
}

} // namespace clcapture::instrument
