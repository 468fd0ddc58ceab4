//===- ExecutionMonitor.h - Where the interpreted launch pauses --*- C++ -*-===//
//
// An Oclgrind plugin that watches every instruction of every work-item and pauses the launch where the user
// asked: the focused work-item entering another line (step), another line of its own frame or a caller's
// (next), leaving its frame (finish), a line (until); any work-item at a breakpoint; the focused work-item
// waiting at a barrier or finishing. A pause calls the StopHandler on Oclgrind's worker thread, before the
// next instruction runs (gdb's habit: the line shown has not run yet); its answer says how to go on.
//
// Oclgrind runs one work-item at a time until it finishes or reaches a barrier; the launch runs on one worker
// thread because this plugin is not thread-safe (Oclgrind's own rule for its debugger). Focusing another
// work-item switches Oclgrind to it (KernelInvocation::switchWorkItem), which starts its group if needed.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "SourceLocation.h"
#include "Timeline.h"

#include <Plugin.h>
#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace llvm {
class DbgDeclareInst;
class DILocalVariable;
class Function;
class Instruction;
class Value;
} // namespace llvm

namespace oclgrind {
class KernelInvocation;
class WorkGroup;
class WorkItem;
} // namespace oclgrind

namespace clcapture::debug {

/// What the monitor knows of one work-item of a running group.
struct ItemTrace {
  SourceLocation last;       ///< the line it is in
  std::size_t lastDepth = 0; ///< its call depth there
  std::size_t steps = 0;     ///< instructions it has executed
  const llvm::Instruction *lastLocated =
      nullptr; ///< the last instruction with a line it ran (scopes once finished)
};

enum class StopKind {
  Step,
  Breakpoint,
  Watchpoint,
  Access,
  Barrier,
  GroupAtBarrier,
  GroupFinished,
  WorkItemFinished,
  Error
};

struct Stop {
  StopKind kind = StopKind::Step;
  const oclgrind::WorkItem *item = nullptr;
  const llvm::Instruction *next = nullptr; ///< what the item runs next; nullptr when it has finished
  SourceLocation where;                    ///< next's location
  int breakpoint = 0;  ///< StopKind::Breakpoint and Watchpoint: its number; Access: the witness access (1, 2)
  std::string message; ///< StopKind::Error: what Oclgrind reported
};

/// Barrier: until every work-item of the focused one's group waits at a barrier (or has finished).
/// Abort: end this run now (a rewind follows). Scan: run silently to `clock`, noting `tracked`'s line entries
/// and the breakpoints' hits. Replay: run silently to `clock` and pause there.
enum class RunMode { Step, Next, Finish, Until, Barrier, Continue, ToEnd, Abort, Scan, Replay };

struct RunRequest {
  RunMode mode = RunMode::Continue;
  unsigned line = 0;       ///< RunMode::Until
  std::string file;        ///< RunMode::Until: "" for the kernel file
  std::uint64_t clock = 0; ///< RunMode::Scan and Replay: the moment to run to
  oclgrind::Size3 tracked; ///< RunMode::Scan: the work-item whose line entries are noted
};

/// The work-items of a running group, in Oclgrind's order (x fastest).
std::vector<const oclgrind::WorkItem *> workItemsOf(const oclgrind::WorkGroup &group);

inline RunRequest runRequest(RunMode mode, unsigned line = 0, std::string file = {}, std::uint64_t clock = 0,
                             oclgrind::Size3 tracked = {}) {
  RunRequest r;
  r.mode = mode;
  r.line = line;
  r.file = std::move(file);
  r.clock = clock;
  r.tracked = tracked;
  return r;
}

class StopHandler {
public:
  virtual ~StopHandler() = default;
  /// The launch is paused at `stop`; the answer says how it goes on.
  virtual RunRequest stopped(const Stop &stop) = 0;
  /// Whether a breakpoint stops `item` about to run `next` at `where`: its number, else nullopt.
  virtual std::optional<int> breakpointAt(const oclgrind::WorkItem &item, const llvm::Instruction &next,
                                          const SourceLocation &where) = 0;
  /// Whether `item`'s instruction that may write memory has changed a watched location: its number, else
  /// nullopt (the handler keeps the watched bytes and reports old and new values).
  virtual std::optional<int> watchHit(const oclgrind::WorkItem &item) = 0;
  /// Whether any watchpoint is set (the monitor asks watchHit only then).
  virtual bool watching() const = 0;
  /// The group's memories are about to go away (its local memory, its work-items' private memories).
  virtual void groupEnding(const oclgrind::WorkGroup &group) = 0;
  /// An error or warning Oclgrind reported where the launch does not pause for it.
  virtual void reported(const std::string &message) = 0;
  /// Whether the handler waits for a finding's witness accesses (the monitor reports loads and stores then).
  virtual bool watchingAccesses() const = 0;
  /// A load or store `item` has just made: the witness access it is (1, 2, …), else nullopt.
  virtual std::optional<int> accessAt(const oclgrind::WorkItem &item, bool write,
                                      const oclgrind::Memory &memory, std::size_t address,
                                      std::size_t size) = 0;
  /// Whether the handler is only being asked (a scan): breakpoints then count no hits and print nothing.
  virtual void scanning(bool on) = 0;
};

class ExecutionMonitor : public oclgrind::Plugin {
public:
  ExecutionMonitor(const oclgrind::Context *context, StopHandler &handler, RunRequest first,
                   oclgrind::Size3 focus, Timeline &timeline);

  bool isThreadSafe() const override { return false; }
  void kernelBegin(const oclgrind::KernelInvocation *invocation) override;
  void kernelEnd(const oclgrind::KernelInvocation *invocation) override;
  void workItemBegin(const oclgrind::WorkItem *item) override;
  void instructionExecuted(const oclgrind::WorkItem *item, const llvm::Instruction *instruction,
                           const oclgrind::TypedValue &result) override;
  void workGroupComplete(const oclgrind::WorkGroup *group) override;
  void log(oclgrind::MessageType type, const char *message) override;
  void memoryLoad(const oclgrind::Memory *memory, const oclgrind::WorkItem *item, std::size_t address,
                  std::size_t size) override;
  void memoryStore(const oclgrind::Memory *memory, const oclgrind::WorkItem *item, std::size_t address,
                   std::size_t size, const std::uint8_t *data) override;
  void memoryAtomicLoad(const oclgrind::Memory *memory, const oclgrind::WorkItem *item, oclgrind::AtomicOp op,
                        std::size_t address, std::size_t size) override;
  void memoryAtomicStore(const oclgrind::Memory *memory, const oclgrind::WorkItem *item,
                         oclgrind::AtomicOp op, std::size_t address, std::size_t size) override;

  // While stopped (called by the StopHandler):
  const oclgrind::KernelInvocation *invocation() const { return m_invocation; }
  /// The trace of a work-item of a running group (nullptr: not begun yet).
  const ItemTrace *traceOf(const oclgrind::WorkItem *item) const;
  /// The function's llvm.dbg.declare records whose storage is an alloca or an argument (its variables), found
  /// once per function and run.
  const std::vector<const llvm::DbgDeclareInst *> &declaresOf(const llvm::Function &function) const;
  /// What `item` runs next: for the item that is paused, the instruction after the one it just ran.
  const llvm::Instruction *nextOf(const oclgrind::WorkItem *item) const;
  oclgrind::Size3 focus() const { return m_focus; }
  /// Makes the work-item with this global id the focus (Oclgrind runs it next); false with the reason.
  bool focusOn(oclgrind::Size3 globalId, std::string &why);
  /// Whether every work-item of the group with this id has finished.
  bool groupFinished(oclgrind::Size3 group) const;
  /// Whether the work-item with this global id is in a group that has finished.
  bool inFinishedGroup(oclgrind::Size3 globalId) const;
  /// Work-items that have finished, groups done.
  std::size_t finishedGroups() const { return m_finishedGroups; }
  /// Oclgrind's fatal error that ended the launch early (an unsupported built-in, …); empty when none.
  const std::string &fatalError() const { return m_fatal; }
  /// The moment now (ticks: work-items begun and instructions run so far).
  std::uint64_t clock() const { return m_clock; }
  /// Notes memory the user wrote now (`set var`), so that a re-run writes it again at this moment.
  void recordWrite(AddressSpace space, std::size_t address, std::vector<std::uint8_t> bytes);
  /// After a scan: the tracked work-item's line entries, and the moments a breakpoint stopped a work-item.
  const std::vector<LineEntry> &scannedEntries() const { return m_entries; }
  const std::vector<std::uint64_t> &scannedHits() const { return m_hits; }

private:
  /// Whether the work-item enters another line at `where` (the trace then holds it as its line).
  static bool enterLine(ItemTrace &trace, const SourceLocation &where, std::size_t depth);
  void considerStop(const oclgrind::WorkItem *item, const llvm::Instruction *next,
                    const SourceLocation &where, std::size_t depth, bool enteredLine);
  void pause(Stop stop);
  bool groupAtBarrier(const oclgrind::WorkGroup &group, bool &allFinished) const;
  bool isFocus(const oclgrind::WorkItem *item) const;
  ItemTrace &traceFor(const oclgrind::WorkItem *item);
  /// One tick: the user's changes of this moment applied again (a re-run), the end of a scan or replay.
  void tick();
  bool silent() const;
  void noteAccess(const oclgrind::Memory *memory, const oclgrind::WorkItem *item, bool write,
                  std::size_t address, std::size_t size);

  StopHandler &m_handler;
  RunRequest m_request;
  oclgrind::Size3 m_focus;
  std::size_t m_startDepth = 0;
  const oclgrind::KernelInvocation *m_invocation = nullptr;
  std::unordered_map<const oclgrind::WorkItem *, ItemTrace> m_items;
  const oclgrind::WorkItem *m_lastItem = nullptr; ///< traceFor's last answer (node addresses are stable)
  ItemTrace *m_lastTrace = nullptr;
  mutable std::unordered_map<const llvm::Function *, std::vector<const llvm::DbgDeclareInst *>> m_declares;
  const oclgrind::WorkItem *m_pausedItem = nullptr;
  const llvm::Instruction *m_pausedNext = nullptr;
  std::vector<bool> m_groupDone; ///< by group index (x + y·nx + z·nx·ny)
  std::size_t m_finishedGroups = 0;
  std::string m_error; ///< an error Oclgrind reported since the last instruction
  bool m_firstItem = true;
  Timeline &m_timeline;
  std::size_t m_nextAction = 0; ///< the first of m_timeline's actions not yet applied in this run
  std::uint64_t m_clock = 0;
  bool m_aborting = false;
  std::string m_fatal;
  int m_pendingAccess = 0; ///< a witness access the instruction running now made
  std::vector<LineEntry> m_entries;
  std::vector<std::uint64_t> m_hits;
};

} // namespace clcapture::debug
