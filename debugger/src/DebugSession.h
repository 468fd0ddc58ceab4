//===- DebugSession.h - gdb's commands on one captured launch --*- C++ -*-===//
//
// The session reads commands (CommandInput) and answers them on `out`: before the launch starts (breakpoints,
// focus, list), at every pause of the interpreted launch (ExecutionMonitor calls stopped() on Oclgrind's
// worker thread), and after its end (compare the outputs with the capture's, x/N an argument's buffer).
// Commands take gdb's names, abbreviations and habits; `help` lists them. A command that fails prints one
// `error:` line; in a script the session then ends with exit status 1 after its last command.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Breakpoints.h"
#include "CapturedLaunch.h"
#include "CommandInput.h"
#include "DapTarget.h"
#include "ExecutionMonitor.h"
#include "FindingWitness.h"
#include "InterpreterLaunch.h"
#include "ValueFormat.h"
#include "WorkItemView.h"

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace clcapture::debug {

class DebugSession : public StopHandler, public DapTarget {
public:
  /// The exit status when Oclgrind could not run the launch to its end (an unsupported built-in, …).
  static constexpr int kExitEndedEarly = 3;

  DebugSession(const CapturedLaunch &launch, std::unique_ptr<InterpreterLaunch> interpreter,
               CommandInput &input, std::ostream &out);

  /// After the launch, write each buffer argument to DIR/<index>/arg<N>.bin (clcapture-replay --output's
  /// layout, so the two can be compared file by file).
  void writeOutputsTo(std::filesystem::path folder) { m_outputFolder = std::move(folder); }

  /// After each command, how long it took (to the next prompt: a step's time to its stop), as gdb's
  /// `maintenance time` does; bench/debug_step_latency.py reads it.
  void timeCommands(bool on) { m_timeCommands = on; }

  /// Runs the whole session: commands before the launch, the launch with its pauses, commands after it.
  /// Returns the process exit status.
  int run();

  RunRequest stopped(const Stop &stop) override;
  std::optional<int> breakpointAt(const oclgrind::WorkItem &item, const llvm::Instruction &next,
                                  const SourceLocation &where) override;
  std::optional<int> watchHit(const oclgrind::WorkItem &item) override;
  bool watching() const override { return !m_breakpoints.watches().empty(); }
  void groupEnding(const oclgrind::WorkGroup &group) override;
  void reported(const std::string &message) override;
  bool watchingAccesses() const override { return m_witness.has_value(); }
  std::optional<int> accessAt(const oclgrind::WorkItem &item, bool write, const oclgrind::Memory &memory,
                              std::size_t address, std::size_t size) override;

  // For a front end that is not a terminal (the DAP server): one command's output, and the state around it.
  /// Runs a command that does not move the launch (break, delete, watch, print, set var, info, backtrace) and
  /// gives back what it printed; `failed` says whether it printed an error.
  std::string runQuietly(const std::string &line, bool &failed) override;
  bool finished() const override { return m_phase == Phase::Finished; }
  bool started() const override { return m_phase != Phase::Before; }
  std::string stopReason() const override;
  std::string focusName() const override { return "work-item " + idText(m_focus); }
  std::filesystem::path kernelFile() const override { return m_launch.plan.kernelFile; }
  std::optional<StopKind> lastStop() const { return m_lastStop; }
  oclgrind::Size3 focus() const { return m_focus; }
  std::string idText(oclgrind::Size3 id) const;
  const CapturedLaunch &launch() const { return m_launch; }

  /// Sets the session up on a finding's witness: the focus on its first work-item, a stop at each of its
  /// accesses (the very load or store, on the bytes the finding names), the values printed there.
  void followFinding(FindingWitness witness);
  void scanning(bool on) override { m_scanning = on; }

private:
  enum class Phase { Before, Paused, Finished };
  /// What a command asks of the launch: nothing (keep reading), go on, or end the session.
  struct Outcome {
    std::optional<RunRequest> resume;
    bool quit = false;
  };
  using Handler = Outcome (DebugSession::*)(const std::string &arguments);
  struct Command {
    std::string name;
    std::vector<std::string> aliases;
    Handler handler;
    std::string help;
  };

  /// Reads and runs commands until one resumes the launch or ends the session.
  Outcome commandLoop();
  Outcome execute(const std::string &line);
  const Command *lookup(const std::string &word, std::string &why) const;
  void fail(const std::string &message);
  [[noreturn]] void endSession();

  void describeStop(const Stop &stop);
  void describeAccess(const Stop &stop);
  /// The finding's array for this work-item: where it starts, its element type, the memory it is in.
  struct WitnessMemory {
    Place base;
    const llvm::DIType *element = nullptr;
    const oclgrind::Memory *memory = nullptr;
  };
  std::optional<WitnessMemory> witnessMemory(const oclgrind::WorkItem &item) const;
  void printSourceLine(const SourceLocation &where);
  const std::vector<std::string> *sourceLines(const std::string &file);
  std::string fileShown(const std::string &file) const;
  std::unique_ptr<WorkItemView> focusView() const;
  std::optional<RunRequest> resumeOrRefuse(RunRequest request);
  /// How a step starts a work-item that has not run yet: to its kernel's first line past the prologue.
  RunRequest startRequest() const;
  bool focusHasBegun() const;
  /// EXPR's value in the focused work-item (the view it was read through kept with it); nullopt after an
  /// `error:` line (a malformed expression, a name that names nothing, `needsPause` when none is paused).
  struct Evaluated {
    std::unique_ptr<WorkItemView> view;
    Value value;
  };
  std::optional<Evaluated>
  evaluateFocused(const std::string &expression,
                  const std::string &needsPause =
                      "no work-item is paused (start the launch with step, next or a breakpoint "
                      "and continue)");
  std::optional<std::string> evaluateText(const std::string &expression, NumberFormat format);

  Outcome cmdHelp(const std::string &a);
  Outcome cmdBreak(const std::string &a);
  Outcome cmdTbreak(const std::string &a);
  Outcome cmdDelete(const std::string &a);
  Outcome cmdInfo(const std::string &a);
  Outcome cmdRun(const std::string &a);
  Outcome cmdContinue(const std::string &a);
  /// `step [N]` and `next [N]`: N stops of `mode`.
  Outcome stepLines(RunMode mode, const std::string &name, const std::string &arguments);
  Outcome cmdStep(const std::string &a);
  Outcome cmdNext(const std::string &a);
  Outcome cmdFinish(const std::string &a);
  Outcome cmdUntil(const std::string &a);
  Outcome cmdBarrier(const std::string &a);
  Outcome cmdReverseStep(const std::string &a);
  Outcome cmdReverseNext(const std::string &a);
  Outcome cmdReverseContinue(const std::string &a);
  Outcome cmdWatch(const std::string &a);
  Outcome cmdPrintAll(const std::string &a);
  Outcome cmdWorkitem(const std::string &a);
  Outcome cmdWorkgroup(const std::string &a);
  Outcome cmdPrint(const std::string &a);
  Outcome cmdSet(const std::string &a);
  Outcome cmdBacktrace(const std::string &a);
  Outcome cmdList(const std::string &a);
  Outcome cmdExamine(const std::string &a);
  Outcome cmdCompare(const std::string &a);
  Outcome cmdQuit(const std::string &a);

  void writeOutputs();
  /// Going back: where to, decided after a scan of the launch up to now.
  struct Rewind {
    enum class Kind { Step, Next, Continue, FinishedItem };
    Kind kind = Kind::Step;
    std::uint64_t from = 0; ///< the present
    oclgrind::Size3 item;   ///< whose line entries the scan notes
    std::size_t depth = 0;  ///< reverse-next: the present's call depth
  };
  Outcome rewind(Rewind::Kind kind, oclgrind::Size3 item);
  /// Runs the two re-runs of a rewind; the request that takes the launch to the moment chosen.
  std::optional<RunRequest> planRewind(const Rewind &r);
  void newInterpreter();
  void infoLocals(bool arguments);
  /// The focused work-item's names by the memory they are in (private, local, global), with the first
  /// elements of each kernel argument's buffer under the memory it points into (the DAP server's scopes).
  void infoMemory();
  void infoWorkitems();
  void infoBreakpoints();
  void infoLaunch();

  const CapturedLaunch &m_launch;
  std::unique_ptr<InterpreterLaunch> m_interpreter;
  Timeline m_timeline;
  std::optional<Rewind> m_rewind;
  bool m_scanning = false;
  CommandInput &m_input;
  std::ostream &m_out;
  std::vector<Command> m_commands;
  Breakpoints m_breakpoints;
  Phase m_phase = Phase::Before;
  ExecutionMonitor *m_monitor = nullptr;
  const Stop *m_stop = nullptr;
  oclgrind::Size3 m_focus{0, 0, 0};
  std::string m_kernelFile; ///< the kernel file's name as shown
  std::map<std::string, std::vector<std::string>> m_sources;
  std::optional<std::filesystem::path> m_outputFolder;
  std::string m_lastCommand;
  const llvm::Function *m_lastFunction = nullptr;
  unsigned m_listNext = 0;
  unsigned m_history = 0;
  bool m_failed = false;
  bool m_endedEarly = false; ///< Oclgrind stopped the launch with a fatal error
  std::optional<FindingWitness> m_witness;
  bool m_timeCommands = false;
  std::optional<StopKind> m_lastStop;
  std::optional<std::chrono::steady_clock::time_point> m_commandStarted;
  std::vector<bool> m_accessSeen; ///< which of the witness's accesses the launch has stopped at
  unsigned m_repeat = 0;          ///< `step N`: stops still to skip
  RunRequest m_repeatRequest;
};

} // namespace clcapture::debug
