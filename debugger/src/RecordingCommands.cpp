//===- RecordingCommands.cpp - The recording session's reading commands and its loop ===//
//
// RecordingSession.cpp moves through the recording; this file reads it (print, print-all, info, backtrace,
// list), changes it (set var: a new recording from the device), and runs the command loop.
//
//===----------------------------------------------------------------------===//
#include "RecordingSession.h"
#include "SessionText.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace clcapture::debug {

namespace {

const char *const kPrompt = "(clcapture-debug) ";

} // namespace

int RecordingSession::run() {
  const RecordingOrigin &o = m_recording.origin();
  m_out << "clcapture-debug: launch " << o.launch << " (" << m_recording.layout().kernel << ") recorded on "
        << o.device << '\n'
        << m_recording.summary() << '\n';
  if (!o.outputsSame)
    m_out << "warning: the instrumented run wrote other bytes than the plain one: " << o.outputsDifference
          << '\n';
  m_out << m_witnessText;
  m_out << "the focus is work-item " << idText(m_focus) << "; step, next, continue and their reverse-* move "
        << "through what it ran\n";
  while (true) {
    auto line = m_input.next(kPrompt);
    if (!line)
      break;
    std::string text = trim(*line);
    if (text.empty() && m_input.interactive())
      text = m_lastCommand;
    if (text.empty())
      continue;
    m_lastCommand = text;
    if (execute(text).quit)
      break;
  }
  m_out.flush();
  return m_failed && !m_input.interactive() ? 1 : 0;
}

void RecordingSession::followWitness(const FindingWitness &witness) {
  m_witnessText =
      "finding " + std::to_string(witness.number) + " (" + witness.kind + "): " + witness.message + "\n";
  const RecordedRange &range = m_recording.range();
  bool focused = false;
  for (const WitnessAccess &a : witness.accesses) {
    Id3 id{a.globalId[0], a.globalId[1], a.globalId[2]};
    std::uint64_t item = range.linear(id);
    std::string condition;
    for (unsigned d = 0; d < range.dims; ++d)
      condition += (d ? " && " : "") + std::string("get_global_id(") + std::to_string(d) +
                   ") == " + std::to_string(id[d]);
    std::stringbuf quiet;
    std::streambuf *previous = m_out.rdbuf(&quiet);
    cmdBreak(std::to_string(a.line) + " if " + condition);
    m_out.rdbuf(previous);
    m_witnessText += "  " + std::string(a.write ? "write" : "read") + " by work-item " + idText(item) +
                     " at line " + std::to_string(a.line) + ": breakpoint " +
                     std::to_string(m_nextNumber - 1) + " (continue stops there)\n";
    if (!focused && !m_recording.records(item).empty()) {
      m_focus = item;
      focused = true;
    }
  }
}

std::string RecordingSession::runQuietly(const std::string &line, bool &failed) {
  std::stringbuf captured;
  std::streambuf *previous = m_out.rdbuf(&captured);
  bool failedBefore = m_failed;
  m_failed = false;
  Outcome outcome = execute(trim(line));
  failed = m_failed || outcome.quit;
  m_failed = failedBefore;
  m_out.rdbuf(previous);
  return captured.str();
}

RecordingSession::Outcome RecordingSession::execute(const std::string &line) {
  std::string word = line.substr(0, line.find_first_of(" \t/"));
  std::string rest = line.substr(word.size());
  const Command *found = nullptr;
  std::vector<const Command *> prefixed;
  for (const Command &c : m_commands) {
    if (c.name == word || std::find(c.aliases.begin(), c.aliases.end(), word) != c.aliases.end()) {
      found = &c;
      break;
    }
    if (c.name.rfind(word, 0) == 0)
      prefixed.push_back(&c);
  }
  if (!found && prefixed.size() == 1)
    found = prefixed.front();
  if (!found) {
    fail((prefixed.empty() ? "undefined command: \"" : "ambiguous command: \"") + word + "\" (try \"help\")");
    return {};
  }
  return (this->*found->handler)(rest);
}

RecordingSession::Outcome RecordingSession::cmdHelp(const std::string &a) {
  std::string which = trim(a);
  for (const Command &c : m_commands)
    if (which.empty() || c.name == which ||
        std::find(c.aliases.begin(), c.aliases.end(), which) != c.aliases.end())
      m_out << c.help << '\n';
  return {};
}

RecordingSession::Outcome RecordingSession::cmdPrint(const std::string &a) {
  NumberFormat format = NumberFormat::Natural;
  std::string expression, count;
  if (!splitFormat(a, format, expression, count)) {
    fail("unknown format in print" + a);
    return {};
  }
  if (!m_position) {
    fail("work-item " + idText(m_focus) + " has not run a recorded statement yet (step first)");
    return {};
  }
  auto text = RecordedState(m_recording, m_focus, *m_position).print(expression, format);
  if (!text) {
    fail(text.error());
    return {};
  }
  m_out << '$' << ++m_history << " = " << *text << '\n';
  return {};
}

RecordingSession::Outcome RecordingSession::cmdPrintAll(const std::string &a) {
  NumberFormat format = NumberFormat::Natural;
  std::string expression, count;
  if (!splitFormat(a, format, expression, count)) {
    fail("unknown format in print-all" + a);
    return {};
  }
  // Each work-item of the group at the same moment: its last record at or before the focus's in the
  // timeline.
  Id3 group = m_recording.range().groupId(m_focus);
  for (std::uint64_t item : m_recording.items()) {
    if (m_recording.range().groupId(item) != group)
      continue;
    std::optional<std::size_t> at = positionNow(item);
    m_out << "work-item " << idText(item) << ": ";
    if (!at) {
      m_out << "<no recorded statement yet>\n";
      continue;
    }
    auto text = RecordedState(m_recording, item, *at).print(expression, format);
    m_out << (text ? *text : "<" + text.error() + ">") << '\n';
  }
  return {};
}

RecordingSession::Outcome RecordingSession::cmdWorkitem(const std::string &a) {
  auto list = words(a);
  Id3 id{0, 0, 0};
  for (std::size_t d = 0; d < list.size() && d < 3; ++d) {
    auto n = number(list[d]);
    if (!n) {
      fail("workitem X [Y [Z]]: " + list[d] + " is not a number");
      return {};
    }
    id[d] = *n;
  }
  if (list.empty()) {
    fail("workitem X [Y [Z]]");
    return {};
  }
  const RecordedRange &range = m_recording.range();
  for (std::size_t d = 0; d < 3; ++d)
    if (id[d] < range.offset[d] || id[d] >= range.offset[d] + range.global[d]) {
      fail("no work-item with global id " + a + " in this launch");
      return {};
    }
  std::uint64_t item = range.linear(id);
  if (m_recording.records(item).empty()) {
    fail("work-item " + idText(item) + " is not recorded (--record-items " +
         m_recording.layout().recordItems + "; record it with --record-items)");
    return {};
  }
  // The same moment: its last record at or before the present of the timeline.
  m_focus = item;
  m_position = positionNow(item);
  if (m_position)
    show("[switching to work-item " + idText(item) + "]");
  else
    m_out << "[switching to work-item " << idText(item) << ": it has not run a recorded statement yet]\n";
  return {};
}

RecordingSession::Outcome RecordingSession::cmdInfo(const std::string &a) {
  std::string what = trim(a);
  if (what.rfind("loc", 0) == 0 || what.rfind("arg", 0) == 0) {
    if (!m_position) {
      fail("work-item " + idText(m_focus) + " has not run a recorded statement yet");
      return {};
    }
    bool args = what.rfind("arg", 0) == 0;
    for (const RecordedValue &v : RecordedState(m_recording, m_focus, *m_position).visible()) {
      bool isArg = v.record->site->kind == trace::SiteKind::Entry;
      if (args == isArg)
        m_out << v.slot->name << " = " << formatRecorded(v) << '\n';
    }
  } else if (what.rfind("mem", 0) == 0) {
    // The DAP server's scopes: a recording knows values, not the memory they live in; all are the
    // work-item's.
    m_out << "private:\n";
    if (m_position)
      for (const RecordedValue &v : RecordedState(m_recording, m_focus, *m_position).visible())
        m_out << "  " << v.slot->name << " = " << formatRecorded(v) << '\n';
    m_out << "local:\nglobal:\n";
  } else if (what.rfind("work", 0) == 0) {
    for (std::uint64_t item : m_recording.items()) {
      const auto &records = m_recording.records(item);
      m_out << (item == m_focus ? "* " : "  ") << "work-item " << idText(item) << ": " << records.size()
            << (records.size() == 1 ? " statement" : " statements") << " recorded, last at line "
            << records.back().site->line << '\n';
    }
  } else if (what.rfind("b", 0) == 0 || what.rfind("w", 0) == 0) {
    for (const Breakpoint &b : m_breakpoints)
      m_out << b.number << "\tbreakpoint at line " << b.line
            << (b.conditionText.empty() ? "" : " if " + b.conditionText) << ", hit " << b.hits << " time"
            << (b.hits == 1 ? "" : "s") << '\n';
    for (const Watch &w : m_watches)
      m_out << w.number << "\twatchpoint on " << w.name << '\n';
  } else if (what.rfind("rec", 0) == 0 || what.rfind("launch", 0) == 0) {
    const RecordingOrigin &o = m_recording.origin();
    m_out << "device: " << o.device << "\nlaunch: " << o.launch << " (" << m_recording.layout().kernel
          << ") of " << o.capture << ", run " << o.run << "\n"
          << m_recording.summary() << "\noutputs: "
          << (o.outputsSame ? "as the plain launch's"
                            : "differ from the plain launch's: " + o.outputsDifference)
          << '\n';
  } else {
    fail("info locals | args | workitems | breakpoints | recording");
  }
  return {};
}

RecordingSession::Outcome RecordingSession::cmdBacktrace(const std::string &) {
  if (!m_position) {
    fail("work-item " + idText(m_focus) + " has not run a recorded statement yet");
    return {};
  }
  const auto &records = focusRecords();
  unsigned depth = records[*m_position].depth;
  std::vector<const Record *> frames{&records[*m_position]};
  for (std::size_t i = *m_position; i-- > 0 && depth > 0;)
    if (records[i].depth < depth) {
      frames.push_back(&records[i]);
      depth = records[i].depth;
    }
  for (std::size_t f = 0; f < frames.size(); ++f)
    m_out << '#' << f << "  " << frames[f]->site->function << " () at " << m_recording.origin().kernelFileName
          << ':' << frames[f]->site->line << '\n';
  return {};
}

RecordingSession::Outcome RecordingSession::cmdList(const std::string &a) {
  unsigned centre = m_position ? focusRecords()[*m_position].site->line : 1;
  if (auto n = number(trim(a)))
    centre = static_cast<unsigned>(*n);
  unsigned first = centre > 5 ? centre - 5 : 1;
  for (unsigned line = first; line < first + 10 && line <= m_sourceLines.size(); ++line)
    m_out << sourceLine(line) << '\n';
  return {};
}

RecordingSession::Outcome RecordingSession::cmdSet(const std::string &a) {
  std::string text = trim(a);
  if (text.rfind("var ", 0) == 0)
    text = trim(text.substr(4));
  auto equals = text.find('=');
  if (equals == std::string::npos || equals == 0 || text[equals + 1] == '=') {
    fail("set var NAME = VALUE");
    return {};
  }
  std::string name = trim(text.substr(0, equals)), value = trim(text.substr(equals + 1));
  if (!m_position) {
    fail("work-item " + idText(m_focus) + " has not run a recorded statement yet (step first)");
    return {};
  }
  if (!m_rerun) {
    fail("a saved recording cannot be run again; open the capture with --engine=device to change values");
    return {};
  }
  if (!RecordedState(m_recording, m_focus, *m_position).lookup(name)) {
    fail("no value of " + name + " is recorded in this frame up to here (set var takes a recorded name)");
    return {};
  }
  const Record &r = focusRecords()[*m_position];
  if (r.site->kind == trace::SiteKind::Condition || r.site->kind == trace::SiteKind::Return) {
    fail(std::string("this point is a ") + trace::siteKindName(r.site->kind) + " (line " +
         std::to_string(r.site->line) + "); a value is written after a statement: step to one first");
    return {};
  }
  Injection injection{r.site->id, r.sequence, m_focus, name, value};
  std::vector<Injection> all = m_injections;
  all.push_back(injection);
  m_out << "recording the launch again on the device with " << name << " = " << value << " written after "
        << m_recording.origin().kernelFileName << ':' << r.site->line << " in work-item " << idText(m_focus)
        << " ...\n";
  auto again = m_rerun(all);
  if (!again) {
    fail(again.error());
    return {};
  }
  std::size_t position = *m_position;
  m_recording = std::move(*again);
  m_injections = std::move(all);
  buildTimeline();
  if (position >= focusRecords().size()) {
    fail("the new recording of work-item " + idText(m_focus) + " is shorter than the old one");
    m_position =
        focusRecords().empty() ? std::nullopt : std::optional<std::size_t>(focusRecords().size() - 1);
    return {};
  }
  moveTo(position);
  show("");
  return {};
}

} // namespace clcapture::debug
