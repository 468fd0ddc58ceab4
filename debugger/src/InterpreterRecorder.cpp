//===- InterpreterRecorder.cpp - The instrumented launch run in Oclgrind ------===//
#include "InterpreterRecorder.h"

#include "InterpreterLaunch.h"
#include "clcapture/replay/TracedLaunch.h"

#include <Memory.h>
#include <Plugin.h>
#include <cstring>
#include <fstream>
#include <sstream>

namespace clcapture::debug {

namespace fmt = clcapture::format;

namespace {

/// Fills each work-group's fresh local memory with kUninitialisedLocalByte.
class LocalMemoryPoison : public oclgrind::Plugin {
public:
  explicit LocalMemoryPoison(const oclgrind::Context *context) : oclgrind::Plugin(context) {}
  void memoryAllocated(const oclgrind::Memory *memory, std::size_t address, std::size_t size,
                       cl_mem_flags /*flags*/, const std::uint8_t *initData) override {
    if (memory->getAddressSpace() != oclgrind::AddrSpaceLocal || initData)
      return;
    if (void *bytes = memory->getPointer(address))
      std::memset(bytes, kUninitialisedLocalByte, size);
  }
  bool isThreadSafe() const override { return false; }
};

} // namespace

fmt::Expected<Recording> recordInInterpreter(const CapturedLaunch &launch, const Instrumented &instrumented,
                                             std::uint64_t traceBytes) {
  std::ifstream in(instrumented.source, std::ios::binary);
  if (!in)
    return fmt::fail("cannot read the instrumented kernel " + instrumented.source.string());
  std::ostringstream text;
  text << in.rdbuf();
  replay::LaunchPlan plan = replay::tracedPlan(launch.plan, {instrumented.source, traceBytes});
  auto interpreter = InterpreterLaunch::create(plan, text.str());
  if (!interpreter)
    return fmt::fail("Oclgrind: " + interpreter.error());
  LocalMemoryPoison poison(&(*interpreter)->context());
  (*interpreter)->run(poison);
  std::vector<std::uint8_t> trace = (*interpreter)->memoryBytes(plan.memory.size() - 1);
  RecordingOrigin origin;
  origin.device = "Oclgrind's interpreter (local memory starts as 0xA5 bytes)";
  origin.launch = launch.plan.index;
  origin.kernelSource = launch.source;
  origin.kernelFileName = launch.plan.kernelFile.filename().string();
  return Recording::decode(instrumented.layout, trace, recordedRange(launch.plan), std::move(origin));
}

} // namespace clcapture::debug
