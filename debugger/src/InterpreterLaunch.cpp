//===- InterpreterLaunch.cpp - A captured launch inside Oclgrind's interpreter ---===//
#include "InterpreterLaunch.h"

#include <Context.h>
#include <Kernel.h>
#include <KernelInvocation.h>
#include <Memory.h>
#include <Program.h>
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <optional>

namespace clcapture::debug {

namespace fmt = clcapture::format;

namespace {

// Oclgrind builds at -O0 and keeps llvm.dbg.* intrinsics only in its interactive mode, which it reads from
// the environment while a program builds; its interactive plugin is chosen when a Context is made, before
// this is set, so it never runs.
class InteractiveBuild {
public:
  InteractiveBuild() {
    const char *old = std::getenv("OCLGRIND_INTERACTIVE");
    if (old)
      m_old = old;
    m_had = old != nullptr;
    setenv("OCLGRIND_INTERACTIVE", "1", 1);
  }
  ~InteractiveBuild() {
    if (m_had)
      setenv("OCLGRIND_INTERACTIVE", m_old.c_str(), 1);
    else
      unsetenv("OCLGRIND_INTERACTIVE");
  }
  InteractiveBuild(const InteractiveBuild &) = delete;
  InteractiveBuild &operator=(const InteractiveBuild &) = delete;

private:
  std::string m_old;
  bool m_had = false;
};

oclgrind::Size3 size3(const fmt::Dims &dims, std::size_t fill) {
  oclgrind::Size3 s(fill, fill, fill);
  for (unsigned i = 0; i < dims.size() && i < 3; ++i)
    s[i] = static_cast<std::size_t>(dims[i]);

  return s;
}

// Oclgrind's Logger prints every error to stderr; the monitor reports them itself (where the launch pauses
// for them, or as they happen), and a run the debugger ends early must not print Oclgrind's fatal-error text.
// The Logger reads OCLGRIND_LOG when a Context is made.
class QuietLogger {
public:
  QuietLogger() {
    if (const char *old = std::getenv("OCLGRIND_LOG"))
      m_old = old;
    setenv("OCLGRIND_LOG", "/dev/null", 1);
  }
  ~QuietLogger() {
    if (m_old)
      setenv("OCLGRIND_LOG", m_old->c_str(), 1);
    else
      unsetenv("OCLGRIND_LOG");
  }
  QuietLogger(const QuietLogger &) = delete;
  QuietLogger &operator=(const QuietLogger &) = delete;

private:
  std::optional<std::string> m_old;
};

} // namespace

InterpreterLaunch::InterpreterLaunch(const replay::LaunchPlan &plan) : m_plan(plan) {
  QuietLogger quiet;
  m_context = std::make_unique<oclgrind::Context>();
}

InterpreterLaunch::~InterpreterLaunch() {
  m_kernel.reset();
  m_program.reset();
}

fmt::Expected<std::unique_ptr<InterpreterLaunch>> InterpreterLaunch::create(const CapturedLaunch &launch) {
  return create(launch.plan, launch.source);
}

fmt::Expected<std::unique_ptr<InterpreterLaunch>> InterpreterLaunch::create(const replay::LaunchPlan &plan,
                                                                            const std::string &source) {
  std::unique_ptr<InterpreterLaunch> self(new InterpreterLaunch(plan));
  self->m_program = std::make_unique<oclgrind::Program>(self->m_context.get(), source);
  bool built = false;
  {
    InteractiveBuild interactive;
    built = self->m_program->build(oclgrind::Program::BUILD, plan.buildOptions.c_str());
  }
  if (!built)
    return fmt::fail("the kernel did not compile in Oclgrind (options '" + plan.buildOptions + "'):\n" +
                     self->m_program->getBuildLog());
  self->m_kernel.reset(self->m_program->createKernel(plan.entryPoint));
  if (!self->m_kernel) {
    auto names = self->m_program->getKernelNames();
    bool declared = std::find(names.begin(), names.end(), plan.entryPoint) != names.end();
    return fmt::fail(declared ? "Oclgrind cannot run kernel " + plan.entryPoint +
                                    " (its message above names what its interpreter lacks)"
                              : "the program has no kernel named " + plan.entryPoint);
  }

  oclgrind::Memory *global = self->m_context->getGlobalMemory();
  for (const replay::MemorySpec &m : plan.memory) {
    if (m.parent) {
      self->m_addresses.push_back(self->m_addresses.at(*m.parent) + m.origin);
      continue;
    }
    std::size_t address =
        global->allocateBuffer(m.size, m.flags, m.initial.empty() ? nullptr : m.initial.data());
    if (!address)
      return fmt::fail("Oclgrind could not allocate a buffer of " + std::to_string(m.size) + " bytes");
    self->m_addresses.push_back(address);
  }

  oclgrind::Kernel &kernel = *self->m_kernel;
  if (plan.args.size() != kernel.getNumArguments())
    return fmt::fail("the capture has " + std::to_string(plan.args.size()) + " arguments, the kernel " +
                     std::to_string(kernel.getNumArguments()));
  for (const replay::ArgPlan &arg : plan.args) {
    std::string label = "argument " + std::to_string(arg.index) + " (" + arg.name + ")";
    std::size_t size = kernel.getArgumentSize(arg.index);
    std::vector<unsigned char> bytes(size, 0);
    oclgrind::TypedValue value{static_cast<unsigned>(size), 1, bytes.data()};
    switch (arg.role) {
    case replay::ArgRole::Scalar: {
      // The capture's type name, else the one Oclgrind reads from the kernel: the value is decoded into
      // that type's size (a hand-written capture may give fewer digits than the type has bytes).
      std::optional<std::string> type = arg.typeName;
      if (!type)
        type = kernel.getArgumentTypeName(arg.index).str();
      auto decoded = replay::scalarBytes(arg.value, type, 64, plan.endianness);
      if (!decoded)
        return fmt::fail(label + ": " + decoded.error());
      if (decoded->size() != size)
        return fmt::fail(label + ": the capture holds " + std::to_string(decoded->size()) +
                         " bytes, the kernel takes " + std::to_string(size));
      std::memcpy(bytes.data(), decoded->data(), size);
      break;
    }
    case replay::ArgRole::Local:
      value.size = static_cast<unsigned>(arg.size);
      value.data = nullptr;
      break;
    case replay::ArgRole::Memory:
      value.setPointer(self->m_addresses.at(arg.memory));
      break;
    case replay::ArgRole::Null:
      value.setPointer(0);
      break;
    }
    kernel.setArgument(arg.index, value);
  }
  return self;
}

const llvm::Function &InterpreterLaunch::kernelFunction() const {
  return *m_kernel->getFunction();
}

void InterpreterLaunch::run(oclgrind::Plugin &monitor) {
  const replay::LaunchPlan &plan = m_plan;
  m_context->registerPlugin(&monitor);
  unsigned dims = static_cast<unsigned>(plan.globalSize.size());
  oclgrind::Size3 global = size3(plan.globalSize, 1);
  oclgrind::Size3 local = plan.localSize ? size3(*plan.localSize, 1) : oclgrind::Size3(1, 1, 1);
  oclgrind::Size3 offset = plan.globalOffset ? size3(*plan.globalOffset, 0) : oclgrind::Size3(0, 0, 0);
  oclgrind::KernelInvocation::run(m_context.get(), m_kernel.get(), dims, offset, global, local);
  m_context->unregisterPlugin(&monitor);
}

std::string InterpreterLaunch::argumentTypeName(unsigned index) const {
  return m_kernel->getArgumentTypeName(index).str();
}

std::vector<std::uint8_t> InterpreterLaunch::memoryBytes(std::size_t index) const {
  const replay::MemorySpec &m = m_plan.memory.at(index);
  std::vector<std::uint8_t> bytes(m.size);
  const auto *data =
      static_cast<const std::uint8_t *>(m_context->getGlobalMemory()->getPointer(m_addresses.at(index)));
  if (data)
    std::memcpy(bytes.data(), data, bytes.size());
  return bytes;
}

} // namespace clcapture::debug
