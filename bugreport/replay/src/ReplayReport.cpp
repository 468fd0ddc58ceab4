//===- ReplayReport.cpp - clcapture-replay's text and JSON output ---------===//

#include "clcapture/replay/ReplayReport.h"

#include "clcapture/format/JsonEmitter.h"
#include "clcapture/replay/ReplayOptions.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace clcapture::replay {

using nlohmann::ordered_json;

const char *toString(LaunchStatus s) {
  switch (s) {
  case LaunchStatus::Replayed:
    return "replayed";
  case LaunchStatus::Differs:
    return "differs";
  case LaunchStatus::NotReplayable:
    return "not-replayable";
  case LaunchStatus::Error:
    return "error";
  }
  return "error";
}

namespace {

std::string seconds(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", s);
  return text;
}

std::string launchName(const LaunchResult &r) {
  std::string name =
      r.index ? "instantiation " + std::to_string(*r.index) : "launch " + std::to_string(*r.launch);
  return name + " (" + r.entryPoint + (r.pid ? ", process " + std::to_string(*r.pid) : std::string()) + ")";
}

/// The buffer's comparison with the capture, as one phrase.
std::string comparisonText(const BufferResult &b, bool compare) {
  if (!compare)
    return "not compared (no --compare)";
  if (b.nothingToCompare)
    return *b.nothingToCompare;
  if (!b.againstCapture)
    return "not compared";
  return b.againstCapture->same ? "same" : "differs";
}

ordered_json differencesJson(const Comparison &c) {
  ordered_json j;
  j["count"] = c.differing;
  j["compared"] = c.compared;
  if (c.sizeMismatch)
    j["size"] = *c.sizeMismatch;
  ordered_json first = ordered_json::array();
  for (const Difference &d : c.first) {
    ordered_json one;
    one["offset"] = d.offset;
    if (d.element)
      one["element"] = *d.element;
    one["replayed"] = d.replayed;
    one["captured"] = d.captured;
    first.push_back(std::move(one));
  }
  j["first"] = std::move(first);
  return j;
}

struct Counts {
  std::size_t replayed = 0, differs = 0, notReplayable = 0, error = 0;
  std::size_t same = 0, different = 0, nothing = 0, unstable = 0;
};

/// Seconds in JSON, to the microsecond.
double microseconds(double seconds) {
  return std::round(seconds * 1e6) / 1e6;
}

std::string traceText(const TraceRun &t) {
  std::ostringstream out;
  out << std::min(t.wordsUsed, t.capacityWords) << " of " << t.capacityWords << " words";
  if (t.recordsDropped > 0)
    out << ", " << t.recordsDropped << " records did not fit (raise --trace-bytes)";
  out << (t.outputsSame ? "; outputs as without instrumentation" : "; outputs differ from the plain launch");
  if (t.file)
    out << "; " << *t.file;
  return out.str();
}

Counts count(const std::vector<LaunchResult> &results) {
  Counts c;
  for (const LaunchResult &r : results) {
    switch (r.status) {
    case LaunchStatus::Replayed:
      ++c.replayed;
      break;
    case LaunchStatus::Differs:
      ++c.differs;
      break;
    case LaunchStatus::NotReplayable:
      ++c.notReplayable;
      break;
    case LaunchStatus::Error:
      ++c.error;
      break;
    }
    for (const BufferResult &b : r.buffers) {
      if (b.againstCapture)
        ++(b.againstCapture->same ? c.same : c.different);
      else if (b.nothingToCompare)
        ++c.nothing;
      if (b.runsDiffering > 0)
        ++c.unstable;
    }
  }
  return c;
}

} // namespace

std::string textSummaryLine(const std::vector<LaunchResult> &results, const ReplayReportInfo &info) {
  Counts c = count(results);
  std::ostringstream out;
  out << "clcapture-replay: " << (c.replayed + c.differs) << " of " << results.size() << " launch"
      << (results.size() == 1 ? "" : "es") << " replayed";
  if (!info.device.empty())
    out << " on " << info.device;
  if (c.notReplayable)
    out << "; " << c.notReplayable << " not replayable";
  if (c.error)
    out << "; " << c.error << " failed";
  if (info.compare)
    out << "; compared with the capture: " << c.same << " buffer" << (c.same == 1 ? "" : "s") << " the same, "
        << c.different << " different, " << c.nothing << " with nothing to compare";
  if (info.repeat > 1)
    out << "; " << c.unstable << " buffer" << (c.unstable == 1 ? "" : "s") << " differing between "
        << info.repeat << " runs";
  return out.str();
}

std::string textReport(const std::vector<LaunchResult> &results, const ReplayReportInfo &info) {
  std::ostringstream out;
  for (const LaunchResult &r : results) {
    out << launchName(r) << ": ";
    switch (r.status) {
    case LaunchStatus::NotReplayable:
      out << "not replayable: " << r.reason << '\n';
      continue;
    case LaunchStatus::Error:
      out << "error: " << r.reason << '\n';
      continue;
    case LaunchStatus::Replayed:
    case LaunchStatus::Differs:
      break;
    }
    out << (r.status == LaunchStatus::Differs ? "replayed, differs" : "replayed") << " in "
        << seconds(r.seconds) << " s";
    if (r.runs > 1)
      out << " (" << r.runs << " runs)";
    if (r.buffers.empty()) {
      out << "; it writes no buffer\n";
    } else {
      out << "; writes";
      for (std::size_t i = 0; i < r.buffers.size(); ++i)
        out << (i ? ", " : " ") << r.buffers[i].name;
      out << '\n';
    }
    for (const BufferResult &b : r.buffers) {
      std::string label = "  " + b.name + " (argument " + std::to_string(b.argument) + ")";
      if (info.compare)
        out << label << ": "
            << (b.againstCapture ? (b.againstCapture->same
                                        ? "same as captured"
                                        : "differs from the capture: " + describe(*b.againstCapture, b.type))
                                 : comparisonText(b, true))
            << '\n';
      if (b.runsDiffering > 0)
        out << label << ": differs between runs (" << b.runsDiffering << " of " << (r.runs - 1)
            << " later runs); run " << b.firstDifferingRun
            << " against run 1: " << describe(*b.betweenRuns, b.type) << '\n';
    }
    for (const TraceRun &t : r.traces)
      out << "  trace run " << t.run << ": " << traceText(t) << '\n';
    if (r.status == LaunchStatus::Differs && !r.traces.empty())
      out << "  " << r.reason << '\n';
    for (const std::string &note : r.notes)
      out << "  note: " << note << '\n';
  }
  out << textSummaryLine(results, info) << '\n';
  return out.str();
}

std::string jsonReport(const std::vector<LaunchResult> &results, const ReplayReportInfo &info) {
  ordered_json j;
  j["tool"] = "clcapture-replay";
  j["version"] = CLCAPTURE_VERSION;
  j["captures"] = info.captures;
  j["device"] = info.device;
  j["compare"] = info.compare;
  j["ulp"] = info.ulp;
  j["repeat"] = info.repeat;
  ordered_json launches = ordered_json::array();
  for (const LaunchResult &r : results) {
    ordered_json l;
    if (r.index)
      l["index"] = *r.index;
    if (r.launch)
      l["launch"] = *r.launch;
    if (r.pid)
      l["process"] = *r.pid;
    l["entry_point"] = r.entryPoint;
    l["status"] = toString(r.status);
    if (!r.reason.empty())
      l["reason"] = r.reason;
    if (r.status == LaunchStatus::Replayed || r.status == LaunchStatus::Differs) {
      l["device"] = info.device;
      l["seconds"] = microseconds(r.seconds);
      l["runs"] = r.runs;
      if (r.runSeconds.size() > 1) {
        ordered_json each = ordered_json::array();
        for (double t : r.runSeconds)
          each.push_back(microseconds(t));
        l["run_seconds"] = std::move(each);
      }
    }
    if (!r.notes.empty())
      l["notes"] = r.notes;
    ordered_json buffers = ordered_json::array();
    for (const BufferResult &b : r.buffers) {
      ordered_json bj;
      bj["argument"] = b.argument;
      bj["name"] = b.name;
      if (!b.type.name.empty())
        bj["type"] = b.type.name;
      bj["size"] = b.size;
      if (b.file)
        bj["file"] = *b.file;
      bj["comparison"] = comparisonText(b, info.compare);
      if (b.againstCapture && !b.againstCapture->same)
        bj["differences"] = differencesJson(*b.againstCapture);
      if (b.runsDiffering > 0) {
        ordered_json runs = differencesJson(*b.betweenRuns);
        runs["runs_differing"] = b.runsDiffering;
        runs["first_differing_run"] = b.firstDifferingRun;
        bj["between_runs"] = std::move(runs);
      }
      buffers.push_back(std::move(bj));
    }
    if (r.status == LaunchStatus::Replayed || r.status == LaunchStatus::Differs)
      l["buffers"] = std::move(buffers);
    if (!r.traces.empty()) {
      ordered_json traces = ordered_json::array();
      for (const TraceRun &t : r.traces) {
        ordered_json tj;
        tj["run"] = t.run;
        tj["seconds"] = microseconds(t.seconds);
        if (t.file)
          tj["file"] = *t.file;
        tj["words_used"] = t.wordsUsed;
        tj["capacity_words"] = t.capacityWords;
        tj["records_dropped"] = t.recordsDropped;
        tj["outputs_same_as_plain"] = t.outputsSame;
        if (!t.outputsSame)
          tj["difference"] = t.difference;
        traces.push_back(std::move(tj));
      }
      l["traces"] = std::move(traces);
    }
    launches.push_back(std::move(l));
  }
  j["launches"] = std::move(launches);
  Counts c = count(results);
  ordered_json summary;
  summary["replayed"] = c.replayed;
  summary["differs"] = c.differs;
  summary["not_replayable"] = c.notReplayable;
  summary["error"] = c.error;
  j["summary"] = std::move(summary);
  return format::emitJson(j) + "\n";
}

int exitCodeFor(const std::vector<LaunchResult> &results) {
  for (const LaunchResult &r : results)
    if (r.status != LaunchStatus::Replayed)
      return kExitDiffers;
  return kExitOk;
}

} // namespace clcapture::replay
