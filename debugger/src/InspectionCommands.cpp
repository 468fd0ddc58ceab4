//===- InspectionCommands.cpp - The session's commands that read and change state ---===//
//
// print, set var, x, info locals|args|workitems|launch|breakpoints, backtrace, list and compare: the half of
// DebugSession that looks at the paused launch (or its end) and changes its memory; DebugSession.cpp holds
// the commands that move it.
//
//===----------------------------------------------------------------------===//
#include "ChildProgram.h"
#include "DebugSession.h"
#include "ExpressionEvaluator.h"
#include "SessionText.h"
#include "WorkItemView.h"
#include "clcapture/cli/ToolProgram.h"
#include "clcapture/format/CaptureBlobs.h"
#include "clcapture/replay/BufferComparison.h"

#include <KernelInvocation.h>
#include <WorkGroup.h>
#include <WorkItem.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instruction.h>
#include <map>
#include <memory>
#include <stack>

namespace clcapture::debug {

void DebugSession::infoBreakpoints() {
  if (m_breakpoints.all().empty() && m_breakpoints.watches().empty()) {
    m_out << "No breakpoints.\n";
    return;
  }
  m_out << "Num  Disp  Where                          Hits  Condition\n";
  for (const Breakpoint &b : m_breakpoints.all()) {
    char row[160];
    std::string where = fileShown(b.file) + ":" + std::to_string(b.line);
    std::snprintf(row, sizeof row, "%-4d %-5s %-30s %-5u %s", b.number, b.temporary ? "del" : "keep",
                  where.c_str(), b.hits, b.conditionText.c_str());
    m_out << trim(row) << '\n';
  }
  for (const Watchpoint &w : m_breakpoints.watches())
    m_out << w.number << "    watch " << w.expression
          << (w.scope.empty() ? std::string() : " (" + w.scope + ")") << ", changed " << w.hits
          << (w.hits == 1 ? " time" : " times") << '\n';
}

void DebugSession::infoLocals(bool arguments) {
  auto view = focusView();
  if (!view) {
    fail("no work-item is paused (start the launch with step, next or a breakpoint and continue)");
    return;
  }
  ExpressionEvaluator evaluator(*view);
  auto variables = arguments ? view->arguments() : view->locals();
  if (variables.empty())
    m_out << (arguments ? "No arguments.\n" : "No locals.\n");
  for (const NamedVariable &v : variables)
    m_out << v.name << " = "
          << formatValue(evaluator, Value{v.type, v.place, std::nullopt}, NumberFormat::Natural) << '\n';
}

void DebugSession::infoMemory() {
  auto view = focusView();
  if (!view) {
    fail("no work-item is paused (start the launch with step, next or a breakpoint and continue)");
    return;
  }
  ExpressionEvaluator evaluator(*view);
  std::map<AddressSpace, std::vector<std::string>> lines;
  auto all = view->arguments();
  for (const NamedVariable &v : view->locals())
    all.push_back(v);
  // The bytes behind a kernel argument's pointer, from the capture (its buffer or __local size).
  auto argumentBytes = [&](const std::string &name) -> std::size_t {
    for (const replay::ArgPlan &arg : m_launch.plan.args)
      if (arg.name == name)
        return arg.role == replay::ArgRole::Local ? static_cast<std::size_t>(arg.size)
               : arg.role == replay::ArgRole::Memory
                   ? static_cast<std::size_t>(m_launch.plan.memory[arg.memory].size)
                   : 0;
    return 0;
  };
  constexpr std::size_t kPreview = 16;
  for (const NamedVariable &v : all) {
    Value value{v.type, v.place, std::nullopt};
    lines[v.place.space].push_back(v.name + " = " + formatValue(evaluator, value, NumberFormat::Natural));
    // A kernel argument's buffer: its first elements, under the memory they are in.
    auto pointer = evaluator.scalarOf(value);
    if (!v.argument || !pointer || pointer->kind != Scalar::Kind::Pointer || !pointer->pointee || !pointer->u)
      continue;
    std::size_t element = byteSize(pointer->pointee), bytes = argumentBytes(v.name);
    if (!element || bytes < element)
      continue;
    std::size_t count = std::min(kPreview, bytes / element);
    std::string text = "{";
    for (std::size_t i = 0; i < count; ++i) {
      Place at{pointer->space, static_cast<std::size_t>(pointer->u) + i * element};
      text += (i ? ", " : "") +
              formatValue(evaluator, Value{pointer->pointee, at, std::nullopt}, NumberFormat::Natural);
    }
    text += count < bytes / element ? "...}" : "}";
    AddressSpace space = pointer->space == AddressSpace::Constant ? AddressSpace::Global : pointer->space;
    lines[space].push_back(v.name + "[0.." + std::to_string(count - 1) + "] = " + text);
  }
  for (AddressSpace space : {AddressSpace::Private, AddressSpace::Local, AddressSpace::Global}) {
    m_out << addressSpaceName(space) << ":\n";
    for (const std::string &line : lines[space])
      m_out << "  " << line << '\n';
    if (space == AddressSpace::Global)
      for (const std::string &line : lines[AddressSpace::Constant])
        m_out << "  " << line << '\n';
  }
}

void DebugSession::infoWorkitems() {
  if (m_phase != Phase::Paused || !m_monitor) {
    fail("no work-group is running");
    return;
  }
  const oclgrind::WorkItem *focus = m_monitor->invocation()->getCurrentWorkItem();
  const oclgrind::WorkGroup *group = focus->getWorkGroup();
  m_out << "work-group " << idText(group->getGroupID()) << " (" << m_monitor->finishedGroups()
        << " groups finished):\n";
  for (const oclgrind::WorkItem *item : workItemsOf(*group)) {
    const char *state = item->getState() == oclgrind::WorkItem::FINISHED  ? "finished"
                        : item->getState() == oclgrind::WorkItem::BARRIER ? "at a barrier"
                                                                          : "ready";
    SourceLocation where = locationOf(m_monitor->nextOf(item));
    m_out << (item == focus ? "* " : "  ") << "work-item " << idText(item->getGlobalID()) << "  " << state;
    if (where.known() && item->getState() != oclgrind::WorkItem::FINISHED)
      m_out << "  " << fileShown(where.file) << ':' << where.line;
    m_out << '\n';
  }
}

void DebugSession::infoLaunch() {
  const replay::LaunchPlan &plan = m_launch.plan;
  m_out << "launch " << plan.index << ": kernel " << plan.entryPoint << " from " << m_kernelFile;
  if (!plan.buildOptions.empty())
    m_out << " (options '" << plan.buildOptions << "')";
  m_out << "\nglobal size";
  for (auto g : plan.globalSize)
    m_out << ' ' << g;
  if (plan.localSize) {
    m_out << ", local size";
    for (auto l : *plan.localSize)
      m_out << ' ' << l;
  }
  m_out << '\n';
  for (const replay::ArgPlan &arg : plan.args) {
    m_out << "  arg " << arg.index << ' ' << arg.name << ": ";
    switch (arg.role) {
    case replay::ArgRole::Scalar:
      m_out << "value " << arg.value;
      break;
    case replay::ArgRole::Local:
      m_out << "__local, " << arg.size << " bytes";
      break;
    case replay::ArgRole::Memory:
      m_out << "buffer of " << plan.memory[arg.memory].size << " bytes";
      break;
    case replay::ArgRole::Null:
      m_out << "NULL";
      break;
    }
    m_out << '\n';
  }
}

std::optional<DebugSession::Evaluated> DebugSession::evaluateFocused(const std::string &expression,
                                                                     const std::string &needsPause) {
  auto parsed = parseExpression(expression);
  if (!parsed) {
    fail(parsed.error());
    return std::nullopt;
  }
  auto view = focusView();
  if (!view) {
    fail(needsPause);
    return std::nullopt;
  }
  ExpressionEvaluator evaluator(*view);
  auto value = evaluator.evaluate(**parsed);
  if (!value) {
    fail(value.error());
    return std::nullopt;
  }
  return Evaluated{std::move(view), *value};
}

std::optional<std::string> DebugSession::evaluateText(const std::string &expression, NumberFormat format) {
  auto e = evaluateFocused(expression);
  if (!e)
    return std::nullopt;
  return formatValue(ExpressionEvaluator(*e->view), e->value, format);
}

DebugSession::Outcome DebugSession::cmdPrint(const std::string &a) {
  NumberFormat format;
  std::string expression, count;
  if (!splitFormat(a, format, expression, count) || !count.empty()) {
    fail("print takes /x, /d, /o, /t or /c");
    return {};
  }
  if (expression.empty()) {
    fail("print needs an expression");
    return {};
  }
  if (auto text = evaluateText(expression, format))
    m_out << '$' << ++m_history << " = " << *text << '\n';
  return {};
}

DebugSession::Outcome DebugSession::cmdSet(const std::string &a) {
  std::string rest = trim(a);
  for (const char *prefix : {"variable ", "var "})
    if (rest.rfind(prefix, 0) == 0) {
      rest = trim(rest.substr(std::string(prefix).size()));
      break;
    }
  std::size_t equals = std::string::npos;
  for (std::size_t i = 0; i < rest.size(); ++i)
    if (rest[i] == '=' && (i + 1 >= rest.size() || rest[i + 1] != '=') &&
        (i == 0 || std::string("=!<>").find(rest[i - 1]) == std::string::npos)) {
      equals = i;
      break;
    }
  if (equals == std::string::npos) {
    fail("set var takes NAME = VALUE");
    return {};
  }
  auto target = parseExpression(trim(rest.substr(0, equals)));
  auto source = parseExpression(trim(rest.substr(equals + 1)));
  if (!target || !source) {
    fail(!target ? target.error() : source.error());
    return {};
  }
  auto view = focusView();
  if (!view) {
    fail("no work-item is paused");
    return {};
  }
  ExpressionEvaluator evaluator(*view);
  auto lhs = evaluator.evaluate(**target);
  auto rhs = lhs ? evaluator.evaluate(**source) : format::Expected<Value>(format::fail(lhs.error()));
  if (!rhs) {
    fail(rhs.error());
    return {};
  }
  auto scalar = evaluator.scalarOf(*rhs);
  if (!scalar) {
    fail(scalar.error());
    return {};
  }
  auto done = evaluator.assign(*lhs, *scalar);
  if (!done) {
    fail(done.error());
    return {};
  }
  // A re-run (reverse-step, …) writes the same bytes again at this moment.
  std::vector<std::uint8_t> written(byteSize(lhs->type));
  if (lhs->place && view->read(*lhs->place, written.size(), written.data()))
    m_monitor->recordWrite(lhs->place->space, lhs->place->address, std::move(written));
  return {};
}

DebugSession::Outcome DebugSession::cmdBacktrace(const std::string &) {
  if (m_phase != Phase::Paused || !m_monitor) {
    fail("no work-item is paused");
    return {};
  }
  const oclgrind::WorkItem *item = m_monitor->invocation()->getCurrentWorkItem();
  std::vector<const llvm::Instruction *> at{m_monitor->nextOf(item)};
  for (std::stack<const llvm::Instruction *> calls = item->getCallStack(); !calls.empty(); calls.pop())
    at.push_back(calls.top());
  unsigned number = 0;
  for (const llvm::Instruction *instruction : at)
    for (const SourceFrame &frame : framesAt(instruction))
      m_out << '#' << number++ << "  " << frame.function << " () at " << fileShown(frame.file) << ':'
            << frame.line << (frame.inlined ? "  (inlined)" : "") << '\n';
  return {};
}

DebugSession::Outcome DebugSession::cmdList(const std::string &a) {
  std::string file = m_stop ? m_stop->where.file : std::string();
  const std::vector<std::string> *lines = sourceLines(file);
  if (!lines) {
    fail("cannot read " + fileShown(file));
    return {};
  }
  std::string spec = trim(a);
  unsigned first = 0, last = 0;
  if (spec.empty()) {
    unsigned centre = m_listNext ? m_listNext : 1;
    first = m_listNext && m_stop && centre == m_stop->where.line + 1 ? (centre > 6 ? centre - 6 : 1) : centre;
    last = first + 9;
  } else if (auto comma = spec.find(','); comma != std::string::npos) {
    auto a1 = number(spec.substr(0, comma));
    auto a2 = number(spec.substr(comma + 1));
    if (!a1 || !a2 || *a2 < *a1) {
      fail("list takes LINE or FIRST,LAST");
      return {};
    }
    first = static_cast<unsigned>(*a1);
    last = static_cast<unsigned>(*a2);
  } else if (auto n = number(spec)) {
    first = *n > 5 ? static_cast<unsigned>(*n - 5) : 1;
    last = first + 9;
  } else {
    fail("list takes LINE or FIRST,LAST");
    return {};
  }
  if (first > lines->size()) {
    fail("line " + std::to_string(first) + " is past the end of " + fileShown(file) + " (" +
         std::to_string(lines->size()) + " lines)");
    return {};
  }
  for (unsigned l = first; l <= last && l <= lines->size(); ++l)
    m_out << l << '\t' << (*lines)[l - 1] << '\n';
  m_listNext = last + 1;
  return {};
}

DebugSession::Outcome DebugSession::cmdExamine(const std::string &a) {
  NumberFormat format;
  std::string expression, count;
  if (!splitFormat(a, format, expression, count) || expression.empty()) {
    fail("x takes /N[F] and an expression: x/8 in, x/4x partial+2");
    return {};
  }
  std::uint64_t n = count.empty() ? 1 : std::stoull(count);
  if (n == 0 || n > 100000) {
    fail("x takes a count between 1 and 100000");
    return {};
  }
  // After the launch no work-item is left: an argument's buffer is read from the launch's global memory.
  if (m_phase != Phase::Paused) {
    std::string name = expression;
    std::uint64_t skip = 0;
    if (auto plus = expression.find('+'); plus != std::string::npos) {
      name = trim(expression.substr(0, plus));
      auto k = number(expression.substr(plus + 1));
      if (!k) {
        fail("after the launch, x takes ARGUMENT[+ELEMENTS]");
        return {};
      }
      skip = *k;
    }
    for (const replay::ArgPlan &arg : m_launch.plan.args) {
      if (arg.name != name)
        continue;
      if (arg.role != replay::ArgRole::Memory) {
        fail(name + " is not a buffer argument");
        return {};
      }
      if (m_phase == Phase::Before) {
        fail("the launch has not started: its buffers hold the captured bytes");
        return {};
      }
      replay::ElementType type =
          replay::elementTypeOf(arg.typeName.value_or(m_interpreter->argumentTypeName(arg.index)));
      std::size_t unit = type.unitBytes ? type.unitBytes : 1;
      std::vector<std::uint8_t> bytes = m_interpreter->memoryBytes(arg.memory);
      std::string line;
      for (std::uint64_t i = 0; i < n; ++i) {
        std::size_t at = static_cast<std::size_t>((skip + i) * unit);
        if (at + unit > bytes.size()) {
          if (i == 0)
            fail(name + " holds " + std::to_string(bytes.size()) + " bytes");
          break;
        }
        Scalar s;
        std::uint64_t raw = 0;
        std::memcpy(&raw, bytes.data() + at, unit > 8 ? 8 : unit);
        s.bytes = unit;
        if (type.kind == replay::ValueKind::Float) {
          s.kind = Scalar::Kind::Float;
          if (unit == 4) {
            float f;
            std::memcpy(&f, &raw, 4);
            s.f = f;
            s.singlePrecision = true;
          } else {
            std::memcpy(&s.f, &raw, 8);
          }
        } else if (!type.name.empty() && type.name[0] == 'u') {
          s.kind = Scalar::Kind::Unsigned;
          s.u = raw;
        } else {
          s.kind = Scalar::Kind::Signed;
          unsigned shift = static_cast<unsigned>(64 - 8 * (unit > 8 ? 8 : unit));
          s.s = shift >= 64 ? 0 : static_cast<std::int64_t>(raw << shift) >> shift;
        }
        if (i % 4 == 0)
          line += (i ? "\n" : "") + name + "[" + std::to_string(skip + i) + "]:";
        line += "\t" + formatScalar(s, nullptr, format);
      }
      if (!line.empty())
        m_out << line << '\n';
      return {};
    }
    fail(m_phase == Phase::Before ? "the launch has not started" : "no buffer argument named " + name);
    return {};
  }
  auto e = evaluateFocused(expression);
  if (!e)
    return {};
  ExpressionEvaluator evaluator(*e->view);
  auto pointer = evaluator.scalarOf(e->value);
  if (!pointer || pointer->kind != Scalar::Kind::Pointer || !pointer->pointee) {
    fail("x needs a pointer to typed memory (" + expression + " is not one)");
    return {};
  }
  std::size_t size = byteSize(pointer->pointee);
  std::string line;
  for (std::uint64_t i = 0; i < n; ++i) {
    Value element{pointer->pointee, Place{pointer->space, static_cast<std::size_t>(pointer->u + i * size)},
                  std::nullopt};
    if (i % 4 == 0) {
      char address[32];
      std::snprintf(address, sizeof address,
                    "0x%llx:", static_cast<unsigned long long>(pointer->u + i * size));
      line += (i ? "\n" : "") + std::string(address);
    }
    line += "\t" + formatValue(evaluator, element, format);
  }
  m_out << line << '\n';
  return {};
}

DebugSession::Outcome DebugSession::cmdCompare(const std::string &a) {
  if (m_phase != Phase::Finished) {
    fail("compare needs the launch's end: run it first");
    return {};
  }
  std::string against = trim(a);
  if (!against.empty() && against != "replay" && against != "capture") {
    fail("compare takes nothing (the capture's bytes after the launch) or `replay` (clcapture-replay's "
         "outputs)");
    return {};
  }
  const replay::LaunchPlan &plan = m_launch.plan;
  // `compare replay`: clcapture-replay runs the launch on the system's OpenCL device (its driver's compiler
  // stays out of this process) and writes what it read back; each buffer it wrote is compared.
  std::filesystem::path replayed;
  std::unique_ptr<std::filesystem::path, void (*)(std::filesystem::path *)> cleanup(nullptr, [](auto *p) {
    std::error_code ec;
    std::filesystem::remove_all(*p, ec);
  });
  if (against == "replay") {
    char folder[] = "/tmp/clcapture-debug-replay-XXXXXX";
    if (!::mkdtemp(folder)) {
      fail("compare replay: cannot make a temporary folder");
      return {};
    }
    replayed = folder;
    cleanup.reset(&replayed);
    auto found = cli::findToolProgram("clcapture-replay");
    if (!found) {
      fail("compare replay: clcapture-replay is neither beside clcapture-debug nor on PATH");
      return {};
    }
    std::string program = found->string();
    auto [text, status] = runProgram({program, m_launch.input.given.string(),
                                      "--only=" + std::to_string(plan.index), "--output", replayed.string()});
    if (!std::filesystem::is_directory(replayed / std::to_string(plan.index))) {
      fail("compare replay: " + program + " did not run the launch (exit " + std::to_string(status) + ")");
      return {};
    }
  }
  unsigned compared = 0, differing = 0;
  for (const replay::ArgPlan &arg : plan.args) {
    if (arg.role != replay::ArgRole::Memory)
      continue;
    std::vector<std::uint8_t> other;
    if (against == "replay") {
      auto file = replayed / std::to_string(plan.index) / ("arg" + std::to_string(arg.index) + ".bin");
      auto bytes = format::readCaptureFile(file);
      if (!bytes)
        continue; // the replay reads back only what the kernel may write
      other.assign(bytes->begin(), bytes->end());
    } else {
      if (!arg.dataAfter) {
        m_out << arg.name << ": nothing to compare ("
              << (arg.dataAfterSkipped ? *arg.dataAfterSkipped : std::string("captured without --data-after"))
              << ")\n";
        continue;
      }
      auto captured = format::readCaptureFile(m_launch.input.folder / *arg.dataAfter);
      if (!captured) {
        m_out << arg.name << ": nothing to compare (" << captured.error() << ")\n";
        continue;
      }
      other.assign(captured->begin(), captured->end());
    }
    replay::ElementType type =
        replay::elementTypeOf(arg.typeName.value_or(m_interpreter->argumentTypeName(arg.index)));
    replay::Comparison c =
        replay::compareBuffers(m_interpreter->memoryBytes(arg.memory), other, type, 4, plan.endianness);
    ++compared;
    if (!c.same)
      ++differing;
    m_out << arg.name << ": " << replay::describe(c, type) << '\n';
  }
  std::string whose = against == "replay" ? "clcapture-replay's" : "the capture's";
  if (!compared)
    m_out << (against == "replay" ? std::string("clcapture-replay read back no buffer\n")
                                  : std::string("no buffer has bytes captured after the launch (capture with "
                                                "--data-after)\n"));
  else
    m_out << (differing ? "outputs differ from " + whose + "\n" : "outputs equal " + whose + "\n");
  return {};
}

DebugSession::Outcome DebugSession::cmdPrintAll(const std::string &a) {
  NumberFormat format;
  std::string expression, count;
  if (!splitFormat(a, format, expression, count) || !count.empty() || expression.empty()) {
    fail("print-all takes [/F] and an expression");
    return {};
  }
  auto parsed = parseExpression(expression);
  if (!parsed) {
    fail(parsed.error());
    return {};
  }
  if (m_phase != Phase::Paused || !m_monitor) {
    fail("no work-group is running");
    return {};
  }
  const oclgrind::WorkGroup *group = m_monitor->invocation()->getCurrentWorkItem()->getWorkGroup();
  for (const oclgrind::WorkItem *item : workItemsOf(*group)) {
    m_out << "work-item " << idText(item->getGlobalID()) << ": ";
    const ItemTrace *trace = m_monitor->traceOf(item);
    if (!trace) {
      m_out << "<not started>\n";
      continue;
    }
    WorkItemView view(m_interpreter->context(), *item, m_monitor->nextOf(item), m_monitor);
    ExpressionEvaluator evaluator(view);
    auto value = evaluator.evaluate(**parsed);
    m_out << (value ? formatValue(evaluator, *value, format) : "<" + value.error() + ">") << '\n';
  }
  return {};
}

} // namespace clcapture::debug
