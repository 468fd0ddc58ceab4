//===- SarifReport.cpp - SARIF 2.1.0 for code-scanning tools -------------===//

#include "clcapture/report/SarifReport.h"

#include "clcapture/format/JsonEmitter.h"
#include "clcapture/report/JsonReport.h"

namespace clcapture::report {
namespace {

using Json = nlohmann::ordered_json;

constexpr const char *kBaseId = "CAPTURES";

/// driver.rules, in ruleIndex order.
struct Rule {
  const char *id;
  const char *name;
  const char *shortText;
  const char *fullText;
  const char *level;
};
constexpr Rule kRules[] = {
    {"data-race", "DataRace", "Data race between two work-items",
     "Two distinct work-items access overlapping bytes, at least one writes, not both atomically, and no "
     "barrier orders them (OpenCL 1.2 §3.3-3.4).",
     "error"},
    {"barrier-divergence", "BarrierDivergence", "Barrier reached by non-uniform control flow",
     "A barrier is reached by some but not all work-items of a group, or by work-items at different "
     "barriers or loop iterations (OpenCL 1.2 §6.12.8).",
     "error"},
    {"out-of-bounds", "OutOfBounds", "Access outside its memory",
     "A work-item reads or writes bytes outside the memory its pointer belongs to: past either end of a "
     "buffer (or of its sub-buffer's region), of a local argument or of a program-scope array, by the sizes "
     "the capture gives, or past an array inside an object (C99 §6.5.6 ¶8, Annex J.2: behaviour undefined).",
     "error"},
    {"null-dereference", "NullDereference", "Access through a null pointer",
     "A work-item reads or writes through a null pointer (C99 §6.5.3.2 ¶4: behaviour undefined).", "error"},
    {"access-mode", "AccessMode", "Access the buffer's flags forbid",
     "A work-item writes a buffer the host created CL_MEM_READ_ONLY, or reads one created CL_MEM_WRITE_ONLY "
     "(OpenCL 1.2 §5.2.1, Table 5.3: behaviour undefined).",
     "error"},
    {"unknown", "VerificationIncomplete", "Kernel launch neither verified nor refuted",
     "The analysis could neither prove this launch free of data races and barrier divergence nor find a "
     "witness (bound reached, solver timeout or an unsupported construct); see the message.",
     "note"},
    {"analysis-error", "AnalysisError", "Kernel launch could not be analysed",
     "The launch could not be analysed, for example because its kernel does not compile with the captured "
     "build options; see the message.",
     "note"},
};
/// After the finding kinds' rules (FindingKind's order, the last being AccessMode): unknown, then error.
constexpr std::size_t kUnknownRule = static_cast<std::size_t>(FindingKind::AccessMode) + 1;
constexpr std::size_t kErrorRule = kUnknownRule + 1;
static_assert(kRules[kUnknownRule].id[0] == 'u' && kRules[kErrorRule].id[0] == 'a' &&
                  kRules[kErrorRule].id[1] == 'n',
              "kRules: the finding kinds in FindingKind's order, then unknown, then analysis-error");

/// The rule of a finding: kRules lists the finding kinds first, in FindingKind's order.
std::size_t ruleOf(FindingKind k) {
  return static_cast<std::size_t>(k);
}

Json rules() {
  Json list = Json::array();
  for (const Rule &r : kRules) {
    Json j;
    j["id"] = r.id;
    j["name"] = r.name;
    j["shortDescription"] = {{"text", r.shortText}};
    j["fullDescription"] = {{"text", r.fullText}};
    j["defaultConfiguration"] = {{"level", r.level}};
    list.push_back(std::move(j));
  }
  return list;
}

Json physicalLocation(const ReportInfo &info, const std::string &file, std::uint64_t line,
                      std::uint64_t column, const std::string &snippet) {
  Json artifact;
  artifact["uri"] = file;
  if (!info.capturesDirUri.empty())
    artifact["uriBaseId"] = kBaseId;
  Json j;
  j["artifactLocation"] = std::move(artifact);
  if (line != 0) {
    Json region;
    region["startLine"] = line;
    if (column != 0)
      region["startColumn"] = column;
    if (!snippet.empty())
      region["snippet"] = {{"text", snippet}};
    j["region"] = std::move(region);
  }
  return j;
}

std::string triple(const std::array<std::uint64_t, 3> &v) {
  return '(' + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) + ')';
}

std::string workItemText(const Access &a) {
  std::string s = a.access ? std::string(toString(*a.access)) + " by " : std::string();
  return s + "work-item global " + triple(a.workItem.globalId) + " local " + triple(a.workItem.localId) +
         " group " + triple(a.workItem.groupId);
}

Json workItemJson(const Access &a) {
  Json j;
  if (a.access)
    j["access"] = toString(*a.access);
  j["global_id"] = a.workItem.globalId;
  j["local_id"] = a.workItem.localId;
  j["group_id"] = a.workItem.groupId;
  return j;
}

Json commonProperties(const InstantiationResult &r) {
  Json p;
  p["instantiation"] = r.index;
  if (r.process) {
    p["process"] = r.process->pid;
    p["process_command_line"] = r.process->commandLine;
    p["capture_part"] = r.process->part;
  }
  p["entry_point"] = r.entryPoint;
  if (r.sameAs)
    p["same_as"] = *r.sameAs;
  addParametric(r, p);
  return p;
}

Json findingResult(const ReportInfo &info, const InstantiationResult &r, const Finding &f) {
  std::size_t ruleIndex = ruleOf(f.kind);
  Json j;
  j["ruleId"] = kRules[ruleIndex].id;
  j["ruleIndex"] = ruleIndex;
  j["level"] = f.severity == FindingSeverity::Error ? "error" : "warning";
  j["message"] = {{"text", f.message}};
  const Access &first = f.accesses[0];
  Json primary = f.kind == FindingKind::BarrierDivergence
                     ? physicalLocation(info, f.barrier.file, f.barrier.line, f.barrier.column, "")
                     : physicalLocation(info, first.location.file, first.location.line, first.location.column,
                                        first.source);
  j["locations"] = Json::array({{{"physicalLocation", std::move(primary)}}});
  Json related = Json::array();
  int id = 1;
  for (std::size_t i = 0; i < accessCount(f); ++i) {
    const Access &a = f.accesses[i];
    Json l;
    l["id"] = id++;
    l["physicalLocation"] =
        physicalLocation(info, a.location.file, a.location.line, a.location.column, a.source);
    l["message"] = {{"text", workItemText(a)}};
    related.push_back(std::move(l));
  }
  j["relatedLocations"] = std::move(related);
  Json p = commonProperties(r);
  if (f.kind == FindingKind::DataRace) {
    p["conflict"] = toString(f.conflict);
    p["benign"] = f.benign;
    p["memory"] = format::toString(f.memory);
    if (!f.array.empty())
      p["array"] = f.array;
    if (!f.index.empty())
      p["index"] = f.index;
    p["bytes"] = f.bytes;
  }
  if (memorySafety(f.kind))
    addMemorySafetyFacts(f, p);
  Json items = Json::array();
  for (std::size_t i = 0; i < accessCount(f); ++i)
    items.push_back(workItemJson(f.accesses[i]));
  p["work_items"] = std::move(items);
  addWitnessValues(f, p);
  if (f.confirmation)
    p["confirmation"] = *f.confirmation;
  j["properties"] = std::move(p);
  return j;
}

Json verdictResult(const ReportInfo &info, const InstantiationResult &r) {
  std::size_t ruleIndex = r.verdict == Verdict::Unknown ? kUnknownRule : kErrorRule;
  std::string what = r.verdict == Verdict::Unknown ? "could not verify " : "could not analyse ";
  Json j;
  j["ruleId"] = kRules[ruleIndex].id;
  j["ruleIndex"] = ruleIndex;
  j["level"] = "note";
  j["message"] = {
      {"text", what + r.entryPoint + " (instantiation " + std::to_string(r.index) + "): " + r.reason}};
  j["locations"] = Json::array({{{"physicalLocation", physicalLocation(info, r.kernelFile, 0, 0, "")}}});
  Json p = commonProperties(r);
  p["verdict"] = toString(r.verdict);
  if (r.errorKind != ErrorKind::None)
    p["error_kind"] = toString(r.errorKind);
  j["properties"] = std::move(p);
  return j;
}

} // namespace

nlohmann::ordered_json sarifReportValue(const std::vector<InstantiationResult> &results,
                                        const ReportInfo &info) {
  Json driver;
  driver["name"] = "clcapture-verify";
  driver["version"] = info.version;
  driver["rules"] = rules();

  Json list = Json::array();
  for (const InstantiationResult &r : results) {
    for (const Finding &f : r.findings)
      list.push_back(findingResult(info, r, f));
    if (r.verdict == Verdict::Unknown || r.verdict == Verdict::Error)
      list.push_back(verdictResult(info, r));
  }

  Json run;
  run["tool"] = {{"driver", std::move(driver)}};
  if (!info.capturesDirUri.empty())
    run["originalUriBaseIds"] = {{kBaseId, {{"uri", info.capturesDirUri}}}};
  run["results"] = std::move(list);
  Summary s = summarize(results);
  run["properties"] = {
      {"captures", info.capturesPath},
      {"strict", info.strict},
      {"summary",
       {{"verified", s.verified}, {"defects", s.defects}, {"unknown", s.unknown}, {"error", s.error}}}};

  Json log;
  log["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
  log["version"] = "2.1.0";
  log["runs"] = Json::array({std::move(run)});
  return log;
}

std::string sarifReport(const std::vector<InstantiationResult> &results, const ReportInfo &info) {
  return format::emitJson(sarifReportValue(results, info)) + '\n';
}

} // namespace clcapture::report
