//===- SessionRewind.cpp - The session going back in time ----------------------===//
//
// reverse-step, reverse-next, reverse-continue and a finished group's work-item: the launch re-run from its
// start to an earlier moment (Timeline.h says how; DebugSession.cpp holds the commands that go forward).
//
//===----------------------------------------------------------------------===//
#include "DebugSession.h"
#include "ExpressionEvaluator.h"
#include "WorkItemView.h"

#include <KernelInvocation.h>
#include <Memory.h>
#include <WorkGroup.h>
#include <WorkItem.h>
#include <cstdio>
#include <llvm/IR/Instruction.h>
#include <stack>

namespace clcapture::debug {

void DebugSession::newInterpreter() {
  auto fresh = InterpreterLaunch::create(m_launch);
  if (!fresh) { // it was built once already: only a resource failure gets here
    m_out << "error: cannot re-run the launch: " << fresh.error() << '\n';
    endSession();
  }
  m_interpreter = std::move(*fresh);
}

DebugSession::Outcome DebugSession::rewind(Rewind::Kind kind, oclgrind::Size3 item) {
  if (m_phase != Phase::Paused || !m_monitor) {
    fail(m_phase == Phase::Before ? "the launch has not started" : "the launch has finished");
    return {};
  }
  Rewind r;
  r.kind = kind;
  r.from = m_monitor->clock();
  r.item = item;
  const oclgrind::WorkItem *current = m_monitor->invocation()->getCurrentWorkItem();
  r.depth = current ? current->getCallStack().size() : 0;
  m_rewind = r;
  return Outcome{runRequest(RunMode::Abort, 0, {}, 0, {}), false};
}

std::optional<RunRequest> DebugSession::planRewind(const Rewind &r) {
  // Watchpoints hold the memory of the run that ends here.
  for (const Watchpoint &w : m_breakpoints.watches())
    m_out << "Watchpoint " << w.number << " deleted: the launch is re-run (set it again where you stop)\n";
  m_breakpoints.watches().clear();
  // First re-run: to the present, noting the moments the target may be.
  newInterpreter();
  RunRequest scan{RunMode::Scan, 0, {}, r.from, r.item};
  std::vector<LineEntry> entries;
  std::vector<std::uint64_t> hits;
  {
    ExecutionMonitor monitor(&m_interpreter->context(), *this, scan, m_focus, m_timeline);
    m_monitor = &monitor; // breakpoint conditions read the scanned work-items' variables
    m_interpreter->run(monitor);
    m_monitor = nullptr;
    entries = monitor.scannedEntries();
    hits = monitor.scannedHits();
  }
  std::optional<std::uint64_t> target;
  switch (r.kind) {
  case Rewind::Kind::Step:
  case Rewind::Kind::Next:
    for (const LineEntry &e : entries)
      if (e.clock < r.from && (r.kind == Rewind::Kind::Step || e.depth <= r.depth))
        target = e.clock;
    break;
  case Rewind::Kind::Continue:
    for (std::uint64_t h : hits)
      if (h < r.from)
        target = h;
    break;
  case Rewind::Kind::FinishedItem:
    if (!entries.empty())
      target = entries.back().clock;
    break;
  }
  if (!target && !entries.empty() && r.kind != Rewind::Kind::FinishedItem) {
    // gdb's end of history: the work-item's first line past the kernel's prologue (else its first line).
    m_out << "No more reverse-execution history: back at work-item " << idText(r.item) << "'s first line.\n";
    target = entries.front().clock;
    for (const LineEntry &e : entries)
      if (e.function && e.line == firstLineOf(*e.function) && e.clock <= r.from) {
        target = e.clock;
        break;
      }
  }
  if (!target) {
    m_out << "No more reverse-execution history.\n";
    target = r.from;
  }
  // Second re-run: to the moment chosen, where it pauses; what the user changed after it is forgotten.
  m_timeline.truncateAfter(*target);
  newInterpreter();
  m_focus = r.item;
  return runRequest(RunMode::Replay, 0, {}, *target, {});
}

DebugSession::Outcome DebugSession::cmdReverseStep(const std::string &) {
  return rewind(Rewind::Kind::Step, m_focus);
}

DebugSession::Outcome DebugSession::cmdReverseNext(const std::string &) {
  return rewind(Rewind::Kind::Next, m_focus);
}

DebugSession::Outcome DebugSession::cmdReverseContinue(const std::string &) {
  return rewind(Rewind::Kind::Continue, m_focus);
}

} // namespace clcapture::debug
