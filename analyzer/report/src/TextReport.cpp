//===- TextReport.cpp - GPUVerify-style text report ----------------------===//

#include "clcapture/report/TextReport.h"

#include "clcapture/format/CaptureParts.h"

#include <cctype>
#include <cstdio>
#include <cstring>

namespace clcapture::report {
namespace {

std::string where(const ReportInfo &info, const SourceLocation &l) {
  std::string s = displayPath(info, l.file);
  if (l.line == 0)
    return s;
  s += ':' + std::to_string(l.line);
  if (l.column != 0)
    s += ':' + std::to_string(l.column);
  return s;
}

std::string triple(const std::array<std::uint64_t, 3> &v) {
  return '(' + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) + ')';
}

/// "  write by work-item global (7, 0, 0) local (7, 0, 0) group (0, 0, 0), k.cl:13:5: a[7] = 0;"
std::string accessLine(const ReportInfo &info, const Access &a) {
  std::string s = "  ";
  if (a.access)
    s += std::string(toString(*a.access)) + " by ";
  s += "work-item global " + triple(a.workItem.globalId) + " local " + triple(a.workItem.localId) +
       " group " + triple(a.workItem.groupId) + ", " + where(info, a.location);
  if (!a.source.empty())
    s += ": " + a.source;
  return s + '\n';
}

/// --confirm, said in full: "confirmed: Oclgrind saw it with the captured input".
std::string confirmationText(const std::string &confirmation) {
  if (confirmation == "confirmed")
    return "confirmed: Oclgrind saw it with the captured input";
  if (confirmation == "not observed with this input")
    return "not observed with this input: Oclgrind ran the captured launch and did not see it "
           "(the witness may need other data, or a work-group size the capture leaves open)";
  return confirmation;
}

/// "global memory, bytes 4096..4099 of 4096: 4 bytes past the end"; "bytes 0..3 from NULL".
std::string memorySafetyDetail(const Finding &f) {
  if (!f.pixel.empty()) { // "an image of 64 × 48 pixels: x = 64 lies outside 0..63"
    static const char *const kLanes[] = {"x", "y", "z"};
    std::string s = "an image of ";
    for (std::size_t i = 0; i < f.imageExtent.size(); ++i)
      s += (i ? " × " : "") + std::to_string(f.imageExtent[i]);
    s += " pixels";
    std::string sep = ": ";
    for (std::size_t i = 0; i < f.pixel.size() && i < f.imageExtent.size() && i < 3; ++i)
      if (f.pixel[i] < 0 || static_cast<std::uint64_t>(f.pixel[i]) >= f.imageExtent[i]) {
        s += sep + kLanes[i] + " = " + std::to_string(f.pixel[i]) + " lies outside 0.." +
             std::to_string(f.imageExtent[i] - 1);
        sep = ", ";
      }
    return s;
  }
  std::int64_t last = f.offset + static_cast<std::int64_t>(f.size) - 1;
  std::string bytes = "bytes " + std::to_string(f.offset) + ".." + std::to_string(last);
  if (f.kind == FindingKind::NullDereference)
    return bytes + " from NULL";
  std::string s =
      std::string(format::toString(f.memory)) + " memory, " + bytes + " of " + std::to_string(f.extent);
  if (f.kind == FindingKind::AccessMode) // inside the buffer: the message names the flag
    return s;
  s += ": ";
  auto extent = static_cast<std::int64_t>(f.extent);
  if (f.withinObject)
    return s + "an index outside an array inside it"; // past its end or before its start
  if (f.offset < 0)
    return s + std::to_string(-f.offset) + " byte" + (f.offset == -1 ? "" : "s") + " before the start";
  std::int64_t past = last + 1 - extent;
  return s + std::to_string(past) + " byte" + (past == 1 ? "" : "s") + " past the end";
}

/// "the buffer of `out` was created by clCreateBuffer at app.c:42 (in main)"; without a line, the module and
/// offset ("at /usr/bin/app+0x6f7d0").
std::string creationText(const Finding &f) {
  const CreationSite &c = *f.createdBy;
  char offset[32];
  std::snprintf(offset, sizeof offset, "+0x%llx", static_cast<unsigned long long>(c.moduleOffset));
  std::string at = c.file && c.line ? *c.file + ":" + std::to_string(*c.line) : c.module + offset;
  return "the memory of `" + f.array + "` was created by " + c.function + " at " + at +
         (c.caller ? " (in " + *c.caller + ")" : "");
}

// A path as a shell reads it back: as it is when it holds only safe characters, else single-quoted.
std::string shellWord(const std::string &text) {
  bool safe = !text.empty();
  for (char c : text)
    safe = safe && (std::isalnum(static_cast<unsigned char>(c)) || std::strchr("_./-+:=@%,", c));
  if (safe)
    return text;
  std::string quoted = "'";
  for (char c : text)
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string findingText(const ReportInfo &info, const Finding &f) {
  const SourceLocation &at = f.kind == FindingKind::BarrierDivergence ? f.barrier : f.accesses[0].location;
  std::string s = where(info, at) + ": " + toString(f.severity) + ": " + f.message;
  if (f.kind == FindingKind::DataRace)
    s += std::string(" (") + format::toString(f.memory) + " memory, bytes " + std::to_string(f.bytes[0]) +
         ".." + std::to_string(f.bytes[1]) + (f.benign ? ", every writer stores the same value)" : ")");
  if (memorySafety(f.kind))
    s += " (" + memorySafetyDetail(f) + ")";
  s += ":\n";
  for (std::size_t i = 0; i < accessCount(f); ++i)
    s += accessLine(info, f.accesses[i]);
  if (f.createdBy)
    s += "  " + creationText(f) + '\n';
  if (f.confirmation)
    s += "  " + confirmationText(*f.confirmation) + '\n';
  return s;
}

} // namespace

std::string textSummaryLine(const std::vector<InstantiationResult> &results) {
  Summary s = summarize(results);
  return "clcapture-verify: " + std::to_string(s.total()) +
         (s.total() == 1 ? " instantiation: " : " instantiations: ") + std::to_string(s.verified) +
         " verified, " + std::to_string(s.defects) + " defects, " + std::to_string(s.unknown) + " unknown, " +
         std::to_string(s.error) + " error" +
         (s.cutShort > 0 ? " (" + std::to_string(s.cutShort) + " unknown cut short by the run's time limits)"
                         : "");
}

/// " (process 4242: ./test_add --quick)" for a capture of many processes; empty otherwise.
std::string processText(const InstantiationResult &r) {
  if (!r.process)
    return {};
  std::string command = format::shortCommandLine(r.process->commandLine);
  return " (process " + std::to_string(r.process->pid) + (command.empty() ? "" : ": " + command) + ")";
}

std::string textReport(const std::vector<InstantiationResult> &results, const ReportInfo &info) {
  std::string out;
  for (const InstantiationResult &r : results) {
    out += "instantiation " + std::to_string(r.index) + processText(r) + ": " + r.entryPoint + " in " +
           displayPath(info, r.kernelFile) + ": " + toString(r.verdict);
    if (r.sameAs)
      out += " (same as #" + std::to_string(*r.sameAs) + ')';
    if (r.parametric)
      out += " (for every value of " + r.parametric->opened + ": one proof for " +
             std::to_string(r.parametric->launches) + " launches)";
    if ((r.verdict == Verdict::Unknown || r.verdict == Verdict::Error) && !r.reason.empty())
      out += ": " + r.reason;
    out += '\n';
    if (r.verdict != Verdict::Unknown && r.verdict != Verdict::Error && !r.reason.empty())
      out += "  note: " + r.reason + '\n'; // e.g. a same-value race that may occur: benign either way
    if (!r.unsizedMemory.empty() && r.verdict != Verdict::Error) {
      std::string names;
      for (const std::string &name : r.unsizedMemory)
        names += (names.empty() ? "" : ", ") + name;
      out += "  note: bounds not checked for " + names + ": the capture gives no size or extent\n";
    }
    for (std::size_t k = 0; k < r.findings.size(); ++k) {
      const Finding &f = r.findings[k];
      out += findingText(info, f);
      // The finding replayed in the debugger: its work-items focused, a stop at each access.
      if (!f.array.empty() && !f.accesses.empty() && f.kind != FindingKind::BarrierDivergence)
        out += "  debug: clcapture-debug " + shellWord(info.capturesPath) + " --launch " +
               std::to_string(r.index) + " --finding " + std::to_string(k + 1) + '\n';
    }
  }
  // What `verified` covers, when it is not the default (all: races, divergence, bounds).
  std::string checked;
  if (info.checks != std::vector<std::string>{"races", "divergence", "bounds"})
    for (const std::string &check : info.checks)
      checked += (checked.empty() ? " (checked: " : ",") + check;
  if (!checked.empty())
    checked += ")";
  return out + textSummaryLine(results) + checked + '\n';
}

} // namespace clcapture::report
