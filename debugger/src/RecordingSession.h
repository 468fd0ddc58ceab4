//===- RecordingSession.h - gdb's commands over a device recording -*- C++ -*-===//
//
// `clcapture-debug CAPTURE --engine=device` (and `--recording FILE`): the commands of the interpreter's
// session (docs/debugger.md) over what the device recorded (docs/device-debugging.md). The recording is
// complete, so going back is as cheap as going forward. A point is "after record K of a work-item": the
// statement on that line has run and the values it wrote are shown. The recorded work-items are ordered as
// Oclgrind runs them (by group, then barrier interval, then work-item), which is the order `continue` and
// `reverse-continue` search. `set var` records the launch again with the value injected at this point.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "CommandInput.h"
#include "DapTarget.h"
#include "DeviceRecorder.h"
#include "ExpressionParser.h"
#include "FindingWitness.h"
#include "RecordedValues.h"
#include "Recording.h"

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace clcapture::debug {

class RecordingSession : public DapTarget {
public:
  /// Records the launch again with these injections (nullptr: a saved recording, which cannot be re-run).
  using Rerun = std::function<format::Expected<Recording>(const std::vector<Injection> &)>;

  RecordingSession(Recording recording, CommandInput &input, std::ostream &out, Rerun rerun);
  /// Runs the session to `quit` or the end of the input; the exit status (1: a scripted command failed).
  int run();
  /// `--finding K`: the witness's work-items are the ones recorded; a breakpoint at each access's line for
  /// its work-item, the focus on the first.
  void followWitness(const FindingWitness &witness);
  /// Where the kernel's source is for a front end (default: the recording's file name).
  void setKernelFile(std::filesystem::path file) { m_kernelFile = std::move(file); }

  std::string runQuietly(const std::string &line, bool &failed) override;
  bool started() const override { return m_now.has_value(); }
  bool finished() const override { return m_ended; }
  std::string stopReason() const override { return m_stopReason; }
  std::string focusName() const override { return "work-item " + idText(m_focus); }
  std::filesystem::path kernelFile() const override { return m_kernelFile; }

private:
  struct Outcome {
    bool quit = false;
  };
  using Handler = Outcome (RecordingSession::*)(const std::string &arguments);
  struct Command {
    std::string name;
    std::vector<std::string> aliases;
    Handler handler;
    std::string help;
  };
  struct Breakpoint {
    int number = 0;
    unsigned line = 0;
    std::string conditionText;
    std::shared_ptr<Expr> condition;
    bool temporary = false;
    unsigned hits = 0;
  };
  struct Watch {
    int number = 0;
    std::string name;
  };
  /// One record of one work-item, in the order the timeline gives.
  struct Point {
    std::uint64_t item = 0;
    std::size_t index = 0;
  };

  void buildTimeline();
  Outcome execute(const std::string &line);
  void fail(const std::string &message);
  const std::vector<Record> &focusRecords() const { return m_recording.records(m_focus); }
  std::string idText(std::uint64_t item) const;
  std::string sourceLine(unsigned line) const;
  /// Moves the focus to record `index` of its work-item and shows where it is and what the record wrote.
  void moveTo(std::size_t index);
  /// Work-item `item`'s last record at or before the present (none: it has not run one yet).
  std::optional<std::size_t> positionNow(std::uint64_t item) const;
  void show(const std::string &why);
  /// Whether a breakpoint or watch stops at this point (the timeline's order); its message.
  std::optional<std::string> stopsAt(const Point &point);
  std::optional<std::size_t> timelineIndex() const;
  Outcome search(bool forward);
  Outcome stepBy(bool forward, std::optional<int> depthChange, const std::string &what);
  std::optional<unsigned> parseLocation(const std::string &text);

  Outcome cmdHelp(const std::string &a);
  Outcome cmdBreak(const std::string &a);
  Outcome cmdTbreak(const std::string &a);
  Outcome cmdDelete(const std::string &a);
  Outcome cmdInfo(const std::string &a);
  Outcome cmdContinue(const std::string &a);
  Outcome cmdStep(const std::string &a);
  Outcome cmdNext(const std::string &a);
  Outcome cmdFinish(const std::string &a);
  Outcome cmdReverseStep(const std::string &a);
  Outcome cmdReverseNext(const std::string &a);
  Outcome cmdReverseFinish(const std::string &a);
  Outcome cmdReverseContinue(const std::string &a);
  Outcome cmdWatch(const std::string &a);
  Outcome cmdWorkitem(const std::string &a);
  Outcome cmdPrint(const std::string &a);
  Outcome cmdPrintAll(const std::string &a);
  Outcome cmdSet(const std::string &a);
  Outcome cmdBacktrace(const std::string &a);
  Outcome cmdList(const std::string &a);
  Outcome cmdQuit(const std::string &a);

  Recording m_recording;
  CommandInput &m_input;
  std::ostream &m_out;
  Rerun m_rerun;
  std::vector<Command> m_commands;
  std::vector<Point> m_timeline;
  /// Per work-item: the timeline index of each of its records (increasing, since a work-item's records keep
  /// their order in the timeline).
  std::map<std::uint64_t, std::vector<std::size_t>> m_timelineOf;
  std::uint64_t m_focus = 0;
  std::optional<std::size_t> m_position; ///< the focused work-item's record; none: before its first
  std::optional<std::size_t> m_now;      ///< the present in the timeline; none: before the first record
  unsigned m_history = 0;                ///< print's $N
  std::vector<Breakpoint> m_breakpoints;
  std::vector<Watch> m_watches;
  int m_nextNumber = 1;
  std::vector<std::string> m_sourceLines;
  std::vector<Injection> m_injections;
  std::string m_lastCommand;
  std::string m_witnessText; ///< printed when the session starts
  bool m_failed = false;
  bool m_ended = false;               ///< `continue` ran past the last recorded statement
  std::string m_stopReason = "pause"; ///< as DAP names it
  std::filesystem::path m_kernelFile;
};

} // namespace clcapture::debug
