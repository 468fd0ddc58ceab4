//===- RecordingSession.cpp - gdb's commands over a device recording ----------===//
#include "RecordingSession.h"

#include "SessionText.h"

#include <algorithm>
#include <sstream>

namespace clcapture::debug {

RecordingSession::RecordingSession(Recording recording, CommandInput &input, std::ostream &out, Rerun rerun)
    : m_recording(std::move(recording)), m_input(input), m_out(out), m_rerun(std::move(rerun)) {
  m_commands = {
      {"help", {"h"}, &RecordingSession::cmdHelp, "help [COMMAND]: the commands, or one command's use"},
      {"break",
       {"b", "br"},
       &RecordingSession::cmdBreak,
       "break LINE | FILE:LINE | FUNCTION [if CONDITION]: stop where a recorded work-item ran that line"},
      {"tbreak",
       {},
       &RecordingSession::cmdTbreak,
       "tbreak LOCATION [if CONDITION]: deleted at its first stop"},
      {"delete", {"d"}, &RecordingSession::cmdDelete, "delete [N...]: delete breakpoints and watchpoints"},
      {"info",
       {"i"},
       &RecordingSession::cmdInfo,
       "info locals | args | workitems | breakpoints | recording: what the recording holds"},
      {"continue",
       {"c", "cont", "run", "r"},
       &RecordingSession::cmdContinue,
       "continue: forward to the next breakpoint or watchpoint hit (any recorded work-item)"},
      {"step",
       {"s"},
       &RecordingSession::cmdStep,
       "step [N]: the focused work-item's next recorded statement"},
      {"next",
       {"n"},
       &RecordingSession::cmdNext,
       "next [N]: its next statement in this function, over calls"},
      {"finish",
       {"fin"},
       &RecordingSession::cmdFinish,
       "finish: its first statement after this helper returns"},
      {"reverse-step", {"rs"}, &RecordingSession::cmdReverseStep, "reverse-step [N]: its previous statement"},
      {"reverse-next",
       {"rn"},
       &RecordingSession::cmdReverseNext,
       "reverse-next [N]: its previous statement in this function"},
      {"reverse-finish",
       {},
       &RecordingSession::cmdReverseFinish,
       "reverse-finish: back to the caller's statement before this helper"},
      {"reverse-continue",
       {"rc"},
       &RecordingSession::cmdReverseContinue,
       "reverse-continue: back to the previous breakpoint or watchpoint hit"},
      {"watch", {}, &RecordingSession::cmdWatch, "watch NAME: stop where a work-item's record changes NAME"},
      {"workitem",
       {"wi"},
       &RecordingSession::cmdWorkitem,
       "workitem X [Y [Z]]: focus that recorded work-item (at the same moment of the timeline)"},
      {"print",
       {"p", "inspect"},
       &RecordingSession::cmdPrint,
       "print[/x|/d|/o|/t|/c] EXPR: a recorded value (or an expression over them) of the focused work-item"},
      {"print-all",
       {"pa"},
       &RecordingSession::cmdPrintAll,
       "print-all[/F] EXPR: EXPR in every recorded work-item of the focused one's group, at this moment"},
      {"set",
       {},
       &RecordingSession::cmdSet,
       "set var NAME = VALUE: record the launch again on the device with VALUE written into NAME here"},
      {"backtrace",
       {"bt", "where"},
       &RecordingSession::cmdBacktrace,
       "backtrace: the focused work-item's calls"},
      {"list", {"l"}, &RecordingSession::cmdList, "list [LINE]: source lines"},
      {"quit", {"q", "exit"}, &RecordingSession::cmdQuit, "quit: end the session"},
  };
  std::istringstream source(m_recording.origin().kernelSource);
  for (std::string line; std::getline(source, line);)
    m_sourceLines.push_back(line);
  m_kernelFile = m_recording.origin().kernelFileName;
  buildTimeline();
  auto items = m_recording.items();
  if (!items.empty())
    m_focus = items.front();
}

void RecordingSession::buildTimeline() {
  m_timeline.clear();
  m_timelineOf.clear();
  const RecordedRange &range = m_recording.range();
  // Oclgrind's order: group by group (z, y, x), barrier interval by interval, work-item by work-item.
  struct Key {
    std::uint64_t groupZ, groupY, groupX, epoch, item, index;
  };
  std::vector<Key> all;
  for (std::uint64_t item : m_recording.items()) {
    Id3 g = range.groupId(item);
    const auto &records = m_recording.records(item);
    m_timelineOf[item].resize(records.size());
    for (std::size_t i = 0; i < records.size(); ++i)
      all.push_back(Key{g[2], g[1], g[0], records[i].epoch, item, i});
  }
  std::sort(all.begin(), all.end(), [](const Key &a, const Key &b) {
    return std::tie(a.groupZ, a.groupY, a.groupX, a.epoch, a.item, a.index) <
           std::tie(b.groupZ, b.groupY, b.groupX, b.epoch, b.item, b.index);
  });
  for (const Key &k : all) {
    m_timelineOf[k.item][k.index] = m_timeline.size();
    m_timeline.push_back(Point{k.item, k.index});
  }
}

void RecordingSession::fail(const std::string &message) {
  m_out << "error: " << message << '\n';
  m_failed = true;
}

std::string RecordingSession::idText(std::uint64_t item) const {
  Id3 id = m_recording.range().globalId(item);
  std::string text = "(" + std::to_string(id[0]);
  if (m_recording.range().dims > 1)
    text += ", " + std::to_string(id[1]);
  if (m_recording.range().dims > 2)
    text += ", " + std::to_string(id[2]);
  return text + ")";
}

std::string RecordingSession::sourceLine(unsigned line) const {
  if (line == 0 || line > m_sourceLines.size())
    return std::to_string(line) + "\tin " + m_recording.origin().kernelFileName;
  return std::to_string(line) + '\t' + m_sourceLines[line - 1];
}

void RecordingSession::moveTo(std::size_t index) {
  m_position = index;
  m_now = timelineIndex();
}

std::optional<std::size_t> RecordingSession::positionNow(std::uint64_t item) const {
  auto it = m_timelineOf.find(item);
  if (!m_now || it == m_timelineOf.end())
    return std::nullopt;
  // The item's records are in increasing timeline order: the last one at or before the present.
  const std::vector<std::size_t> &at = it->second;
  auto after = std::upper_bound(at.begin(), at.end(), *m_now);
  if (after == at.begin())
    return std::nullopt;
  return static_cast<std::size_t>(after - at.begin() - 1);
}

void RecordingSession::show(const std::string &why) {
  const Record &r = focusRecords()[*m_position];
  if (!why.empty())
    m_out << why << '\n';
  m_out << "work-item " << idText(m_focus) << " after " << m_recording.origin().kernelFileName << ':'
        << r.site->line << " (" << r.site->function << ", recorded statement " << r.sequence << ")\n";
  m_out << sourceLine(r.site->line) << '\n';
  for (std::size_t s = 0; s < r.site->values.size(); ++s) {
    RecordedValue v{&r.site->values[s], m_recording.valueWords(r, s), &r};
    m_out << "  " << v.slot->name << " = " << formatRecorded(v) << '\n';
  }
}

std::optional<std::size_t> RecordingSession::timelineIndex() const {
  auto it = m_timelineOf.find(m_focus);
  if (!m_position || it == m_timelineOf.end() || *m_position >= it->second.size())
    return std::nullopt;
  return it->second[*m_position];
}

std::optional<std::string> RecordingSession::stopsAt(const Point &point) {
  const Record &r = m_recording.records(point.item)[point.index];
  for (auto it = m_breakpoints.begin(); it != m_breakpoints.end(); ++it) {
    if (it->line != r.site->line)
      continue;
    if (it->condition) {
      RecordedState state(m_recording, point.item, point.index);
      auto value = state.evaluate(*it->condition);
      if (!value)
        continue; // not recorded here: this point cannot satisfy it
      Scalar zero;
      auto isZero = arithmetic("==", *value, zero);
      if (isZero && (isZero->s != 0 || isZero->u != 0))
        continue; // false here
    }
    ++it->hits;
    std::string why = "Breakpoint " + std::to_string(it->number) + ", work-item " + idText(point.item);
    if (it->temporary) {
      why += " (temporary breakpoint deleted)";
      m_breakpoints.erase(it);
    }
    return why;
  }
  for (const Watch &w : m_watches) {
    for (std::size_t s = 0; s < r.site->values.size(); ++s) {
      if (compact(r.site->values[s].name) != compact(w.name))
        continue;
      RecordedValue now{&r.site->values[s], m_recording.valueWords(r, s), &r};
      std::string before = "<not recorded>";
      if (point.index > 0)
        if (auto old = RecordedState(m_recording, point.item, point.index - 1).lookup(w.name))
          before = formatRecorded(*old);
      std::string after = formatRecorded(now);
      if (before == after)
        continue;
      return "Watchpoint " + std::to_string(w.number) + ": " + w.name + "\n\nOld value = " + before +
             "\nNew value = " + after + "\n";
    }
  }
  return std::nullopt;
}

RecordingSession::Outcome RecordingSession::search(bool forward) {
  if (m_timeline.empty()) {
    fail("the recording holds no statement");
    return {};
  }
  std::optional<std::size_t> now = m_now;
  if (!now && !forward) {
    m_out << "No more reverse-execution history.\n";
    return {};
  }
  std::size_t t = now ? *now : static_cast<std::size_t>(-1);
  while (forward ? t + 1 < m_timeline.size() || t == static_cast<std::size_t>(-1) : t > 0) {
    t = forward ? t + 1 : t - 1;
    if (auto why = stopsAt(m_timeline[t])) {
      m_stopReason = why->rfind("Watchpoint", 0) == 0 ? "data breakpoint" : "breakpoint";
      m_ended = false;
      m_focus = m_timeline[t].item;
      moveTo(m_timeline[t].index);
      show("\n" + *why);
      return {};
    }
  }
  m_stopReason = "step";
  if (forward) {
    m_ended = true;
    m_out << "[the recording ends: every recorded work-item's last recorded statement has run]\n";
    const Point &last = m_timeline.back();
    m_focus = last.item;
    moveTo(last.index);
  } else {
    m_out << "No more reverse-execution history.\n";
    m_focus = m_timeline.front().item;
    moveTo(m_timeline.front().index);
    show("");
  }
  return {};
}

RecordingSession::Outcome RecordingSession::stepBy(bool forward, std::optional<int> depthChange,
                                                   const std::string &what) {
  const auto &records = focusRecords();
  if (records.empty()) {
    fail("work-item " + idText(m_focus) + " is not recorded (--record-items " +
         m_recording.layout().recordItems + ")");
    return {};
  }
  unsigned depth = m_position ? records[*m_position].depth : 0;
  std::size_t count = 1;
  if (auto n = number(trim(what)); n && *n > 0)
    count = *n;
  for (std::size_t step = 0; step < count; ++step) {
    std::optional<std::size_t> found;
    auto fits = [&](std::size_t i) {
      return !depthChange ? true : *depthChange == 0 ? records[i].depth <= depth : records[i].depth < depth;
    };
    if (forward) {
      for (std::size_t i = m_position ? *m_position + 1 : 0; i < records.size() && !found; ++i)
        if (fits(i))
          found = i;
    } else if (m_position) {
      for (std::size_t i = *m_position; i-- > 0 && !found;)
        if (fits(i))
          found = i;
    }
    if (!found) {
      m_out << (forward ? "work-item " + idText(m_focus) + " has no later recorded statement (it finished" +
                              (m_recording.recordsDropped() ? ", or the trace was full" : std::string()) + ")"
                        : std::string("No more reverse-execution history."))
            << '\n';
      return {};
    }
    m_position = *found;
    depth = records[*found].depth;
  }
  moveTo(*m_position);
  m_ended = false;
  m_stopReason = "step";
  show("");
  return {};
}

std::optional<unsigned> RecordingSession::parseLocation(const std::string &text) {
  std::string where = text;
  if (auto colon = where.rfind(':'); colon != std::string::npos)
    where = where.substr(colon + 1);
  if (auto line = number(where))
    return static_cast<unsigned>(*line);
  for (const trace::TraceFunction &f : m_recording.layout().functions)
    if (f.name == where) {
      // The function's first recorded site.
      unsigned first = 0;
      for (const trace::TraceSite &site : m_recording.layout().sites)
        if (site.function == where && (first == 0 || site.line < first))
          first = site.line;
      return first ? first : f.line;
    }
  return std::nullopt;
}

RecordingSession::Outcome RecordingSession::cmdBreak(const std::string &a) {
  std::string text = trim(a), condition;
  if (auto at = text.find(" if "); at != std::string::npos) {
    condition = trim(text.substr(at + 4));
    text = trim(text.substr(0, at));
  }
  auto line = parseLocation(text);
  if (!line) {
    fail("no line or function " + text + " (break LINE | FILE:LINE | FUNCTION)");
    return {};
  }
  bool recorded = false;
  for (const trace::TraceSite &site : m_recording.layout().sites)
    recorded = recorded || site.line == *line;
  if (!recorded) {
    fail("line " + std::to_string(*line) +
         " has no recorded statement (clcapture-instrument records "
         "declarations, assignments, conditions, barriers, returns)");
    return {};
  }
  Breakpoint b;
  b.number = m_nextNumber++;
  b.line = *line;
  if (!condition.empty()) {
    auto parsed = parseExpression(condition);
    if (!parsed) {
      fail(parsed.error());
      return {};
    }
    b.condition = std::shared_ptr<Expr>(std::move(*parsed));
    b.conditionText = condition;
  }
  m_out << "Breakpoint " << b.number << " at " << m_recording.origin().kernelFileName << ':' << b.line
        << (condition.empty() ? "" : " if " + condition) << '\n';
  m_breakpoints.push_back(std::move(b));
  return {};
}

RecordingSession::Outcome RecordingSession::cmdTbreak(const std::string &a) {
  std::size_t before = m_breakpoints.size();
  cmdBreak(a);
  if (m_breakpoints.size() > before)
    m_breakpoints.back().temporary = true;
  return {};
}

RecordingSession::Outcome RecordingSession::cmdDelete(const std::string &a) {
  auto list = words(a);
  if (list.empty()) {
    m_breakpoints.clear();
    m_watches.clear();
    return {};
  }
  for (const std::string &w : list) {
    auto n = number(w);
    auto b = std::find_if(m_breakpoints.begin(), m_breakpoints.end(),
                          [&](const Breakpoint &x) { return n && x.number == static_cast<int>(*n); });
    auto v = std::find_if(m_watches.begin(), m_watches.end(),
                          [&](const Watch &x) { return n && x.number == static_cast<int>(*n); });
    if (b != m_breakpoints.end())
      m_breakpoints.erase(b);
    else if (v != m_watches.end())
      m_watches.erase(v);
    else
      fail("no breakpoint number " + w);
  }
  return {};
}

RecordingSession::Outcome RecordingSession::cmdWatch(const std::string &a) {
  std::string name = trim(a);
  bool known = false;
  for (const trace::TraceSite &site : m_recording.layout().sites)
    for (const trace::TraceValue &s : site.values)
      known = known || compact(s.name) == compact(name);
  if (!known) {
    fail("no statement records " + name + " (watch takes a recorded variable or lvalue)");
    return {};
  }
  Watch w{m_nextNumber++, name};
  m_out << "Watchpoint " << w.number << ": " << name << '\n';
  m_watches.push_back(w);
  return {};
}

RecordingSession::Outcome RecordingSession::cmdContinue(const std::string &) {
  return search(true);
}
RecordingSession::Outcome RecordingSession::cmdReverseContinue(const std::string &) {
  return search(false);
}
RecordingSession::Outcome RecordingSession::cmdStep(const std::string &a) {
  return stepBy(true, std::nullopt, a);
}
RecordingSession::Outcome RecordingSession::cmdNext(const std::string &a) {
  return stepBy(true, 0, a);
}
RecordingSession::Outcome RecordingSession::cmdFinish(const std::string &a) {
  return stepBy(true, -1, a);
}
RecordingSession::Outcome RecordingSession::cmdReverseStep(const std::string &a) {
  return stepBy(false, std::nullopt, a);
}
RecordingSession::Outcome RecordingSession::cmdReverseNext(const std::string &a) {
  return stepBy(false, 0, a);
}
RecordingSession::Outcome RecordingSession::cmdReverseFinish(const std::string &a) {
  return stepBy(false, -1, a);
}

RecordingSession::Outcome RecordingSession::cmdQuit(const std::string &) {
  return Outcome{true};
}

} // namespace clcapture::debug
