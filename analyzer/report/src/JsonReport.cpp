//===- JsonReport.cpp - The JSON report (schemas/report.schema.json) -----===//

#include "clcapture/report/JsonReport.h"

#include "clcapture/format/JsonEmitter.h"

#include <cmath>

namespace clcapture::report {
namespace {

using Json = nlohmann::ordered_json;

Json location(const SourceLocation &l) {
  Json j;
  j["file"] = l.file;
  j["line"] = l.line;
  if (l.column != 0)
    j["column"] = l.column;
  return j;
}

Json access(const Access &a) {
  Json j;
  if (a.access)
    j["access"] = toString(*a.access);
  j["work_item"] = {
      {"global_id", a.workItem.globalId}, {"local_id", a.workItem.localId}, {"group_id", a.workItem.groupId}};
  j["location"] = location(a.location);
  if (!a.source.empty())
    j["source"] = a.source;
  return j;
}

Json finding(const Finding &f) {
  Json j;
  j["kind"] = toString(f.kind);
  j["severity"] = toString(f.severity);
  if (f.kind == FindingKind::DataRace) {
    j["conflict"] = toString(f.conflict);
    j["benign"] = f.benign;
    j["memory"] = format::toString(f.memory);
    if (!f.array.empty())
      j["array"] = f.array;
    if (!f.index.empty())
      j["index"] = f.index;
    j["bytes"] = f.bytes;
  }
  if (memorySafety(f.kind))
    addMemorySafetyFacts(f, j);
  Json accesses = Json::array();
  for (std::size_t i = 0; i < accessCount(f); ++i)
    accesses.push_back(access(f.accesses[i]));
  j["accesses"] = std::move(accesses);
  if (f.kind == FindingKind::BarrierDivergence)
    j["barrier"] = location(f.barrier);
  addWitnessValues(f, j);
  j["message"] = f.message;
  if (f.confirmation)
    j["confirmation"] = *f.confirmation;
  return j;
}

/// Milliseconds are plenty, and fewer digits keep reports readable.
double roundedSeconds(double s) {
  if (!(s > 0))
    return 0.0;
  return std::round(s * 1000.0) / 1000.0;
}

Json result(const InstantiationResult &r) {
  Json j;
  j["index"] = r.index;
  if (r.process)
    j["process"] =
        Json{{"pid", r.process->pid}, {"command_line", r.process->commandLine}, {"part", r.process->part}};
  j["entry_point"] = r.entryPoint;
  j["kernel_file"] = r.kernelFile;
  j["verdict"] = toString(r.verdict);
  if (!r.reason.empty())
    j["reason"] = r.reason;
  if (r.sameAs)
    j["same_as"] = *r.sameAs;
  addParametric(r, j);
  j["seconds"] = roundedSeconds(r.seconds);
  if (r.peakMemoryBytes)
    j["peak_memory_mib"] = std::round(static_cast<double>(*r.peakMemoryBytes) / (1 << 20) * 10.0) / 10.0;
  Json findings = Json::array();
  for (const Finding &f : r.findings)
    findings.push_back(finding(f));
  j["findings"] = std::move(findings);
  if (!r.unsizedMemory.empty())
    j["bounds_not_checked"] = r.unsizedMemory;
  return j;
}

} // namespace

void addWitnessValues(const Finding &f, nlohmann::ordered_json &into) {
  if (!f.values.empty()) {
    Json values = Json::object();
    for (const WitnessValue &v : f.values)
      values[v.name] = v.value;
    into["values"] = std::move(values);
  }
  if (f.localSize)
    into["local_size"] = *f.localSize;
}

void addMemorySafetyFacts(const Finding &f, nlohmann::ordered_json &into) {
  into["memory"] = format::toString(f.memory);
  if (!f.array.empty())
    into["array"] = f.array;
  if (!f.indexVariables.empty()) {
    Json variables = Json::object();
    for (const WitnessValue &v : f.indexVariables)
      variables[v.name] = v.value;
    into["index_variables"] = std::move(variables);
  }
  if (!f.pixel.empty()) { // an image: its pixel's coordinates against its extents, not bytes
    into["pixel"] = f.pixel;
    into["image_extent"] = f.imageExtent;
  } else {
    if (!f.index.empty())
      into["index"] = f.index;
    into["offset"] = f.offset;
    into["size"] = f.size;
    if (f.kind == FindingKind::OutOfBounds || f.kind == FindingKind::AccessMode)
      into["object_bytes"] = f.extent;
  }
  if (f.withinObject)
    into["within_object"] = true;
  if (!f.accessMode.empty())
    into["access_mode"] = f.accessMode;
  if (f.createdBy) {
    const CreationSite &c = *f.createdBy;
    Json site{{"function", c.function}};
    if (c.file)
      site["file"] = *c.file;
    if (c.line)
      site["line"] = *c.line;
    site["module"] = c.module;
    site["module_offset"] = c.moduleOffset;
    if (c.caller)
      site["caller"] = *c.caller;
    into["created_by"] = std::move(site);
  }
}

void addParametric(const InstantiationResult &r, nlohmann::ordered_json &into) {
  if (r.parametric)
    into["parametric"] = Json{{"opened", r.parametric->opened}, {"launches", r.parametric->launches}};
}

nlohmann::ordered_json jsonReportValue(const std::vector<InstantiationResult> &results,
                                       const ReportInfo &info) {
  Json j;
  j["tool"] = "clcapture-verify";
  j["version"] = info.version;
  j["captures"] = info.capturesPath;
  if (info.strict)
    j["strict"] = true;
  j["checks"] = info.checks;
  Json list = Json::array();
  for (const InstantiationResult &r : results)
    list.push_back(result(r));
  j["results"] = std::move(list);
  Summary s = summarize(results);
  j["summary"] = {
      {"verified", s.verified}, {"defects", s.defects}, {"unknown", s.unknown}, {"error", s.error}};
  if (s.cutShort > 0)
    j["summary"]["cut_short"] = s.cutShort;
  Json seconds = Json::object();
  for (const auto &[kernel, spent] : secondsByKernel(results))
    seconds[kernel] = spent;
  j["summary"]["seconds_by_kernel"] = std::move(seconds);
  return j;
}

std::string jsonReport(const std::vector<InstantiationResult> &results, const ReportInfo &info) {
  return format::emitJson(jsonReportValue(results, info)) + '\n';
}

} // namespace clcapture::report
