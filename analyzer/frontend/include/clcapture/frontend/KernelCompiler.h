//===- KernelCompiler.h - Captured OpenCL C to an LLVM module ---*- C++ -*-===//
//
// Compiles one instantiation's program in-process with Clang 16, the way the device would see it (SPEC §5:
// -D, -I and -cl-std from compiler_flags; size_t as wide as the device's address bits), into unoptimised
// LLVM IR with line-and-column debug locations on every instruction that comes from source. The Normalizer
// then turns it into the form the model reads.
//
// Clang runs as `clang -cc1 -triple spir[64]-unknown-unknown -x cl -cl-std=CL1.2 <flags>
// -finclude-default-header -fdeclare-opencl-builtins -cl-kernel-arg-info -O1 -disable-llvm-passes
// -disable-lifetime-markers -relaxed-aliasing -funroll-loops -ffp-contract=off -debug-info-kind=limited`:
// builtins declared as Clang's driver does by default (opencl-c-base.h plus on-demand declarations, 5x faster
// than parsing opencl-c.h); no LLVM pass, because an optimiser may move memory accesses and the verifier must
// see those the source performs (Normalizer.h lists the passes that do run). -O1 only makes Clang's code
// generation emit inline definitions (C99 §6.7.4) as available_externally bodies; the markers and metadata it
// would add besides are off. SPIR has no LLVM backend and none is needed to emit IR, so no LLVM target is
// initialised. Functions the program declares without a body are tagged (DeclaredByProgram.h).
//
// A testing knob, CompileRequest::optimisationLevel (CLCAPTURE_VERIFY_OPT_LEVEL), adds LLVM's standard
// pipeline after code generation, to compare verdicts on the IR an optimising driver sees
// (docs/optimisation-levels.md).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Expected.h"
#include "clcapture/frontend/CompiledKernel.h"

#include <filesystem>
#include <optional>
#include <string>

namespace clcapture::frontend {

struct CompileRequest {
  /// The capture folder (where captures.json lies): relative paths (kernelFile, -I) are resolved against it
  /// and it is an include directory, as is the kernel file's own folder.
  std::filesystem::path captureDir;
  /// The instantiation's kernel_file, relative to captureDir; messages and debug locations name it so.
  std::string kernelFile;
  /// The program text; when absent it is read from captureDir / kernelFile.
  std::optional<std::string> sourceText;
  /// The instantiation's compiler_flags (see CompilerFlags.h for what reaches Clang).
  std::string compilerFlags;
  /// The instantiation's entry_point: the kernel to analyse.
  std::string entryPoint;
  /// The device's address bits (sidecar `device.address_bits`): 32 or 64; 0 (unknown) is taken as 64.
  unsigned addressBits = 64;
  /// 0 (the analysis): Clang's code generation only. 1, 2 or 3 (a testing knob, see
  /// optimisationLevelFromEnvironment): then LLVM's default pipeline at that level, as an optimising driver
  /// runs it (src/Optimiser.h), unless the program's flags say -cl-opt-disable.
  unsigned optimisationLevel = 0;
};

/// The environment variable that sets CompileRequest::optimisationLevel for clcapture-verify (a testing knob:
/// docs/optimisation-levels.md).
constexpr const char *kOptimisationLevelVariable = "CLCAPTURE_VERIFY_OPT_LEVEL";

/// CLCAPTURE_VERIFY_OPT_LEVEL: unset or empty is 0; "0" to "3" that level; anything else fails, naming it.
format::Expected<unsigned> optimisationLevelFromEnvironment();

class KernelCompiler {
public:
  /// `resourceDir` is Clang's resource directory (holding include/opencl-c.h); by default the one found at
  /// build time (CLCAPTURE_CLANG_RESOURCE_DIR).
  KernelCompiler();
  explicit KernelCompiler(std::string resourceDir);

  /// Compiles `request` into a fresh LLVMContext. Thread-safe: calls share no mutable state, so several
  /// instantiations can be compiled at once (`-j N`).
  ///
  /// Fails when the program does not compile, the kernel file cannot be read, compiler_flags cannot be split
  /// or the entry point is not a kernel of the program; the error is one message per line,
  /// `kernels/foo-1f2e.cl:3:5: error: use of undeclared identifier 'x'`, ready for an `error` verdict.
  format::Expected<CompiledKernel> compile(const CompileRequest &request) const;

  const std::string &resourceDir() const { return m_resourceDir; }

private:
  std::string m_resourceDir;
};

} // namespace clcapture::frontend
