//===- AnalysisResult.cpp - Verdicts derived from findings ---------------===//

#include "clcapture/report/AnalysisResult.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <tuple>

namespace clcapture::report {

const char *toString(Verdict v) {
  switch (v) {
  case Verdict::Verified:
    return "verified";
  case Verdict::Defects:
    return "defects";
  case Verdict::Unknown:
    return "unknown";
  case Verdict::Error:
    return "error";
  }
  return "error";
}

const char *toString(FindingKind k) {
  switch (k) {
  case FindingKind::DataRace:
    return "data-race";
  case FindingKind::BarrierDivergence:
    return "barrier-divergence";
  case FindingKind::OutOfBounds:
    return "out-of-bounds";
  case FindingKind::NullDereference:
    return "null-dereference";
  case FindingKind::AccessMode:
    return "access-mode";
  }
  return "data-race";
}

bool memorySafety(FindingKind k) {
  return k == FindingKind::OutOfBounds || k == FindingKind::NullDereference || k == FindingKind::AccessMode;
}

std::size_t accessCount(const Finding &f) {
  return memorySafety(f.kind) ? 1 : 2;
}

const char *toString(FindingSeverity s) {
  return s == FindingSeverity::Error ? "error" : "warning";
}

const char *toString(Conflict c) {
  switch (c) {
  case Conflict::ReadWrite:
    return "read-write";
  case Conflict::WriteRead:
    return "write-read";
  case Conflict::WriteWrite:
    return "write-write";
  case Conflict::AtomicWrite:
    return "atomic-write";
  case Conflict::WriteAtomic:
    return "write-atomic";
  case Conflict::AtomicRead:
    return "atomic-read";
  case Conflict::ReadAtomic:
    return "read-atomic";
  }
  return "write-write";
}

const char *toString(AccessKind a) {
  switch (a) {
  case AccessKind::Read:
    return "read";
  case AccessKind::Write:
    return "write";
  case AccessKind::Atomic:
    return "atomic";
  }
  return "read";
}

const char *toString(ErrorKind e) {
  switch (e) {
  case ErrorKind::None:
    return "none";
  case ErrorKind::Compile:
    return "compile";
  case ErrorKind::Timeout:
    return "timeout";
  case ErrorKind::Other:
    return "other";
  }
  return "other";
}

bool countsAsDefect(const Finding &f, bool strict) {
  // docs/contract.md §4: same-value write-write races are listed but do not turn `verified` into `defects`,
  // unless
  // --strict.
  if (f.kind == FindingKind::DataRace && f.benign)
    return strict;
  return true;
}

std::string describeElement(const Finding &f) {
  std::string s = f.array.empty() ? "memory" : f.array;
  for (std::uint64_t i : f.index)
    s += '[' + std::to_string(i) + ']';
  return s;
}

std::string pixelText(const Finding &f) {
  std::string s = "(";
  for (std::size_t i = 0; i < f.pixel.size(); ++i)
    s += (i ? ", " : "") + std::to_string(f.pixel[i]);
  return s + ")";
}

std::string witnessValuesText(const Finding &f) {
  std::vector<std::string> parts;
  for (const WitnessValue &v : f.values)
    parts.push_back(v.name + " = " + v.value);
  if (f.localSize)
    parts.push_back("local size (" + std::to_string((*f.localSize)[0]) + ", " +
                    std::to_string((*f.localSize)[1]) + ", " + std::to_string((*f.localSize)[2]) + ")");
  std::string s;
  for (std::size_t i = 0; i < parts.size(); ++i)
    s += (i == 0 ? " with " : i + 1 == parts.size() ? " and " : ", ") + parts[i];
  return s;
}

namespace {

/// " where x = 16, y = 3": the named variables a memory-safety finding's address depends on.
std::string indexVariablesText(const Finding &f) {
  std::string s;
  for (std::size_t i = 0; i < f.indexVariables.size(); ++i)
    s += (i == 0 ? " where " : ", ") + f.indexVariables[i].name + " = " + f.indexVariables[i].value;
  return s;
}

} // namespace

std::string defaultMessage(const Finding &f) {
  if (f.kind == FindingKind::BarrierDivergence)
    return "barrier may be reached by non-uniform control flow" + witnessValuesText(f);
  std::string access = f.accesses[0].access ? toString(*f.accesses[0].access) : "access";
  if (f.kind == FindingKind::NullDereference)
    return access + " through a null pointer" + indexVariablesText(f) + witnessValuesText(f);
  if (f.kind == FindingKind::OutOfBounds && !f.pixel.empty())
    return "out-of-bounds " + access + " on " + f.array + " at pixel " + pixelText(f) +
           indexVariablesText(f) + witnessValuesText(f);
  if (f.kind == FindingKind::OutOfBounds)
    return "out-of-bounds " + access + " on " + describeElement(f) + indexVariablesText(f) +
           witnessValuesText(f);
  if (f.kind == FindingKind::AccessMode)
    return access + " of " + describeElement(f) + " in a " + f.accessMode + " buffer" + witnessValuesText(f);
  std::string conflict = toString(f.conflict);
  if (f.benign)
    return "possible benign " + conflict + " race on " + describeElement(f) + witnessValuesText(f);
  return "possible " + conflict + " race on " + describeElement(f) + witnessValuesText(f);
}

namespace {

auto locationKey(const SourceLocation &l) {
  return std::tie(l.file, l.line, l.column);
}

auto accessKey(const Access &a) {
  return std::tie(a.location.file, a.location.line, a.location.column, a.access, a.workItem.globalId,
                  a.workItem.localId, a.workItem.groupId, a.source);
}

bool findingLess(const Finding &a, const Finding &b) {
  if (a.kind != b.kind)
    return a.kind < b.kind;
  if (a.kind == FindingKind::BarrierDivergence && locationKey(a.barrier) != locationKey(b.barrier))
    return locationKey(a.barrier) < locationKey(b.barrier);
  if (accessKey(a.accesses[0]) != accessKey(b.accesses[0]))
    return accessKey(a.accesses[0]) < accessKey(b.accesses[0]);
  if (accessKey(a.accesses[1]) != accessKey(b.accesses[1]))
    return accessKey(a.accesses[1]) < accessKey(b.accesses[1]);
  return std::tie(a.array, a.index, a.bytes, a.conflict, a.benign, a.memory, a.offset, a.size, a.extent,
                  a.withinObject, a.accessMode, a.pixel, a.imageExtent, a.indexVariables, a.values,
                  a.localSize, a.message) < std::tie(b.array, b.index, b.bytes, b.conflict, b.benign,
                                                     b.memory, b.offset, b.size, b.extent, b.withinObject,
                                                     b.accessMode, b.pixel, b.imageExtent, b.indexVariables,
                                                     b.values, b.localSize, b.message);
}

} // namespace

void finalizeResult(InstantiationResult &result, bool strict) {
  bool anyDefect = false;
  for (Finding &f : result.findings) {
    bool counts = countsAsDefect(f, strict);
    f.severity = counts ? FindingSeverity::Error : FindingSeverity::Warning;
    anyDefect = anyDefect || counts;
    if (f.message.empty())
      f.message = defaultMessage(f);
  }
  std::stable_sort(result.findings.begin(), result.findings.end(), findingLess);

  // A compile or other error is an `error` whatever the analysis said; a timeout is `unknown`
  // (docs/contract.md §4: "solver timeout") unless a witness already makes it `defects`.
  if (result.errorKind == ErrorKind::Compile || result.errorKind == ErrorKind::Other)
    result.verdict = Verdict::Error;
  if (result.verdict == Verdict::Error && result.errorKind == ErrorKind::Timeout)
    result.verdict = Verdict::Unknown;
  if (result.verdict == Verdict::Error) {
    if (result.errorKind == ErrorKind::None)
      result.errorKind = ErrorKind::Other;
    if (result.reason.empty())
      result.reason = "the analysis failed without giving a reason";
    return;
  }
  if (anyDefect) {
    result.verdict = Verdict::Defects;
    return;
  }
  if (result.errorKind == ErrorKind::Timeout)
    result.verdict = Verdict::Unknown;
  if (result.verdict == Verdict::Defects) {
    // Only benign races were found (they do not count), or the analysis claimed defects without a witness.
    result.verdict = result.findings.empty() ? Verdict::Unknown : Verdict::Verified;
    if (result.findings.empty() && result.reason.empty())
      result.reason = "the analysis reported defects without a witness";
  }
  if (result.verdict == Verdict::Unknown && result.reason.empty())
    result.reason = result.errorKind == ErrorKind::Timeout ? "timed out" : "the analysis gave no reason";
}

void addToSummary(Summary &summary, const InstantiationResult &r, std::size_t launches) {
  switch (r.verdict) {
  case Verdict::Verified:
    summary.verified += launches;
    break;
  case Verdict::Defects:
    summary.defects += launches;
    break;
  case Verdict::Unknown:
    summary.unknown += launches;
    break;
  case Verdict::Error:
    summary.error += launches;
    break;
  }
  if (r.cutShort)
    summary.cutShort += launches;
}

Summary summarize(const std::vector<InstantiationResult> &results) {
  Summary s;
  for (const auto &r : results)
    addToSummary(s, r, 1);
  return s;
}

std::string kernelName(const std::string &entryPoint, const std::string &kernelFile) {
  return entryPoint + " (" + kernelFile + ")";
}

std::map<std::string, double> secondsByKernel(const std::vector<InstantiationResult> &results) {
  std::map<std::string, double> out;
  for (const auto &r : results)
    out[kernelName(r.entryPoint, r.kernelFile)] += r.seconds;
  return out;
}

std::string displayPath(const ReportInfo &info, const std::string &file) {
  std::filesystem::path folder = std::filesystem::path(info.capturesPath).parent_path();
  if (folder.empty())
    return file;
  return (folder / file).lexically_normal().generic_string();
}

std::string folderUri(const std::string &absoluteFolder) {
  // RFC 3986: keep unreserved characters and '/', percent-encode every other byte.
  static const char *hex = "0123456789ABCDEF";
  std::string uri = "file://";
  for (char ch : absoluteFolder) {
    auto c = static_cast<unsigned char>(ch);
    bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
                c == '.' || c == '_' || c == '~' || c == '/';
    if (keep) {
      uri += static_cast<char>(c);
    } else {
      uri += '%';
      uri += hex[c >> 4];
      uri += hex[c & 15];
    }
  }
  if (uri.back() != '/')
    uri += '/';
  return uri;
}

} // namespace clcapture::report
