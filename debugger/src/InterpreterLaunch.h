//===- InterpreterLaunch.h - A captured launch inside Oclgrind's interpreter --*- C++ -*-===//
//
// Oclgrind's library (Debian liboclgrind-dev: Context, Program, Kernel, KernelInvocation) given a planned
// launch: the captured source built at -O0 with its debug information kept (what Oclgrind's own interactive
// mode does), one global-memory allocation per buffer (sub-buffers at their origin inside their parent),
// the arguments set from the captured values. run() executes the whole NDRange with a monitor plugged in;
// afterwards the buffers hold what the kernel wrote.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "CapturedLaunch.h"
#include "clcapture/format/Expected.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Function;
} // namespace llvm

namespace oclgrind {
class Context;
class Kernel;
class Plugin;
class Program;
} // namespace oclgrind

namespace clcapture::debug {

class InterpreterLaunch {
public:
  /// Builds the program and sets every argument; fails with the build log or the argument that cannot be set.
  static format::Expected<std::unique_ptr<InterpreterLaunch>> create(const CapturedLaunch &launch);
  /// The same for another plan and source (an instrumented copy of the launch); `plan` must outlive it.
  static format::Expected<std::unique_ptr<InterpreterLaunch>> create(const replay::LaunchPlan &plan,
                                                                     const std::string &source);
  ~InterpreterLaunch();
  InterpreterLaunch(const InterpreterLaunch &) = delete;
  InterpreterLaunch &operator=(const InterpreterLaunch &) = delete;

  const oclgrind::Context &context() const { return *m_context; }
  const llvm::Function &kernelFunction() const;
  /// Plugs `monitor` in and runs the launch to its end (every work-item, every group).
  void run(oclgrind::Plugin &monitor);

  /// Argument `index`'s type as the kernel declares it (Oclgrind's CL_KERNEL_ARG_TYPE_NAME: "int*").
  std::string argumentTypeName(unsigned index) const;
  /// Where memory object `index` of the plan starts in Oclgrind's global memory.
  std::size_t memoryAddress(std::size_t index) const { return m_addresses.at(index); }
  /// The bytes of memory object `index` now (after run(): what the kernel left there).
  std::vector<std::uint8_t> memoryBytes(std::size_t index) const;

private:
  explicit InterpreterLaunch(const replay::LaunchPlan &plan);
  const replay::LaunchPlan &m_plan;
  std::unique_ptr<oclgrind::Context> m_context;
  std::unique_ptr<oclgrind::Program> m_program;
  std::unique_ptr<oclgrind::Kernel> m_kernel;
  std::vector<std::size_t> m_addresses;
};

} // namespace clcapture::debug
