//===- PreparedKernels.h - Programs compiled once for many forked analyses -*- C++ -*-===//
//
// A capture launches one kernel many times (hashcat's m01500_sxx 52 times, CLBlast's Xdot 144), and each
// analysis used to compile and normalise the same program again: a quarter to a half of each hashcat
// analysis, nearly all of a small kernel's. When each analysis runs in a process forked from clcapture-verify
// (InstantiationAnalyzer::prepareForForks), the program is compiled and normalised once, before the forks,
// and every child finds the module in its own copy of memory: it specialises that copy in place, and the
// next child starts again from the untouched original. Compiling and normalising read nothing of a launch but
// the program, its flags, the entry point and the device's address bits (KernelCompiler.h CompileRequest):
// that is the key. Only programs that two or more analyses compile are prepared, the most used first, at
// most kMaxPrepared; a kernel is taken only in a process other than the one that prepared it (threads of
// one process must not share a module), so an analysis in the preparing process compiles its own.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/frontend/CompiledKernel.h"
#include "clcapture/frontend/KernelCompiler.h"

#include <map>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace clcapture::pipeline {

/// A program compiled and normalised, or why it did not compile or normalise.
struct PreparedKernel {
  std::optional<frontend::CompiledKernel> kernel; ///< compiled, and normalised unless normalizeError is set
  std::string compileError;                       ///< set: the program does not compile
  std::string normalizeError;                     ///< set: it compiled but does not normalise
};

/// Compiles `request` with `compiler` and normalises the result (frontend::Normalizer).
PreparedKernel compileAndNormalize(const frontend::KernelCompiler &compiler,
                                   const frontend::CompileRequest &request);

class PreparedKernels {
public:
  static constexpr std::size_t kMaxPrepared = 32;

  /// Prepares each compilation that occurs two or more times in `requests`, on up to `jobs` threads.
  PreparedKernels(const frontend::KernelCompiler &compiler,
                  const std::vector<frontend::CompileRequest> &requests, unsigned jobs);

  /// The prepared kernel for `request`, moved out; nothing in the preparing process, or when it was not
  /// prepared (or already taken).
  std::optional<PreparedKernel> take(const frontend::CompileRequest &request);

  std::size_t size() const { return m_prepared.size(); }

private:
  std::map<std::string, PreparedKernel> m_prepared;
  pid_t m_preparer;
};

} // namespace clcapture::pipeline
