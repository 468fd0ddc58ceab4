//===- KernelCompiler.cpp - Captured OpenCL C to an LLVM module ----------===//

#include "clcapture/frontend/KernelCompiler.h"

#include "Optimiser.h"
#include "ProgramDeclarations.h"
#include "clcapture/frontend/CompilerFlags.h"

#include <algorithm>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceManager.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/MultiplexConsumer.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <cstdlib>
#include <fstream>
#include <llvm/ADT/SmallString.h>
#include <llvm/IR/CallingConv.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <set>
#include <sstream>
#include <system_error>

namespace clcapture::frontend {

namespace fs = std::filesystem;

namespace {

/// Records Clang's diagnostics in order, as CompilerMessages naming files relative to the capture folder.
class MessageCollector : public clang::DiagnosticConsumer {
public:
  MessageCollector(std::vector<CompilerMessage> &out, std::string captureDir)
      : m_out(out), m_captureDir(std::move(captureDir)) {}

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic &info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, info); // keeps the error and warning counts
    if (level == clang::DiagnosticsEngine::Ignored)
      return;
    llvm::SmallString<256> text;
    info.FormatDiagnostic(text);
    CompilerMessage message;
    message.level = level >= clang::DiagnosticsEngine::Error     ? MessageLevel::Error
                    : level == clang::DiagnosticsEngine::Warning ? MessageLevel::Warning
                                                                 : MessageLevel::Note;
    message.text = std::string(text.str());
    if (info.getLocation().isValid() && info.hasSourceManager()) {
      clang::PresumedLoc where = info.getSourceManager().getPresumedLoc(info.getLocation());
      if (where.isValid()) {
        message.file = displayPath(where.getFilename());
        message.line = where.getLine();
        message.column = where.getColumn();
      }
    }
    m_out.push_back(std::move(message));
  }

private:
  /// Paths as the capture names them: "./x.h" is "x.h", and a path inside the capture folder is relative.
  std::string displayPath(std::string path) const {
    if (path.rfind(m_captureDir + "/", 0) == 0)
      path.erase(0, m_captureDir.size() + 1);
    while (path.rfind("./", 0) == 0)
      path.erase(0, 2);
    return path;
  }

  std::vector<CompilerMessage> &m_out;
  std::string m_captureDir;
};

format::Failure failure(std::vector<CompilerMessage> messages) {
  return format::fail(joinMessages(messages));
}

CompilerMessage error(const std::string &file, std::string text) {
  return CompilerMessage{MessageLevel::Error, file, 0, 0, std::move(text)};
}

std::optional<std::string> readText(const fs::path &path, std::string &why) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::error_code ec(errno, std::generic_category());
    why = ec.message();
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Names of the kernels (spir_kernel definitions) of `module`, sorted, for "no kernel named …" messages.
std::string kernelNames(const llvm::Module &module) {
  std::vector<std::string> names;
  for (const llvm::Function &f : module)
    if (!f.isDeclaration() && f.getCallingConv() == llvm::CallingConv::SPIR_KERNEL)
      names.push_back(f.getName().str());
  if (names.empty())
    return "the program defines no kernel";
  std::sort(names.begin(), names.end());
  std::string out = "the program's kernels are";
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? " '" : ", '") + names[i] + "'";
  return out;
}

/// Code generation, with ProgramDeclarations beside it collecting the functions the program declares
/// without a body.
class CompileAction : public clang::EmitLLVMOnlyAction {
public:
  CompileAction(llvm::LLVMContext *context, std::set<std::string> &declaredOnly)
      : clang::EmitLLVMOnlyAction(context), m_declaredOnly(declaredOnly) {}

protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &compiler,
                                                        llvm::StringRef file) override {
    std::vector<std::unique_ptr<clang::ASTConsumer>> consumers;
    consumers.push_back(clang::EmitLLVMOnlyAction::CreateASTConsumer(compiler, file));
    if (!consumers.back())
      return nullptr;
    consumers.push_back(std::make_unique<ProgramDeclarations>(m_declaredOnly));
    return std::make_unique<clang::MultiplexConsumer>(std::move(consumers));
  }

private:
  std::set<std::string> &m_declaredOnly;
};

/// Every file the compilation read, as Clang named it when it opened it, except the kernel file itself and
/// Clang's own headers (under `resourceDir`): the program's headers, sorted.
std::vector<std::string> headersRead(const clang::SourceManager &sources, const std::string &kernelFile,
                                     const std::string &resourceDir) {
  std::set<std::string> names;
  for (auto it = sources.fileinfo_begin(); it != sources.fileinfo_end(); ++it) {
    std::string name = it->first->getName().str();
    if (name.empty() || name == kernelFile || name.rfind(resourceDir + "/", 0) == 0)
      continue;
    names.insert(name);
  }
  return {names.begin(), names.end()};
}

} // namespace

format::Expected<unsigned> optimisationLevelFromEnvironment() {
  const char *text = std::getenv(kOptimisationLevelVariable);
  if (!text || !*text)
    return 0u;
  std::string value(text);
  if (value.size() == 1 && value[0] >= '0' && value[0] <= '3')
    return static_cast<unsigned>(value[0] - '0');
  return format::fail(std::string(kOptimisationLevelVariable) + "='" + value + "': expected 0, 1, 2 or 3");
}

KernelCompiler::KernelCompiler() : KernelCompiler(CLCAPTURE_CLANG_RESOURCE_DIR) {}

KernelCompiler::KernelCompiler(std::string resourceDir) : m_resourceDir(std::move(resourceDir)) {}

format::Expected<CompiledKernel> KernelCompiler::compile(const CompileRequest &request) const {
  const std::string &file = request.kernelFile;
  if (request.addressBits != 0 && request.addressBits != 32 && request.addressBits != 64)
    return failure({error(file, "unsupported device address bits " + std::to_string(request.addressBits) +
                                    " (expected 32 or 64)")});
  // OpenCL 1.2 §6.1.1: size_t and pointers are as wide as the device's address space.
  const char *triple = request.addressBits == 32 ? "spir-unknown-unknown" : "spir64-unknown-unknown";

  std::error_code ec;
  fs::path captureDir = fs::absolute(request.captureDir.empty() ? fs::path(".") : request.captureDir, ec);
  captureDir = captureDir.lexically_normal();
  std::string captureDirText = captureDir.string();
  while (captureDirText.size() > 1 && captureDirText.back() == '/')
    captureDirText.pop_back();

  std::string source;
  if (request.sourceText) {
    source = *request.sourceText;
  } else {
    std::string why;
    std::optional<std::string> text = readText(captureDir / file, why);
    if (!text)
      return failure({error(file, "cannot read the kernel file: " + why)});
    source = std::move(*text);
  }

  auto flags = parseCompilerFlags(request.compilerFlags);
  if (!flags)
    return failure({error(file, flags.error())});
  // -cl-opt-disable among the program's flags: a driver would not optimise it either (our explicit -O1
  // would override it in Clang, so it is read here).
  bool optimise = request.optimisationLevel > 0 && std::find(flags->clangArgs.begin(), flags->clangArgs.end(),
                                                             "-cl-opt-disable") == flags->clangArgs.end();

  // The kernel file's folder, relative like the file, so headers found there are named like it.
  std::string kernelDir = fs::path(file).parent_path().string();
  if (kernelDir.empty())
    kernelDir = ".";

  std::vector<std::string> args{"-triple", triple, "-x", "cl", "-cl-std=CL1.2"};
  args.insert(args.end(), flags->clangArgs.begin(), flags->clangArgs.end());
  // -O1 with every LLVM pass disabled: Clang's own code generation only. A plain `inline` function (C99
  // §6.7.4, which OpenCL C follows) is an inline definition, which Clang emits (available_externally) only
  // when optimising: at -O0 a call to OpenCV's `inline float3 sobel(…)` was a call to a function without a
  // body. Drivers optimise and inline it. -O1 emits every inline definition whatever the spelling (C99 or
  // GNU `extern inline`, through macros, with `extern inline` in a comment), so the inline semantics are
  // the compiler's, not a guess; lifetime markers, type-based alias metadata and `llvm.loop.unroll.disable`
  // on every loop (the specializer unrolls small loops), which -O1 adds, are off, so the IR is -O0's plus
  // those bodies.
  for (const char *fixed : {"-finclude-default-header", "-fdeclare-opencl-builtins", "-cl-kernel-arg-info",
                            "-O1", "-disable-llvm-passes", "-disable-lifetime-markers", "-relaxed-aliasing",
                            "-funroll-loops", "-ffp-contract=off", "-fno-caret-diagnostics",
                            "-debug-info-kind=limited", "-fdebug-compilation-dir=.", "-ferror-limit", "20"})
    args.emplace_back(fixed);
  args.insert(args.end(), {"-resource-dir", m_resourceDir, "-I", kernelDir, "-I", ".", file});

  std::vector<CompilerMessage> messages = flags->notes;
  std::vector<CompilerMessage> clangMessages;
  clang::CompilerInstance compiler;
  compiler.createDiagnostics(new MessageCollector(clangMessages, captureDirText), /*ShouldOwnClient=*/true);
  std::vector<const char *> argv;
  argv.reserve(args.size());
  for (const std::string &arg : args)
    argv.push_back(arg.c_str());
  auto invocation = std::make_shared<clang::CompilerInvocation>();
  bool argsOk = clang::CompilerInvocation::CreateFromArgs(*invocation, argv, compiler.getDiagnostics());
  if (!argsOk || compiler.getDiagnostics().hasErrorOccurred()) {
    // A bad value such as -cl-std=CL9.9: Clang's message names the option, the file names the program.
    for (CompilerMessage &m : clangMessages)
      if (m.file.empty())
        m.file = file;
    return failure(std::move(clangMessages));
  }
  invocation->getPreprocessorOpts().addRemappedFile(
      file, llvm::MemoryBuffer::getMemBufferCopy(source, file).release());
  compiler.setInvocation(std::move(invocation));

  // Relative paths (the kernel file, -I dirs) resolve against the capture folder through a file system of
  // our own: the process's working directory is shared by every thread and never changed.
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> files(llvm::vfs::createPhysicalFileSystem().release());
  if (std::error_code cwd = files->setCurrentWorkingDirectory(captureDirText))
    return failure({error(file, "cannot use the capture folder '" + captureDirText + "': " + cwd.message())});
  compiler.createFileManager(files);

  auto context = std::make_unique<llvm::LLVMContext>();
  std::set<std::string> declaredOnly;
  CompileAction action(context.get(), declaredOnly);
  bool compiled = compiler.ExecuteAction(action);
  std::unique_ptr<llvm::Module> module = compiled ? action.takeModule() : nullptr;
  if (!module || compiler.getDiagnostics().hasErrorOccurred()) {
    std::vector<CompilerMessage> errors;
    // Errors with the notes that explain them; warnings belong to a successful compilation only.
    for (CompilerMessage &m : clangMessages)
      if (m.level != MessageLevel::Warning)
        errors.push_back(std::move(m));
    if (errors.empty())
      errors.push_back(error(file, "clang could not compile the program"));
    return failure(std::move(errors));
  }
  messages.insert(messages.end(), clangMessages.begin(), clangMessages.end());

  llvm::Function *entry = module->getFunction(request.entryPoint);
  if (!entry || entry->isDeclaration() || entry->getCallingConv() != llvm::CallingConv::SPIR_KERNEL)
    return failure({error(file, "no kernel named '" + request.entryPoint + "'; " + kernelNames(*module))});
  markProgramDeclared(*module, declaredOnly);
  if (optimise)
    if (auto optimised = optimiseModule(*module, request.optimisationLevel); !optimised)
      return failure({error(file, optimised.error())});
  unsigned addressBits = request.addressBits == 32 ? 32 : 64;
  CompiledKernel kernel(std::move(context), std::move(module), entry, addressBits, std::move(messages));
  if (compiler.hasSourceManager())
    kernel.setHeadersRead(headersRead(compiler.getSourceManager(), file, m_resourceDir));
  return kernel;
}

} // namespace clcapture::frontend
