//===- ExecutionMonitor.cpp - Where the interpreted launch pauses -------------===//
#include "ExecutionMonitor.h"

#include <Context.h>
#include <KernelInvocation.h>
#include <Memory.h>
#include <WorkGroup.h>
#include <WorkItem.h>
#include <cstring>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

namespace clcapture::debug {

namespace {

bool sameId(oclgrind::Size3 a, oclgrind::Size3 b) {
  return a.x == b.x && a.y == b.y && a.z == b.z;
}

bool pausesOnLines(RunMode mode) {
  return mode == RunMode::Step || mode == RunMode::Next || mode == RunMode::Finish ||
         mode == RunMode::Until || mode == RunMode::Barrier;
}

// The instruction `item` runs after `ran`, which it has just run: Oclgrind moves its position only after
// telling the plugins, so a branch's target and a call's callee are worked out here as Oclgrind will.
const llvm::Instruction *nextAfter(const oclgrind::WorkItem *item, const llvm::Instruction *ran) {
  if (item->getState() == oclgrind::WorkItem::FINISHED)
    return nullptr;
  if (const auto *call = llvm::dyn_cast<llvm::CallInst>(ran)) {
    const llvm::Function *callee = call->getCalledFunction();
    if (callee && !callee->isDeclaration())
      return &callee->getEntryBlock().front();
    return ran->getNextNode();
  }
  if (const auto *branch = llvm::dyn_cast<llvm::BranchInst>(ran)) {
    if (branch->isUnconditional())
      return &branch->getSuccessor(0)->front();
    bool taken = item->getOperand(branch->getCondition()).getUInt() != 0;
    return &branch->getSuccessor(taken ? 0 : 1)->front();
  }
  if (const auto *choice = llvm::dyn_cast<llvm::SwitchInst>(ran)) {
    std::uint64_t value = item->getOperand(choice->getCondition()).getUInt();
    for (const auto &c : choice->cases())
      if (c.getCaseValue()->getZExtValue() == value)
        return &c.getCaseSuccessor()->front();
    return &choice->getDefaultDest()->front();
  }
  if (llvm::isa<llvm::ReturnInst>(ran))
    return item->getCurrentInstruction()->getNextNode(); // Oclgrind is back at the call
  return ran->getNextNode();
}

} // namespace

std::vector<const oclgrind::WorkItem *> workItemsOf(const oclgrind::WorkGroup &group) {
  std::vector<const oclgrind::WorkItem *> items;
  oclgrind::Size3 size = group.getGroupSize();
  for (std::size_t z = 0; z < size.z; ++z)
    for (std::size_t y = 0; y < size.y; ++y)
      for (std::size_t x = 0; x < size.x; ++x)
        if (const oclgrind::WorkItem *item = group.getWorkItem(oclgrind::Size3(x, y, z)))
          items.push_back(item);
  return items;
}

ExecutionMonitor::ExecutionMonitor(const oclgrind::Context *context, StopHandler &handler, RunRequest first,
                                   oclgrind::Size3 focus, Timeline &timeline)
    : oclgrind::Plugin(context), m_handler(handler), m_request(std::move(first)), m_focus(focus),
      m_timeline(timeline) {
  m_handler.scanning(m_request.mode == RunMode::Scan);
}

bool ExecutionMonitor::silent() const {
  return m_request.mode == RunMode::Scan || m_request.mode == RunMode::Replay || m_aborting;
}

void ExecutionMonitor::tick() {
  ++m_clock;
  const auto &actions = m_timeline.actions();
  while (m_nextAction < actions.size() && actions[m_nextAction].clock <= m_clock) {
    const TimelineAction &a = actions[m_nextAction++];
    if (a.clock != m_clock)
      continue;
    if (a.kind == TimelineAction::Kind::Focus) {
      std::string ignored;
      oclgrind::Size3 keep = m_focus;
      focusOn(a.id, ignored);
      if (silent())
        m_focus = keep; // a re-run pauses on the work-item it was asked for

      continue;
    }
    const oclgrind::WorkItem *item = m_invocation->getCurrentWorkItem();
    oclgrind::Memory *memory = a.space == AddressSpace::Private ? item->getPrivateMemory()
                               : a.space == AddressSpace::Local ? item->getWorkGroup()->getLocalMemory()
                                                                : m_context->getGlobalMemory();
    if (memory->isAddressValid(a.address, a.bytes.size()))
      std::memcpy(memory->getPointer(a.address), a.bytes.data(), a.bytes.size());
  }
}

void ExecutionMonitor::recordWrite(AddressSpace space, std::size_t address, std::vector<std::uint8_t> bytes) {
  TimelineAction a;
  a.clock = m_clock;
  a.kind = TimelineAction::Kind::Write;
  a.space = space;
  a.address = address;
  a.bytes = std::move(bytes);
  m_timeline.record(std::move(a));
  m_nextAction = m_timeline.actions().size();
}

void ExecutionMonitor::kernelBegin(const oclgrind::KernelInvocation *invocation) {
  m_invocation = invocation;
  oclgrind::Size3 groups = invocation->getNumGroups();
  m_groupDone.assign(groups.x * groups.y * groups.z, false);
}

void ExecutionMonitor::kernelEnd(const oclgrind::KernelInvocation *) {
  m_items.clear();
  m_lastItem = nullptr;
  m_invocation = nullptr;
}

bool ExecutionMonitor::isFocus(const oclgrind::WorkItem *item) const {
  return sameId(item->getGlobalID(), m_focus);
}

ItemTrace &ExecutionMonitor::traceFor(const oclgrind::WorkItem *item) {
  // A work-item runs many instructions in a row: the last one's trace is asked for first.
  if (item != m_lastItem) {
    m_lastTrace = &m_items[item];
    m_lastItem = item;
  }
  return *m_lastTrace;
}

const std::vector<const llvm::DbgDeclareInst *> &
ExecutionMonitor::declaresOf(const llvm::Function &function) const {
  auto [it, fresh] = m_declares.try_emplace(&function);
  if (fresh)
    for (const llvm::Instruction &instruction : llvm::instructions(function))
      if (const auto *declare = llvm::dyn_cast<llvm::DbgDeclareInst>(&instruction))
        if (declare->getAddress() && (llvm::isa<llvm::AllocaInst>(declare->getAddress()) ||
                                      llvm::isa<llvm::Argument>(declare->getAddress())))
          it->second.push_back(declare);
  return it->second;
}

const ItemTrace *ExecutionMonitor::traceOf(const oclgrind::WorkItem *item) const {
  auto it = m_items.find(item);
  return it == m_items.end() ? nullptr : &it->second;
}

const llvm::Instruction *ExecutionMonitor::nextOf(const oclgrind::WorkItem *item) const {
  if (item == m_pausedItem)
    return m_pausedNext;
  if (item->getState() == oclgrind::WorkItem::FINISHED)
    return nullptr;
  return item->getCurrentInstruction();
}

void ExecutionMonitor::workItemBegin(const oclgrind::WorkItem *item) {
  tick();
  if (m_request.mode == RunMode::ToEnd)
    return;
  ItemTrace &trace = traceFor(item);
  const llvm::Instruction *first = item->getCurrentInstruction();
  SourceLocation where = locationOf(first);
  if (m_request.mode == RunMode::Replay && m_clock == m_request.clock) {
    Stop stop;
    stop.item = item;
    stop.next = first;
    stop.where = where;
    pause(std::move(stop));
    return;
  }
  if (where.known()) {
    trace.last = where;
    considerStop(item, first, where, 0, true);
  }
  if (m_request.mode == RunMode::Scan && m_clock >= m_request.clock)
    pause(Stop{});
}

void ExecutionMonitor::instructionExecuted(const oclgrind::WorkItem *item,
                                           const llvm::Instruction *instruction,
                                           const oclgrind::TypedValue &) {
  tick();
  if (m_request.mode == RunMode::ToEnd) {
    // To the end: nothing pauses any more (`run` ignores breakpoints and watches), so no line is followed —
    // this is most instructions of a long launch. Oclgrind's errors are still told.
    if (!m_error.empty()) {
      m_handler.reported(m_error);
      m_error.clear();
    }
    return;
  }
  ItemTrace &trace = traceFor(item);
  ++trace.steps;

  if (m_firstItem) {
    // The focus may not be the first work-item Oclgrind runs: switch to it before anything else runs (a
    // re-run takes the switch from the timeline).
    m_firstItem = false;
    std::string ignored;
    if (pausesOnLines(m_request.mode) && !isFocus(item) && !silent())
      focusOn(m_focus, ignored);
  }

  if (instruction->getDebugLoc())
    trace.lastLocated = instruction;
  const llvm::Instruction *next = nextAfter(item, instruction);
  std::size_t depth = item->getCallStack().size();
  if (silent()) {
    // A re-run keeps each work-item's line as a live run does, so that its pause and what follows match.
    SourceLocation where = locationOf(next);
    bool entered = next && enterLine(trace, where, depth);
    if (entered && m_request.mode == RunMode::Scan)
      considerStop(item, next, where, depth, true);
  }
  if (m_request.mode == RunMode::Replay && m_clock == m_request.clock) {
    Stop stop;
    stop.kind = next ? StopKind::Step : StopKind::WorkItemFinished;
    stop.item = item;
    stop.next = next;
    stop.where = next ? locationOf(next) : trace.last;
    m_error.clear();
    pause(std::move(stop));
    return;
  }
  if (silent()) {
    m_error.clear();
    if (m_request.mode == RunMode::Scan && m_clock >= m_request.clock)
      pause(Stop{});
    return;
  }
  if (m_pendingAccess) {
    Stop stop;
    stop.kind = StopKind::Access;
    stop.item = item;
    stop.next = next;
    stop.where = locationOf(instruction);
    stop.breakpoint = m_pendingAccess;
    m_pendingAccess = 0;
    m_focus = item->getGlobalID();
    pause(std::move(stop));
    return;
  }
  if (m_handler.watching() && instruction->mayWriteToMemory()) {
    if (auto number = m_handler.watchHit(*item)) {
      Stop stop;
      stop.kind = StopKind::Watchpoint;
      stop.item = item;
      stop.next = next;
      stop.where = locationOf(instruction);
      stop.breakpoint = *number;
      m_focus = item->getGlobalID();
      pause(std::move(stop));
      return;
    }
  }
  if (m_request.mode == RunMode::Barrier && item->getWorkGroup() &&
      (item->getState() == oclgrind::WorkItem::BARRIER || !next)) {
    const oclgrind::WorkItem *focusItem = m_invocation->getCurrentWorkItem();
    bool allFinished = false;
    if (groupAtBarrier(*item->getWorkGroup(), allFinished) && focusItem &&
        focusItem->getWorkGroup() == item->getWorkGroup()) {
      Stop stop;
      stop.kind = allFinished ? StopKind::GroupFinished : StopKind::GroupAtBarrier;
      stop.item = item;
      stop.next = next;
      stop.where = locationOf(instruction);
      std::string ignored;
      oclgrind::Size3 focus = m_focus;
      focusOn(focus, ignored); // the focus, not the last to arrive, is the work-item the user looks at
      pause(std::move(stop));
      return;
    }
  }
  if (!m_error.empty()) {
    Stop stop;
    stop.kind = StopKind::Error;
    stop.item = item;
    stop.next = next;
    stop.where = locationOf(next ? next : instruction);
    stop.message = std::move(m_error);
    m_error.clear();
    m_focus = item->getGlobalID();
    pause(std::move(stop));
    return;
  }
  if (!next) {
    if (isFocus(item) && pausesOnLines(m_request.mode) && m_request.mode != RunMode::Barrier) {
      Stop stop;
      stop.kind = StopKind::WorkItemFinished;
      stop.item = item;
      stop.where = trace.last;
      pause(std::move(stop));
    }
    return;
  }
  if (item->getState() == oclgrind::WorkItem::BARRIER && isFocus(item) && pausesOnLines(m_request.mode) &&
      m_request.mode != RunMode::Barrier) {
    Stop stop;
    stop.kind = StopKind::Barrier;
    stop.item = item;
    stop.next = next;
    stop.where = locationOf(instruction);
    pause(std::move(stop));
    return;
  }
  SourceLocation where = locationOf(next);
  bool entered = enterLine(trace, where, depth);
  considerStop(item, next, where, depth, entered);
}

bool ExecutionMonitor::enterLine(ItemTrace &trace, const SourceLocation &where, std::size_t depth) {
  if (!where.known())
    return false;
  bool entered = where.line != trace.last.line || where.file != trace.last.file ||
                 where.function != trace.last.function || depth != trace.lastDepth;
  trace.last = where;
  trace.lastDepth = depth;
  return entered;
}

void ExecutionMonitor::considerStop(const oclgrind::WorkItem *item, const llvm::Instruction *next,
                                    const SourceLocation &where, std::size_t depth, bool enteredLine) {
  if (m_request.mode == RunMode::ToEnd || m_request.mode == RunMode::Replay)
    return;
  if (m_request.mode == RunMode::Scan) {
    if (enteredLine && sameId(item->getGlobalID(), m_request.tracked))
      m_entries.push_back({m_clock, depth, where.line, where.function});
    if (enteredLine && m_handler.breakpointAt(*item, *next, where))
      m_hits.push_back(m_clock);
    return;
  }
  Stop stop;
  stop.item = item;
  stop.next = next;
  stop.where = where;
  if (enteredLine) {
    if (auto number = m_handler.breakpointAt(*item, *next, where)) {
      stop.kind = StopKind::Breakpoint;
      stop.breakpoint = *number;
      m_focus = item->getGlobalID();
      pause(std::move(stop));
      return;
    }
  }
  if (!isFocus(item))
    return;
  bool now = false;
  switch (m_request.mode) {
  case RunMode::Step:
    now = enteredLine;
    break;
  case RunMode::Next:
    now = enteredLine && depth <= m_startDepth;
    break;
  case RunMode::Finish:
    now = depth < m_startDepth;
    break;
  case RunMode::Until:
    now = (enteredLine && depth == m_startDepth && where.line == m_request.line &&
           where.file == m_request.file) ||
          depth < m_startDepth;
    break;
  case RunMode::Barrier:
  case RunMode::Continue:
  case RunMode::ToEnd:
  case RunMode::Abort:
  case RunMode::Scan:
  case RunMode::Replay:
    break;
  }
  if (now)
    pause(std::move(stop));
}

void ExecutionMonitor::pause(Stop stop) {
  if (m_request.mode == RunMode::Scan) {
    // The scan has reached the present: end the run (Oclgrind's worker ends a launch on a FatalError).
    m_aborting = true;
    throw oclgrind::FatalError("clcapture-debug: the scan reached the present", "clcapture-debug", 0);
  }
  m_pausedItem = stop.item;
  m_pausedNext = stop.next;
  m_request = m_handler.stopped(stop);
  m_handler.scanning(false);
  if (m_request.mode == RunMode::Abort) {
    m_aborting = true;
    throw oclgrind::FatalError("clcapture-debug: the launch is re-run", "clcapture-debug", 0);
  }
  const oclgrind::WorkItem *focus = m_invocation ? m_invocation->getCurrentWorkItem() : nullptr;
  m_startDepth = focus ? focus->getCallStack().size() : 0;
  m_pausedItem = nullptr;
  m_pausedNext = nullptr;
}

bool ExecutionMonitor::focusOn(oclgrind::Size3 globalId, std::string &why) {
  if (!m_invocation) {
    m_focus = globalId;
    return true;
  }
  oclgrind::Size3 global = m_invocation->getGlobalSize();
  oclgrind::Size3 offset = m_invocation->getGlobalOffset();
  oclgrind::Size3 local = m_invocation->getLocalSize();
  oclgrind::Size3 relative;
  for (unsigned d = 0; d < 3; ++d) {
    if (globalId[d] < offset[d] || globalId[d] - offset[d] >= global[d]) {
      why = "no work-item has that global id (the NDRange is " + std::to_string(global.x) + " × " +
            std::to_string(global.y) + " × " + std::to_string(global.z) + ")";
      return false;
    }
    relative[d] = globalId[d] - offset[d];
  }
  oclgrind::Size3 group(relative.x / local.x, relative.y / local.y, relative.z / local.z);
  if (groupFinished(group)) {
    why = "its work-group (" + std::to_string(group.x) + ", " + std::to_string(group.y) + ", " +
          std::to_string(group.z) + ") has finished";
    return false;
  }
  if (!const_cast<oclgrind::KernelInvocation *>(m_invocation)->switchWorkItem(relative)) {
    why = "Oclgrind cannot switch to it";
    return false;
  }
  m_focus = globalId;
  if (!silent()) {
    // A switch changes Oclgrind's schedule: a re-run must make it at the same moment.
    TimelineAction a;
    a.clock = m_clock;
    a.kind = TimelineAction::Kind::Focus;
    a.id = globalId;
    m_timeline.record(std::move(a));
    m_nextAction = m_timeline.actions().size();
  }
  return true;
}

bool ExecutionMonitor::inFinishedGroup(oclgrind::Size3 globalId) const {
  if (!m_invocation)
    return false;
  oclgrind::Size3 offset = m_invocation->getGlobalOffset();
  oclgrind::Size3 local = m_invocation->getLocalSize();
  oclgrind::Size3 group;
  for (unsigned d = 0; d < 3; ++d) {
    if (globalId[d] < offset[d])
      return false;
    group[d] = (globalId[d] - offset[d]) / local[d];
  }
  return groupFinished(group);
}

bool ExecutionMonitor::groupFinished(oclgrind::Size3 group) const {
  if (!m_invocation)
    return false;
  oclgrind::Size3 groups = m_invocation->getNumGroups();
  std::size_t index = group.x + group.y * groups.x + group.z * groups.x * groups.y;
  return index < m_groupDone.size() && m_groupDone[index];
}

bool ExecutionMonitor::groupAtBarrier(const oclgrind::WorkGroup &group, bool &allFinished) const {
  allFinished = true;
  for (const oclgrind::WorkItem *other : workItemsOf(group)) {
    oclgrind::WorkItem::State state = other->getState();
    if (state != oclgrind::WorkItem::FINISHED)
      allFinished = false;
    if (state == oclgrind::WorkItem::READY)
      return false;
  }
  return true;
}

void ExecutionMonitor::workGroupComplete(const oclgrind::WorkGroup *group) {
  m_handler.groupEnding(*group);
  oclgrind::Size3 id = group->getGroupID();
  oclgrind::Size3 groups = m_invocation->getNumGroups();
  std::size_t index = id.x + id.y * groups.x + id.z * groups.x * groups.y;
  if (index < m_groupDone.size() && !m_groupDone[index]) {
    m_groupDone[index] = true;
    ++m_finishedGroups;
  }
  for (const oclgrind::WorkItem *item : workItemsOf(*group))
    m_items.erase(item);
  m_lastItem = nullptr; // its work-items are gone, and a new one may take the same address
}

void ExecutionMonitor::noteAccess(const oclgrind::Memory *memory, const oclgrind::WorkItem *item, bool write,
                                  std::size_t address, std::size_t size) {
  if (!item || !memory || silent() || m_request.mode == RunMode::ToEnd || !m_handler.watchingAccesses())
    return;
  if (auto access = m_handler.accessAt(*item, write, *memory, address, size))
    m_pendingAccess = *access;
}

void ExecutionMonitor::memoryLoad(const oclgrind::Memory *memory, const oclgrind::WorkItem *item,
                                  std::size_t address, std::size_t size) {
  noteAccess(memory, item, false, address, size);
}

void ExecutionMonitor::memoryStore(const oclgrind::Memory *memory, const oclgrind::WorkItem *item,
                                   std::size_t address, std::size_t size, const std::uint8_t *) {
  noteAccess(memory, item, true, address, size);
}

void ExecutionMonitor::memoryAtomicLoad(const oclgrind::Memory *memory, const oclgrind::WorkItem *item,
                                        oclgrind::AtomicOp, std::size_t address, std::size_t size) {
  noteAccess(memory, item, false, address, size);
}

void ExecutionMonitor::memoryAtomicStore(const oclgrind::Memory *memory, const oclgrind::WorkItem *item,
                                         oclgrind::AtomicOp, std::size_t address, std::size_t size) {
  noteAccess(memory, item, true, address, size);
}

void ExecutionMonitor::log(oclgrind::MessageType type, const char *message) {
  if (m_aborting || !message)
    return;
  if (std::strncmp(message, "OCLGRIND FATAL ERROR", 20) == 0) {
    m_fatal = message; // the worker ends the launch after this
    return;
  }
  if (silent())
    return;
  if (type == oclgrind::ERROR)
    m_error = message;
  else if (type == oclgrind::WARNING)
    m_handler.reported(message);
}

} // namespace clcapture::debug
