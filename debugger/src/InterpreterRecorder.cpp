//===- InterpreterRecorder.cpp - The instrumented launch run in Oclgrind ------===//
#include "InterpreterRecorder.h"

#include "InterpreterLaunch.h"
#include "clcapture/replay/TracedLaunch.h"

#include <KernelInvocation.h>
#include <Memory.h>
#include <Plugin.h>
#include <WorkGroup.h>
#include <WorkItem.h>
#include <cstring>
#include <fstream>
#include <sstream>

namespace clcapture::debug {

namespace fmt = clcapture::format;

namespace {

/// Fills each work-group's fresh local memory with kUninitialisedLocalByte; under the reversed schedule,
/// whenever Oclgrind picks a work-item to run, switches to the group's ready work-item with the highest
/// local id instead (Oclgrind's own order is the lowest first).
class RecordingPlugin : public oclgrind::Plugin {
public:
  RecordingPlugin(const oclgrind::Context *context, Schedule schedule)
      : oclgrind::Plugin(context), m_schedule(schedule) {}
  void memoryAllocated(const oclgrind::Memory *memory, std::size_t address, std::size_t size,
                       cl_mem_flags /*flags*/, const std::uint8_t *initData) override {
    if (memory->getAddressSpace() != oclgrind::AddrSpaceLocal || initData)
      return;
    if (void *bytes = memory->getPointer(address))
      std::memset(bytes, kUninitialisedLocalByte, size);
  }
  void kernelBegin(const oclgrind::KernelInvocation *invocation) override { m_invocation = invocation; }
  // Whoever Oclgrind picks after a barrier or in a new group is a new choice.
  void workGroupBarrier(const oclgrind::WorkGroup * /*group*/, std::uint32_t /*flags*/) override {
    m_running = nullptr;
  }
  void workGroupBegin(const oclgrind::WorkGroup * /*group*/) override { m_running = nullptr; }
  void instructionExecuted(const oclgrind::WorkItem *item, const llvm::Instruction * /*instruction*/,
                           const oclgrind::TypedValue & /*result*/) override {
    if (m_schedule != Schedule::Reversed || item == m_running)
      return;
    // Oclgrind chose `item` (it has run one instruction): the highest ready work-item of its group runs now.
    const oclgrind::WorkGroup *group = item->getWorkGroup();
    oclgrind::Size3 size = group->getGroupSize();
    for (std::size_t linear = size.x * size.y * size.z; linear-- > 0;) {
      oclgrind::Size3 local(linear % size.x, (linear / size.x) % size.y, linear / (size.x * size.y));
      oclgrind::WorkItem *candidate = group->getWorkItem(local);
      if (!candidate || candidate->getState() != oclgrind::WorkItem::READY)
        continue;
      if (candidate != item)
        const_cast<oclgrind::KernelInvocation *>(m_invocation)->switchWorkItem(candidate->getGlobalID());
      m_running = candidate;
      return;
    }
    m_running = item;
  }
  bool isThreadSafe() const override { return false; }

private:
  Schedule m_schedule;
  const oclgrind::KernelInvocation *m_invocation = nullptr;
  const oclgrind::WorkItem *m_running = nullptr;
};

} // namespace

fmt::Expected<Recording> recordInInterpreter(const CapturedLaunch &launch, const Instrumented &instrumented,
                                             std::uint64_t traceBytes, Schedule schedule) {
  std::ifstream in(instrumented.source, std::ios::binary);
  if (!in)
    return fmt::fail("cannot read the instrumented kernel " + instrumented.source.string());
  std::ostringstream text;
  text << in.rdbuf();
  replay::LaunchPlan plan = replay::tracedPlan(launch.plan, {instrumented.source, traceBytes});
  auto interpreter = InterpreterLaunch::create(plan, text.str());
  if (!interpreter)
    return fmt::fail("Oclgrind: " + interpreter.error());
  RecordingPlugin plugin(&(*interpreter)->context(), schedule);
  (*interpreter)->run(plugin);
  std::vector<std::uint8_t> trace = (*interpreter)->memoryBytes(plan.memory.size() - 1);
  RecordingOrigin origin;
  origin.device = schedule == Schedule::Reversed
                      ? "Oclgrind's interpreter, each group's work-items run highest local id first"
                      : "Oclgrind's interpreter";
  origin.launch = launch.plan.index;
  origin.kernelSource = launch.source;
  origin.kernelFileName = launch.plan.kernelFile.filename().string();
  return Recording::decode(instrumented.layout, trace, recordedRange(launch.plan), std::move(origin));
}

} // namespace clcapture::debug
