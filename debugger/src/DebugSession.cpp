//===- DebugSession.cpp - gdb's commands on one captured launch ---------------===//
#include "DebugSession.h"

#include "ExpressionEvaluator.h"
#include "SessionText.h"
#include "WorkItemView.h"
#include "clcapture/format/BlobStore.h"
#include "clcapture/replay/BufferComparison.h"

#include <Context.h>
#include <KernelInvocation.h>
#include <Memory.h>
#include <WorkGroup.h>
#include <WorkItem.h>
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instruction.h>
#include <llvm/IR/Module.h>
#include <sstream>
#include <stack>

namespace clcapture::debug {

namespace {

const char *const kPrompt = "(clcapture-debug) ";

} // namespace

DebugSession::DebugSession(const CapturedLaunch &launch, std::unique_ptr<InterpreterLaunch> interpreter,
                           CommandInput &input, std::ostream &out)
    : m_launch(launch), m_interpreter(std::move(interpreter)), m_input(input), m_out(out) {
  m_kernelFile = launch.plan.kernelFile.filename().string();
  m_commands = {
      {"help", {"h"}, &DebugSession::cmdHelp, "help [COMMAND]: the commands, or one command's use"},
      {"break",
       {"b", "br"},
       &DebugSession::cmdBreak,
       "break LINE | FILE:LINE | FUNCTION [if CONDITION]: stop any work-item that reaches it (and makes the "
       "condition true)"},
      {"tbreak",
       {},
       &DebugSession::cmdTbreak,
       "tbreak LOCATION [if CONDITION]: a breakpoint deleted at its first stop"},
      {"delete", {"d"}, &DebugSession::cmdDelete, "delete [N...]: delete breakpoints (all without a number)"},
      {"info",
       {"i"},
       &DebugSession::cmdInfo,
       "info breakpoints | locals | args | memory | workitems | launch: what there is to know"},
      {"run", {"r"}, &DebugSession::cmdRun, "run: start the launch, or run it to its end without stopping"},
      {"continue", {"c", "cont"}, &DebugSession::cmdContinue, "continue: run until a breakpoint or the end"},
      {"step",
       {"s"},
       &DebugSession::cmdStep,
       "step [N]: the focused work-item to its next line, into helpers"},
      {"next",
       {"n"},
       &DebugSession::cmdNext,
       "next [N]: the focused work-item to its next line, over helper calls"},
      {"finish",
       {"fin"},
       &DebugSession::cmdFinish,
       "finish: the focused work-item out of the helper it is in"},
      {"until", {"u"}, &DebugSession::cmdUntil, "until LINE: the focused work-item to LINE of its function"},
      {"reverse-step",
       {"rs"},
       &DebugSession::cmdReverseStep,
       "reverse-step: the focused work-item back to the line it entered before this one (the launch "
       "re-runs)"},
      {"reverse-next",
       {"rn"},
       &DebugSession::cmdReverseNext,
       "reverse-next: back to the previous line of this function, over calls"},
      {"reverse-continue",
       {"rc"},
       &DebugSession::cmdReverseContinue,
       "reverse-continue: back to the last breakpoint hit before now (or the focused work-item's first "
       "line)"},
      {"barrier",
       {},
       &DebugSession::cmdBarrier,
       "barrier: every work-item of the focused one's group to its next barrier (or to its end)"},
      {"watch",
       {},
       &DebugSession::cmdWatch,
       "watch EXPR: stop when any work-item changes the memory EXPR names (private: the focused work-item's; "
       "local: its group's)"},
      {"workitem",
       {"wi"},
       &DebugSession::cmdWorkitem,
       "workitem X [Y [Z]]: focus the work-item with this global id"},
      {"workgroup",
       {"wg"},
       &DebugSession::cmdWorkgroup,
       "workgroup X [Y [Z]]: focus the work-item of this group with the focused local id"},
      {"print",
       {"p", "inspect"},
       &DebugSession::cmdPrint,
       "print[/x|/d|/o|/t|/c] EXPR: a value of the focused work-item (private, local, global)"},
      {"print-all",
       {"pa"},
       &DebugSession::cmdPrintAll,
       "print-all[/F] EXPR: EXPR in every work-item of the focused one's group"},
      {"set",
       {},
       &DebugSession::cmdSet,
       "set var NAME = EXPR: change a variable or memory of the focused work-item"},
      {"backtrace", {"bt", "where"}, &DebugSession::cmdBacktrace, "backtrace: the focused work-item's calls"},
      {"list", {"l"}, &DebugSession::cmdList, "list [LINE | FIRST,LAST]: source lines"},
      {"x",
       {},
       &DebugSession::cmdExamine,
       "x/N[F] EXPR: N elements from the pointer EXPR (an argument's name gives its buffer; + counts "
       "elements)"},
      {"compare",
       {},
       &DebugSession::cmdCompare,
       "compare [replay]: after the launch, its buffers against the bytes the capture recorded after it "
       "(--data-after), or against clcapture-replay's on the system's OpenCL device"},
      {"quit", {"q", "exit"}, &DebugSession::cmdQuit, "quit: end the session"},
  };
}

void DebugSession::fail(const std::string &message) {
  m_out << "error: " << message << '\n';
  m_failed = true;
}

void DebugSession::endSession() {
  m_out.flush();
  std::fflush(stdout);
  std::_Exit(m_failed && !m_input.interactive() ? 1 : 0);
}

std::string DebugSession::idText(oclgrind::Size3 id) const {
  std::size_t dims = m_launch.plan.globalSize.size();
  std::string text = "(" + std::to_string(id.x);
  if (dims > 1)
    text += ", " + std::to_string(id.y);
  if (dims > 2)
    text += ", " + std::to_string(id.z);
  return text + ")";
}

std::string DebugSession::fileShown(const std::string &file) const {
  return file.empty() ? m_kernelFile : file;
}

const std::vector<std::string> *DebugSession::sourceLines(const std::string &file) {
  auto it = m_sources.find(file);
  if (it != m_sources.end())
    return &it->second;
  std::vector<std::string> lines;
  std::string text;
  if (file.empty()) {
    text = m_launch.source;
  } else {
    std::ifstream in(m_launch.plan.kernelFile.parent_path() / file, std::ios::binary);
    if (!in)
      return nullptr;
    std::ostringstream all;
    all << in.rdbuf();
    text = all.str();
  }
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return &m_sources.emplace(file, std::move(lines)).first->second;
}

void DebugSession::printSourceLine(const SourceLocation &where) {
  const std::vector<std::string> *lines = sourceLines(where.file);
  if (!lines || where.line == 0 || where.line > lines->size()) {
    m_out << where.line << "\tin " << fileShown(where.file) << '\n';
    return;
  }
  m_out << where.line << '\t' << (*lines)[where.line - 1] << '\n';
  m_listNext = where.line + 1;
}

std::unique_ptr<WorkItemView> DebugSession::focusView() const {
  if (m_phase != Phase::Paused || !m_monitor || !m_monitor->invocation())
    return nullptr;
  const oclgrind::WorkItem *item = m_monitor->invocation()->getCurrentWorkItem();
  if (!item || !(item->getGlobalID() == m_focus))
    return nullptr;
  return std::make_unique<WorkItemView>(m_interpreter->context(), *item, m_monitor->nextOf(item), m_monitor);
}

void DebugSession::describeStop(const Stop &stop) {
  const oclgrind::WorkItem &item = *stop.item;
  std::string who = "work-item " + idText(item.getGlobalID());
  switch (stop.kind) {
  case StopKind::Breakpoint:
    m_out << "\nBreakpoint " << stop.breakpoint << ", " << who << " at " << fileShown(stop.where.file) << ':'
          << stop.where.line << '\n';
    break;
  case StopKind::Watchpoint:
    for (const Watchpoint &w : m_breakpoints.watches())
      if (w.number == stop.breakpoint) {
        auto oldValue = decodeScalar(w.type, w.previous.data(), w.previous.size());
        auto newValue = decodeScalar(w.type, w.bytes.data(), w.bytes.size());
        m_out << "\nWatchpoint " << w.number << ": " << w.expression << "\n\nOld value = "
              << (oldValue ? formatScalar(*oldValue, w.type, NumberFormat::Natural)
                           : std::string("<changed>"))
              << "\nNew value = "
              << (newValue ? formatScalar(*newValue, w.type, NumberFormat::Natural)
                           : std::string("<changed>"))
              << "\n";
      }
    m_out << who << " wrote it at " << fileShown(stop.where.file) << ':' << stop.where.line << '\n';
    break;
  case StopKind::Access:
    describeAccess(stop);
    return;
  case StopKind::GroupAtBarrier:
    m_out << "every work-item of work-group " << idText(item.getWorkGroup()->getGroupID())
          << " waits at a barrier or has finished (the last arrived at line " << stop.where.line << ")\n";
    return;
  case StopKind::GroupFinished:
    m_out << "every work-item of work-group " << idText(item.getWorkGroup()->getGroupID())
          << " has finished\n";
    return;
  case StopKind::Barrier:
    m_out << who << " waits at the barrier on line " << stop.where.line
          << " (the others of its group run to it)\n";
    return;
  case StopKind::WorkItemFinished:
    m_out << who << " has finished\n";
    return;
  case StopKind::Error:
    m_out << "Oclgrind reported an error in " << who << " at " << fileShown(stop.where.file) << ':'
          << stop.where.line << ":\n  " << stop.message << '\n';
    break;
  case StopKind::Step:
    if (stop.where.function != m_lastFunction && stop.where.function)
      m_out << stop.where.function->getName().str() << " () at " << fileShown(stop.where.file) << ':'
            << stop.where.line << '\n';
    break;
  }
  m_lastFunction = stop.where.function;
  printSourceLine(stop.where);
}

RunRequest DebugSession::stopped(const Stop &stop) {
  m_phase = Phase::Paused;
  m_stop = &stop;
  m_lastStop = stop.kind;
  m_focus = m_monitor ? m_monitor->focus() : stop.item->getGlobalID();
  if (m_repeat > 0 && stop.kind == StopKind::Step) {
    --m_repeat;
    return m_repeatRequest;
  }
  m_repeat = 0;
  describeStop(stop);
  if (stop.kind == StopKind::Breakpoint)
    for (auto &b : m_breakpoints.all())
      if (b.number == stop.breakpoint && b.temporary) {
        m_out << "(temporary breakpoint " << b.number << " deleted)\n";
        m_breakpoints.remove(b.number);
        break;
      }
  Outcome outcome = commandLoop();
  m_stop = nullptr;
  if (outcome.quit)
    endSession();
  return *outcome.resume;
}

std::optional<int> DebugSession::breakpointAt(const oclgrind::WorkItem &item, const llvm::Instruction &next,
                                              const SourceLocation &where) {
  for (Breakpoint *b : m_breakpoints.at(where)) {
    if (b->condition) {
      WorkItemView view(m_interpreter->context(), item, &next, m_monitor);
      ExpressionEvaluator evaluator(view);
      auto value = evaluator.evaluate(*b->condition);
      auto truth = value ? evaluator.truth(*value) : format::Expected<bool>(format::fail(value.error()));
      if (!truth && m_scanning) {
        continue;
      } else if (!truth) {
        // gdb stops where a condition cannot be evaluated, and says why.
        m_out << "error in the condition of breakpoint " << b->number << " (" << b->conditionText
              << "): " << truth.error() << '\n';
      } else if (!*truth) {
        continue;
      }
    }
    if (!m_scanning)
      ++b->hits;
    return b->number;
  }
  return std::nullopt;
}

void DebugSession::reported(const std::string &message) {
  m_out << "Oclgrind reported:\n  " << message << '\n';
}

DebugSession::Outcome DebugSession::cmdBarrier(const std::string &) {
  if (m_phase != Phase::Paused) {
    fail(m_phase == Phase::Before ? "the launch has not started (step first)" : "the launch has finished");
    return {};
  }
  return Outcome{runRequest(RunMode::Barrier, 0, {}), false};
}

int DebugSession::run() {
  m_out << "clcapture-debug: launch " << m_launch.plan.index << " of " << m_launch.input.given.string()
        << ": " << m_launch.plan.entryPoint << " over ";
  for (std::size_t d = 0; d < m_launch.plan.globalSize.size(); ++d)
    m_out << (d ? " × " : "") << m_launch.plan.globalSize[d];
  m_out << " work-items in Oclgrind's interpreter\n";
  for (const std::string &note : m_launch.plan.notes)
    m_out << "note: " << note << '\n';
  if (m_witness) {
    m_out << "finding " << m_witness->number << " (" << m_witness->kind << "): " << m_witness->message
          << '\n';
    for (std::size_t i = 0; i < m_witness->accesses.size(); ++i) {
      const WitnessAccess &a = m_witness->accesses[i];
      m_out << "  access " << i + 1 << ": " << (a.write ? "write" : "read") << " by work-item "
            << idText(oclgrind::Size3(a.globalId[0], a.globalId[1], a.globalId[2])) << " at "
            << std::filesystem::path(a.file).filename().string() << ':' << a.line << '\n';
    }
    m_out << "the launch stops at each access (the very " << m_witness->memory << " load or store of "
          << m_witness->array << " bytes " << m_witness->firstByte << ".." << m_witness->lastByte
          << "); `run` starts it\n";
  }
  Outcome first = commandLoop();
  if (first.quit)
    endSession();
  RunRequest request = *first.resume;
  while (true) {
    ExecutionMonitor monitor(&m_interpreter->context(), *this, request, m_focus, m_timeline);
    m_monitor = &monitor;
    m_interpreter->run(monitor);
    m_monitor = nullptr;
    if (!monitor.fatalError().empty()) {
      m_out << "Oclgrind ended the launch early:\n  " << monitor.fatalError() << '\n';
      m_failed = true;
      m_endedEarly = true;
    }
    if (!m_rewind)
      break;
    Rewind r = *m_rewind;
    m_rewind.reset();
    auto next = planRewind(r);
    request = next ? *next : runRequest(RunMode::Replay, {}, {}, r.from, {});
  }
  m_phase = Phase::Finished;
  if (m_endedEarly)
    m_out << "[launch " << m_launch.plan.index << " ended early: not every work-item ran to its end]\n";
  else
    m_out << "[launch " << m_launch.plan.index << " finished: every work-item ran to its end]\n";
  if (m_outputFolder)
    writeOutputs();
  Outcome after = commandLoop();
  (void)after;
  m_out.flush();
  if (m_endedEarly)
    return kExitEndedEarly;
  return m_failed && !m_input.interactive() ? 1 : 0;
}

void DebugSession::writeOutputs() {
  const replay::LaunchPlan &plan = m_launch.plan;
  std::filesystem::path folder = *m_outputFolder / std::to_string(plan.index);
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  for (const replay::ArgPlan &arg : plan.args) {
    if (arg.role != replay::ArgRole::Memory)
      continue;
    std::vector<std::uint8_t> bytes = m_interpreter->memoryBytes(arg.memory);
    std::filesystem::path file = folder / ("arg" + std::to_string(arg.index) + ".bin");
    auto written = format::writeFileAtomically(file, bytes.data(), bytes.size());
    if (!written)
      fail("--output: " + written.error());
  }
}

std::string DebugSession::stopReason() const {
  if (!m_lastStop)
    return "pause";
  switch (*m_lastStop) {
  case StopKind::Breakpoint:
  case StopKind::Access:
    return "breakpoint";
  case StopKind::Watchpoint:
    return "data breakpoint";
  case StopKind::Error:
    return "exception";
  default:
    return "step";
  }
}

std::string DebugSession::runQuietly(const std::string &line, bool &failed) {
  std::stringbuf captured;
  std::streambuf *previous = m_out.rdbuf(&captured);
  bool failedBefore = m_failed;
  m_failed = false;
  Outcome outcome = execute(trim(line));
  failed = m_failed || outcome.resume.has_value() || outcome.quit;
  m_failed = failedBefore;
  m_out.rdbuf(previous);
  return captured.str();
}

DebugSession::Outcome DebugSession::commandLoop() {
  while (true) {
    if (m_commandStarted) {
      // --command-times: from reading a command to being ready for the next (a step: to its stop).
      double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - *m_commandStarted)
              .count();
      char text[48];
      std::snprintf(text, sizeof text, "(command took %.3f ms)\n", ms);
      m_out << text;
      m_commandStarted.reset();
    }
    auto line = m_input.next(kPrompt);
    if (m_timeCommands)
      m_commandStarted = std::chrono::steady_clock::now();
    if (!line)
      return Outcome{std::nullopt, true};
    std::string text = trim(*line);
    if (text.empty()) {
      if (!m_input.interactive() || m_lastCommand.empty())
        continue;
      text = m_lastCommand;
    } else if (m_input.interactive()) {
      m_lastCommand = text;
    }
    if (text[0] == '#')
      continue;
    Outcome outcome = execute(text);
    m_out.flush();
    if (outcome.quit || outcome.resume)
      return outcome;
  }
}

const DebugSession::Command *DebugSession::lookup(const std::string &word, std::string &why) const {
  for (const Command &c : m_commands) {
    if (c.name == word)
      return &c;
    for (const std::string &alias : c.aliases)
      if (alias == word)
        return &c;
  }
  const Command *found = nullptr;
  std::string candidates;
  for (const Command &c : m_commands)
    if (c.name.compare(0, word.size(), word) == 0) {
      candidates += (candidates.empty() ? "" : ", ") + c.name;
      found = found ? nullptr : &c;
      if (!found)
        break;
    }
  if (found)
    return found;
  why = candidates.empty() ? "undefined command: \"" + word + "\"; try \"help\""
                           : "ambiguous command \"" + word + "\": " + candidates;
  return nullptr;
}

DebugSession::Outcome DebugSession::execute(const std::string &line) {
  std::size_t end = 0;
  while (end < line.size() &&
         (std::isalnum(static_cast<unsigned char>(line[end])) || line[end] == '-' || line[end] == '_'))
    ++end;
  std::string word = line.substr(0, end);
  std::string arguments = line.substr(end);
  if (word.empty()) {
    fail("undefined command: \"" + line + "\"; try \"help\"");
    return {};
  }
  std::string why;
  const Command *command = lookup(word, why);
  if (!command) {
    fail(why);
    return {};
  }
  return (this->*command->handler)(arguments);
}

std::optional<RunRequest> DebugSession::resumeOrRefuse(RunRequest request) {
  if (m_phase == Phase::Finished) {
    fail("the launch has finished");
    return std::nullopt;
  }
  return request;
}

DebugSession::Outcome DebugSession::cmdHelp(const std::string &a) {
  std::string topic = trim(a);
  if (!topic.empty()) {
    std::string why;
    if (const Command *c = lookup(topic, why)) {
      m_out << c->help << '\n';
      if (!c->aliases.empty()) {
        m_out << "aliases:";
        for (const std::string &alias : c->aliases)
          m_out << ' ' << alias;
        m_out << '\n';
      }
    } else {
      fail(why);
    }
    return {};
  }
  m_out << "Commands (a unique prefix is enough; an empty line repeats the last command at a terminal):\n";
  for (const Command &c : m_commands)
    m_out << "  " << c.help << '\n';
  return {};
}

DebugSession::Outcome DebugSession::cmdBreak(const std::string &a) {
  auto added = m_breakpoints.add(a, false, *m_interpreter->kernelFunction().getParent(), m_kernelFile);
  if (!added) {
    fail(added.error());
    return {};
  }
  const Breakpoint *b = *added;
  m_out << (b->temporary ? "Temporary breakpoint " : "Breakpoint ") << b->number << " at "
        << fileShown(b->file) << ':' << b->line << (b->condition ? " if " + b->conditionText : std::string())
        << '\n';
  return {};
}

DebugSession::Outcome DebugSession::cmdTbreak(const std::string &a) {
  auto added = m_breakpoints.add(a, true, *m_interpreter->kernelFunction().getParent(), m_kernelFile);
  if (!added) {
    fail(added.error());
    return {};
  }
  const Breakpoint *b = *added;
  m_out << "Temporary breakpoint " << b->number << " at " << fileShown(b->file) << ':' << b->line << '\n';
  return {};
}

DebugSession::Outcome DebugSession::cmdDelete(const std::string &a) {
  std::vector<std::string> numbers = words(a);
  if (!numbers.empty() && numbers[0] == "breakpoints")
    numbers.erase(numbers.begin());
  if (numbers.empty()) {
    m_breakpoints.clear();
    return {};
  }
  for (const std::string &n : numbers) {
    auto v = number(n);
    if (!v || !m_breakpoints.remove(static_cast<int>(*v)))
      fail("no breakpoint number " + n);
  }
  return {};
}

DebugSession::Outcome DebugSession::cmdInfo(const std::string &a) {
  std::vector<std::string> w = words(a);
  std::string what = w.empty() ? std::string() : w[0];
  auto is = [&](const char *full, std::size_t least) {
    return what.size() >= least && std::string(full).compare(0, what.size(), what) == 0;
  };
  if (is("breakpoints", 1))
    infoBreakpoints();
  else if (is("locals", 2))
    infoLocals(false);
  else if (is("args", 1))
    infoLocals(true);
  else if (is("workitems", 1))
    infoWorkitems();
  else if (is("launch", 2))
    infoLaunch();
  else if (is("memory", 1))
    infoMemory();
  else
    fail("info needs one of: breakpoints, locals, args, memory, workitems, launch");
  return {};
}

DebugSession::Outcome DebugSession::cmdRun(const std::string &) {
  if (m_phase == Phase::Before)
    return Outcome{runRequest(RunMode::Continue, 0, {}), false};
  if (m_phase == Phase::Finished) {
    fail("the launch has finished");
    return {};
  }
  return Outcome{runRequest(RunMode::ToEnd, 0, {}), false};
}

DebugSession::Outcome DebugSession::cmdContinue(const std::string &) {
  return Outcome{resumeOrRefuse(runRequest(RunMode::Continue, 0, {})), false};
}

DebugSession::Outcome DebugSession::stepLines(RunMode mode, const std::string &name, const std::string &a) {
  auto count = trim(a).empty() ? std::optional<std::uint64_t>(1) : number(a);
  if (!count || *count == 0) {
    fail(name + " takes a positive count");
    return {};
  }
  RunRequest r = runRequest(mode);
  m_repeat = static_cast<unsigned>(*count - 1);
  m_repeatRequest = r;
  return Outcome{resumeOrRefuse(focusHasBegun() ? r : startRequest()), false};
}

DebugSession::Outcome DebugSession::cmdStep(const std::string &a) {
  return stepLines(RunMode::Step, "step", a);
}

bool DebugSession::focusHasBegun() const {
  if (m_phase != Phase::Paused || !m_monitor || !m_monitor->invocation())
    return false;
  const oclgrind::WorkItem *item = m_monitor->invocation()->getCurrentWorkItem();
  return item && m_monitor->traceOf(item) != nullptr;
}

RunRequest DebugSession::startRequest() const {
  // The first step stops where gdb's would: the kernel's first line past its prologue.
  return runRequest(RunMode::Until, firstLineOf(m_interpreter->kernelFunction()), {});
}

DebugSession::Outcome DebugSession::cmdNext(const std::string &a) {
  return stepLines(RunMode::Next, "next", a);
}

DebugSession::Outcome DebugSession::cmdFinish(const std::string &) {
  if (m_phase != Phase::Paused || !m_stop || !m_stop->item || m_stop->item->getCallStack().empty()) {
    fail("\"finish\" not meaningful in the kernel's outermost frame");
    return {};
  }
  return Outcome{runRequest(RunMode::Finish, 0, {}), false};
}

DebugSession::Outcome DebugSession::cmdUntil(const std::string &a) {
  auto line = number(a);
  if (!line) {
    fail("until takes a line number of the focused work-item's function");
    return {};
  }
  std::string file = m_stop ? m_stop->where.file : std::string();
  return Outcome{resumeOrRefuse(runRequest(RunMode::Until, static_cast<unsigned>(*line), file)), false};
}

DebugSession::Outcome DebugSession::cmdWorkitem(const std::string &a) {
  std::vector<std::string> w = words(a);
  if (w.empty()) {
    m_out << "the focus is work-item " << idText(m_focus) << '\n';
    return {};
  }
  oclgrind::Size3 id(0, 0, 0);
  for (std::size_t d = 0; d < w.size(); ++d) {
    auto v = number(w[d]);
    if (!v || d > 2) {
      fail("workitem takes up to three global ids (X [Y [Z]])");
      return {};
    }
    id[static_cast<unsigned>(d)] = static_cast<std::size_t>(*v);
  }
  if (m_phase == Phase::Finished) {
    fail("the launch has finished");
    return {};
  }
  if (m_phase == Phase::Before) {
    for (unsigned d = 0; d < 3; ++d) {
      std::uint64_t offset = m_launch.plan.globalOffset && d < m_launch.plan.globalOffset->size()
                                 ? (*m_launch.plan.globalOffset)[d]
                                 : 0;
      std::uint64_t size = d < m_launch.plan.globalSize.size() ? m_launch.plan.globalSize[d] : 1;
      if (id[d] < offset || id[d] - offset >= size) {
        fail("no work-item " + idText(id) + " in this launch");
        return {};
      }
    }
    m_focus = id;
    m_out << "the focus is work-item " << idText(id) << " (it runs first)\n";
    return {};
  }
  std::string why;
  if (m_monitor->inFinishedGroup(id)) {
    m_out << "[work-item " << idText(id)
          << " has finished with its group: the launch re-runs to its last line]\n";
    return rewind(Rewind::Kind::FinishedItem, id);
  }
  if (!m_monitor->focusOn(id, why)) {
    fail("cannot focus work-item " + idText(id) + ": " + why);
    return {};
  }
  m_focus = id;
  const oclgrind::WorkItem *item = m_monitor->invocation()->getCurrentWorkItem();
  m_out << "[switching to work-item " << idText(id) << "]\n";
  if (item->getState() == oclgrind::WorkItem::FINISHED) {
    m_out << "work-item " << idText(id) << " has finished\n";
    return {};
  }
  SourceLocation where = locationOf(m_monitor->nextOf(item));
  if (item->getState() == oclgrind::WorkItem::BARRIER)
    m_out << "it waits at a barrier\n";
  if (where.known())
    printSourceLine(where);
  else
    m_out << "it has not started\n";
  return {};
}

DebugSession::Outcome DebugSession::cmdWorkgroup(const std::string &a) {
  std::vector<std::string> w = words(a);
  if (w.empty() || w.size() > 3) {
    fail("workgroup takes up to three group ids (X [Y [Z]])");
    return {};
  }
  const replay::LaunchPlan &plan = m_launch.plan;
  std::string ids;
  for (std::size_t d = 0; d < 3; ++d) {
    std::uint64_t group = 0;
    if (d < w.size()) {
      auto v = number(w[d]);
      if (!v) {
        fail("workgroup takes up to three group ids (X [Y [Z]])");
        return {};
      }
      group = *v;
    }
    std::uint64_t local = plan.localSize && d < plan.localSize->size() ? (*plan.localSize)[d] : 1;
    std::uint64_t offset = plan.globalOffset && d < plan.globalOffset->size() ? (*plan.globalOffset)[d] : 0;
    std::uint64_t focusLocal = (m_focus[static_cast<unsigned>(d)] - offset) % local;
    ids += std::to_string(offset + group * local + focusLocal) + " ";
  }
  return cmdWorkitem(ids);
}

DebugSession::Outcome DebugSession::cmdQuit(const std::string &) {
  return Outcome{std::nullopt, true};
}

} // namespace clcapture::debug
