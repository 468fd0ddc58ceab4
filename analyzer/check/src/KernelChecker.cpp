//===- KernelChecker.cpp - Which queries to ask, and their answers as findings -===//

#include "clcapture/check/KernelChecker.h"

#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Instruction.h>

#include <algorithm>
#include <set>

namespace clcapture::check {

using encode::AccessSite;
using encode::MemorySpace;
using encode::QueryOutcome;
using encode::Scope;

namespace {

report::SourceLocation locationOf(const llvm::Instruction *inst, const CheckContext &c) {
  report::SourceLocation loc;
  loc.file = c.kernelFile;
  if (inst)
    if (const llvm::DebugLoc &dl = inst->getDebugLoc()) {
      loc.line = dl.getLine();
      loc.column = dl.getCol();
      std::string file = dl->getFilename().str();
      // The frontend names the kernel file as captures.json does; an included header keeps its own name.
      if (!file.empty() && file != c.kernelFile && file.find(c.kernelFile) == std::string::npos)
        loc.file = file;
    }
  return loc;
}

std::string sourceLine(const report::SourceLocation &loc, const CheckContext &c) {
  if (loc.file != c.kernelFile || loc.line == 0 || loc.line > c.sourceLines.size())
    return {};
  std::string text = c.sourceLines[loc.line - 1];
  auto first = text.find_first_not_of(" \t");
  return first == std::string::npos ? std::string() : text.substr(first);
}

report::WorkItem workItem(const encode::WorkItemIds &ids) {
  report::WorkItem w;
  w.globalId = ids.global;
  w.localId = ids.local;
  w.groupId = ids.group;
  return w;
}

report::AccessKind accessKind(const AccessSite &s) {
  if (s.atomic)
    return report::AccessKind::Atomic;
  return s.writes ? report::AccessKind::Write : report::AccessKind::Read;
}

report::Conflict conflictOf(const AccessSite &a, const AccessSite &b) {
  using report::Conflict;
  if (a.atomic)
    return b.writes ? Conflict::AtomicWrite : Conflict::AtomicRead;
  if (b.atomic)
    return a.writes ? Conflict::WriteAtomic : Conflict::ReadAtomic;
  if (a.writes && b.writes)
    return Conflict::WriteWrite;
  return a.writes ? Conflict::WriteRead : Conflict::ReadWrite;
}

/// Whether the two sites can race at all: one memory space that can be written, one of them writes, and
/// not both atomic (SPEC §5).
bool mayConflict(const AccessSite &a, const AccessSite &b) {
  if (a.space != b.space || a.space == MemorySpace::Constant)
    return false;
  if (!a.writes && !b.writes)
    return false;
  return !(a.atomic && b.atomic);
}

std::string describeSite(const AccessSite &s, const CheckContext &c) {
  report::SourceLocation loc = locationOf(s.inst, c);
  return loc.file + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.column);
}

class Checker {
public:
  Checker(encode::KernelEncoding &e, const CheckContext &c) : m_e(e), m_c(c) {}

  CheckOutcome run() {
    checkBarriers();
    checkRaces();
    return std::move(m_out);
  }

private:
  bool outOfTime() {
    if (m_c.deadline && std::chrono::steady_clock::now() > *m_c.deadline) {
      m_out.timedOut = true;
      return true;
    }
    return false;
  }

  QueryOutcome count(QueryOutcome o) {
    ++m_out.queries;
    return o;
  }

  void checkBarriers() {
    for (const encode::BarrierSite &b : m_e.barriers()) {
      if (outOfTime())
        return;
      QueryOutcome o = count(m_e.checkDivergence(b.id));
      report::SourceLocation at = locationOf(b.inst, m_c);
      std::string where = at.file + ":" + std::to_string(at.line);
      if (o.status == QueryOutcome::Status::Unknown) {
        m_out.undecided.push_back("barrier at " + where + ": " + o.unknownReason);
        continue;
      }
      if (o.status != QueryOutcome::Status::Sat)
        continue;
      if (!o.exact) {
        m_out.undecided.push_back("possible barrier divergence at " + where + ", depending on " + o.abstraction);
        continue;
      }
      if (!m_reported.insert("barrier|" + where + ":" + std::to_string(at.column)).second)
        continue;
      report::Finding f;
      f.kind = report::FindingKind::BarrierDivergence;
      f.barrier = at;
      f.accesses[0].workItem = workItem(o.divergence->a);
      f.accesses[0].location = at;
      f.accesses[0].source = sourceLine(at, m_c);
      f.accesses[1].workItem = workItem(o.divergence->b);
      f.accesses[1].location = at;
      f.accesses[1].source = sourceLine(at, m_c);
      m_out.findings.push_back(std::move(f));
    }
  }

  void checkRaces() {
    const std::vector<AccessSite> &sites = m_e.accesses();
    for (std::size_t i = 0; i < sites.size(); ++i)
      for (std::size_t j = i; j < sites.size(); ++j) {
        const AccessSite &a = sites[i], &b = sites[j];
        if (!mayConflict(a, b))
          continue;
        // Local memory belongs to one work-group; global memory is shared by all of them.
        std::vector<Scope> scopes{Scope::SameGroup};
        if (a.space == MemorySpace::Global)
          scopes.push_back(Scope::DifferentGroups);
        for (Scope scope : scopes) {
          if (outOfTime())
            return;
          if (checkPair(a, b, scope))
            break; // one witness per pair of sites is enough
        }
      }
  }

  /// The source places of a pair of sites: unrolled loops repeat one source access at many sites, and one
  /// finding per pair of source places is what a user wants to read.
  std::string placePair(const AccessSite &a, const AccessSite &b) {
    std::string x = describeSite(a, m_c), y = describeSite(b, m_c);
    return x < y ? x + "|" + y : y + "|" + x;
  }

  /// True when the pair gave a finding.
  bool checkPair(const AccessSite &a, const AccessSite &b, Scope scope) {
    if (m_reported.count(placePair(a, b)))
      return true;
    QueryOutcome o = count(m_e.checkRace(a.id, b.id, scope));
    std::string pair = describeSite(a, m_c) + " and " + describeSite(b, m_c);
    if (o.status == QueryOutcome::Status::Unknown) {
      m_out.undecided.push_back("accesses at " + pair + ": " + o.unknownReason);
      return false;
    }
    if (o.status != QueryOutcome::Status::Sat)
      return false;
    if (!o.exact) {
      m_out.undecided.push_back("possible race between " + pair + ", depending on " + o.abstraction);
      return false;
    }
    bool benign = false;
    if (a.writes && b.writes && !a.atomic && !b.atomic) {
      // SPEC §4: every writer stores the same value → benign. Ask for a witness where they differ.
      QueryOutcome differ = count(m_e.checkRace(a.id, b.id, scope, true));
      if (differ.status == QueryOutcome::Status::Unsat)
        benign = true;
      else if (differ.status == QueryOutcome::Status::Sat && differ.exact && differ.race)
        o = differ;
    }
    const encode::RaceWitness &w = *o.race;
    report::Finding f;
    f.kind = report::FindingKind::DataRace;
    f.conflict = conflictOf(a, b);
    f.benign = benign;
    f.memory = a.space == MemorySpace::Local ? format::AddressSpace::Local : format::AddressSpace::Global;
    f.array = !w.object.empty() ? w.object : a.object;
    std::uint64_t first = std::max(w.offsetA, w.offsetB);
    std::uint64_t last = std::min(w.offsetA + std::max(a.sizeBytes, 1u), w.offsetB + std::max(b.sizeBytes, 1u)) - 1;
    f.bytes = {first, last};
    f.index = {w.offsetA / std::max(a.elementSize, 1u)};
    const AccessSite *sites[2] = {&a, &b};
    const encode::WorkItemIds *ids[2] = {&w.a, &w.b};
    for (int k = 0; k < 2; ++k) {
      report::Access &acc = f.accesses[static_cast<std::size_t>(k)];
      acc.access = accessKind(*sites[k]);
      acc.workItem = workItem(*ids[k]);
      acc.location = locationOf(sites[k]->inst, m_c);
      acc.source = sourceLine(acc.location, m_c);
    }
    m_out.findings.push_back(std::move(f));
    m_reported.insert(placePair(a, b));
    return true;
  }

  encode::KernelEncoding &m_e;
  const CheckContext &m_c;
  CheckOutcome m_out;
  std::set<std::string> m_reported;
};

} // namespace

CheckOutcome checkKernel(encode::KernelEncoding &encoding, const CheckContext &context) {
  return Checker(encoding, context).run();
}

} // namespace clcapture::check
