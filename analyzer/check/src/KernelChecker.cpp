//===- KernelChecker.cpp - Which queries to ask, and their answers as findings -===//

#include "clcapture/check/KernelChecker.h"

#include "clcapture/encode/PixelOffsets.h"

#include <algorithm>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Instruction.h>
#include <map>
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

/// Whether the two sites can race at all: one memory space, one of them writes (docs/contract.md §5).
bool mayConflict(const AccessSite &a, const AccessSite &b) {
  if (a.space != b.space || a.space == MemorySpace::Constant || a.space == MemorySpace::Private)
    return false;
  return a.writes || b.writes;
}

/// Two plain (non-atomic) writes: the pair whose race may be benign, when both store the same bytes
/// (docs/contract.md §4).
bool plainWrites(const AccessSite &a, const AccessSite &b) {
  return a.writes && b.writes && !a.atomic && !b.atomic;
}

/// Whether the two sites are atomic with respect to each other for work-items in `scope`: both atomic,
/// and, for work-items of different groups, neither of work-group scope (OpenCL 2.0 §3.3.4).
bool atomicTogether(const AccessSite &a, const AccessSite &b, Scope scope) {
  if (!a.atomic || !b.atomic)
    return false;
  return scope == Scope::SameGroup || (!a.groupScopedAtomic && !b.groupScopedAtomic);
}

std::vector<report::WitnessValue> witnessValues(const encode::OpenValues &values) {
  std::vector<report::WitnessValue> out;
  for (const auto &[name, value] : values)
    out.push_back({name, value});
  return out;
}

std::string describeSite(const AccessSite &s, const CheckContext &c) {
  report::SourceLocation loc = locationOf(s.inst, c);
  return loc.file + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.column);
}

class Checker {
public:
  Checker(encode::KernelEncoding &e, const CheckContext &c) : m_e(e), m_c(c) {
    // A race query (of a pair of places, or of one site of it when the pair is split) gets at most a
    // quarter of the time left (at least kMinPairBudgetMs): a pair the solver does not decide in it is left
    // undecided and named, and the launch's other pairs are still asked — a real race elsewhere is still
    // found, and a question no solver answers (two keys of one MD5 digest, SHOC's md5hash) ends the launch
    // `unknown` before its limit rather than at it.
    constexpr long long kMinPairBudgetMs = 10000;
    if (m_c.deadline) {
      long long left = std::chrono::duration_cast<std::chrono::milliseconds>(*m_c.deadline -
                                                                             std::chrono::steady_clock::now())
                           .count();
      m_pairBudgetMs = std::max(kMinPairBudgetMs, left / 4);
    }
  }

  CheckOutcome run() {
    if (m_c.divergence)
      checkBarriers();
    if (m_c.races)
      checkRaces();
    if (m_c.bounds) {
      checkBounds();
      m_out.unsized = m_e.uncheckedObjects();
    }
    return std::move(m_out);
  }

private:
  /// Out of time or of memory: no further query (the outcome says which).
  bool outOfBudget() {
    if (m_c.deadline && std::chrono::steady_clock::now() > *m_c.deadline) {
      m_out.timedOut = true;
      return true;
    }
    if (m_out.overMemory || (m_c.overMemory && m_c.overMemory())) {
      m_out.overMemory = true;
      return true;
    }
    return false;
  }

  /// Tells CheckContext::onStep what the next query asks.
  void step(const std::string &question) {
    if (m_c.onStep)
      m_c.onStep("while asking the solver " + question);
  }

  QueryOutcome count(QueryOutcome o) {
    ++m_out.queries;
    if (o.deadlineHit)
      m_out.timedOut = true;
    return o;
  }

  void checkBarriers() {
    for (const encode::BarrierSite &b : m_e.barriers()) {
      if (outOfBudget())
        return;
      report::SourceLocation at = locationOf(b.inst, m_c);
      std::string where = at.file + ":" + std::to_string(at.line);
      step("whether two work-items of one group disagree on reaching the " + b.function + " at " + where);
      QueryOutcome o = count(m_e.checkDivergence(b.id));
      if (o.status == QueryOutcome::Status::Unknown) {
        m_out.undecided.push_back(b.function + " at " + where + ": " + o.unknownReason);
        continue;
      }
      if (o.status != QueryOutcome::Status::Sat)
        continue;
      if (!o.exact) {
        m_out.undecided.push_back("possible divergence at the " + b.function + " at " + where +
                                  ", depending on " + o.abstraction);
        continue;
      }
      if (!m_reported.insert("barrier|" + where + ":" + std::to_string(at.column)).second)
        continue;
      report::Finding f;
      f.kind = report::FindingKind::BarrierDivergence;
      f.barrier = at;
      f.values = witnessValues(o.divergence->values);
      f.localSize = o.divergence->localSize;
      if (b.function != "barrier")
        f.message = b.function + (o.divergence->differentArguments
                                      ? " reached by work-items of one group with different arguments"
                                      : " may be reached by non-uniform control flow");
      else if (o.divergence->differentArguments)
        f.message = "barrier reached by work-items of one group with different arguments";
      if (!f.message.empty())
        f.message += report::witnessValuesText(f);
      f.accesses[0].workItem = workItem(o.divergence->a);
      f.accesses[0].location = at;
      f.accesses[0].source = sourceLine(at, m_c);
      f.accesses[1].workItem = workItem(o.divergence->b);
      f.accesses[1].location = at;
      f.accesses[1].source = sourceLine(at, m_c);
      m_out.findings.push_back(std::move(f));
    }
  }

  /// The sites of one source place with one kind of access: unrolled loops repeat one source access at
  /// many sites, and one finding per pair of source places is what a user wants to read — so the sites
  /// of a place are asked together, one query per pair of places and scope.
  struct Place {
    std::string where;
    std::vector<unsigned> sites;
  };

  /// A place's first site stands for all of them in mayConflict, atomicTogether and plainWrites, so the
  /// key holds every attribute those read: sites that differ in one (a work-group-scoped atomic on the line
  /// of a device-scoped one, through a macro or an unrolled loop) are different places.
  static std::string placeKey(const std::string &where, const AccessSite &site) {
    return where + "|" + std::to_string(static_cast<int>(site.space)) + (site.reads ? "r" : "") +
           (site.writes ? "w" : "") + (site.atomic ? "a" : "") + (site.groupScopedAtomic ? "g" : "");
  }

  std::vector<Place> places() {
    std::vector<Place> out;
    std::map<std::string, std::size_t> index;
    for (const AccessSite &site : m_e.accesses()) {
      std::string where = describeSite(site, m_c);
      std::string key = placeKey(where, site);
      auto [it, added] = index.emplace(key, out.size());
      if (added)
        out.push_back(Place{where, {}});
      out[it->second].sites.push_back(site.id);
    }
    return out;
  }

  void checkRaces() {
    const std::vector<AccessSite> &sites = m_e.accesses();
    std::vector<Place> all = places();
    for (std::size_t i = 0; i < all.size(); ++i)
      for (std::size_t j = i; j < all.size(); ++j) {
        const AccessSite &a = sites[all[i].sites.front()], &b = sites[all[j].sites.front()];
        if (!mayConflict(a, b))
          continue;
        // Local memory belongs to one work-group; global memory is shared by all of them.
        std::vector<Scope> scopes{Scope::SameGroup};
        if (a.space == MemorySpace::Global)
          scopes.push_back(Scope::DifferentGroups);
        if (m_e.groupingIrrelevant(all[i].sites, all[j].sites))
          scopes = {Scope::AnyPair};
        if (a.atomic && b.atomic && scopes.size() == 1 && scopes[0] == Scope::AnyPair)
          scopes = {Scope::SameGroup, Scope::DifferentGroups}; // atomicity may depend on the groups
        for (Scope scope : scopes) {
          if (atomicTogether(a, b, scope))
            continue;
          if (outOfBudget())
            return;
          // One harmful witness per pair of places is enough; a benign one is not: the other scope may
          // store different values (every group writes its own id to one flag).
          if (checkPlaces(all[i], all[j], scope) == PairOutcome::Harmful)
            break;
        }
      }
  }

  /// Once the launch is `unknown` for another reason, a query can only make it `defects` (an exact
  /// witness), never `verified`: it gets kSettledBudgetMs rather than all the time left, so that a launch
  /// whose verdict is settled does not spend its --timeout looking for a witness (Boost.Compute's
  /// fizz_buzz_copy_strings: after 40 inexact answers, one query ran 49 s into a 60 s limit). Unlimited
  /// while nothing is undecided.
  std::optional<long long> settledBudget() const {
    constexpr long long kSettledBudgetMs = 2000;
    if (m_out.undecided.empty())
      return std::nullopt;
    return kSettledBudgetMs;
  }

  /// The race query of two places: all their sites at once — one query per pair of places is usually the
  /// fastest — but when there are many and the solver takes longer than kCombinedBudgetMs over them, one
  /// query per site of the first place instead (OpenCV's ifft_multi_radix_rows, ten unrolled strided
  /// stores against themselves: 22–30 s as one query, about 7 s as ten).
  QueryOutcome askPlaces(const Place &pa, const Place &pb, Scope scope) {
    constexpr long long kCombinedBudgetMs = 2000;
    std::optional<long long> settled = settledBudget();
    if (pa.sites.size() < 2 || pa.sites.size() * pb.sites.size() < 16)
      return count(m_e.checkRace(pa.sites, pb.sites, scope, false, settled ? settled : m_pairBudgetMs));
    long long combined = settled ? std::min(kCombinedBudgetMs, *settled) : kCombinedBudgetMs;
    QueryOutcome o = count(m_e.checkRace(pa.sites, pb.sites, scope, false, combined));
    if (o.status != QueryOutcome::Status::Unknown || !o.budgetHit || settled)
      return o;
    for (unsigned site : pa.sites) {
      if (outOfBudget()) {
        o.deadlineHit = true;
        return o;
      }
      o = count(m_e.checkRace({site}, pb.sites, scope, false, m_pairBudgetMs));
      if (o.status != QueryOutcome::Status::Unsat)
        return o;
    }
    return o;
  }

  enum class PairOutcome { NoFinding, Benign, Harmful };

  /// Why a race query of a pair was not decided: its own budget (a quarter of the time limit, or the short
  /// one once the launch was undecided), or what the solver said.
  std::string undecidedWhy(const QueryOutcome &o, bool settled) const {
    if (!o.budgetHit)
      return o.unknownReason;
    if (settled)
      return "whether they race was not decided in the " + std::to_string(*settledBudget() / 1000) +
             " s a query gets once the launch is undecided";
    if (m_pairBudgetMs)
      return "whether they race was not decided within " + std::to_string(*m_pairBudgetMs / 1000) +
             " s (a quarter of the time limit)";
    return o.unknownReason;
  }

  /// What the pair gave in `scope`: nothing (proven, or left undecided with its reason), a benign finding
  /// (every writer stores the same value), or a harmful one.
  PairOutcome checkPlaces(const Place &pa, const Place &pb, Scope scope) {
    std::string pair = pa.where + " and " + pb.where;
    step("whether the accesses at " + pair + " race (" +
         (scope == Scope::SameGroup         ? "two work-items of one group"
          : scope == Scope::DifferentGroups ? "work-items of different groups"
                                            : "any two work-items") +
         ")");
    bool settled = settledBudget().has_value();
    QueryOutcome o = askPlaces(pa, pb, scope);
    if (o.status == QueryOutcome::Status::Unknown) {
      m_out.undecided.push_back("accesses at " + pair + ": " + undecidedWhy(o, settled));
      return PairOutcome::NoFinding;
    }
    if (o.status != QueryOutcome::Status::Sat)
      return PairOutcome::NoFinding;
    if (!o.exact) {
      // Whether the race happens goes through an abstraction; when every pair of writers there stores the
      // same bytes, it is benign if it happens at all (docs/contract.md §4), so it leaves no harmful race
      // undecided.
      if (plainWrites(m_e.accesses()[pa.sites.front()], m_e.accesses()[pb.sites.front()])) {
        QueryOutcome differ = count(m_e.checkRace(pa.sites, pb.sites, scope, true, settledBudget()));
        if (differ.status == QueryOutcome::Status::Unsat) {
          m_out.benignIfAny.push_back("a same-value race between " + pair + " may occur, depending on " +
                                      o.abstraction);
          return PairOutcome::NoFinding;
        }
        if (differ.status == QueryOutcome::Status::Sat && differ.exact && differ.race)
          return reportRace(differ, false);
      }
      m_out.undecided.push_back("possible race between " + pair + ", depending on " + o.abstraction);
      return PairOutcome::NoFinding;
    }
    const AccessSite &a = m_e.accesses()[o.race->siteA], &b = m_e.accesses()[o.race->siteB];
    bool benign = false;
    if (plainWrites(a, b)) {
      // docs/contract.md §4: every writer stores the same value → benign. Ask for a witness where they
      // differ.
      QueryOutcome differ = count(m_e.checkRace(pa.sites, pb.sites, scope, true, settledBudget()));
      if (differ.status == QueryOutcome::Status::Unsat)
        benign = true;
      else if (differ.status == QueryOutcome::Status::Sat && differ.exact && differ.race)
        o = differ;
      else if (differ.status == QueryOutcome::Status::Unknown) {
        // The race happens, but whether its writers may store different values is not known: neither a
        // benign warning nor a harmful error can be claimed.
        m_out.undecided.push_back("a race between " + pair +
                                  ", benign only if every writer stores the same "
                                  "value, which was not decided: " +
                                  differ.unknownReason);
        return PairOutcome::NoFinding;
      }
    }
    return reportRace(o, benign);
  }

  /// Every source place's accesses against the memory they may touch: one query per place.
  void checkBounds() {
    for (const Place &place : places()) {
      if (outOfBudget())
        return;
      // One work-item's accesses are a smaller question than a race; a place the solver does not settle in
      // kBoundsBudgetMs is left undecided rather than spending the launch's --timeout (OpenMM's
      // computeNonbonded: one query ran past 60 s).
      constexpr long long kBoundsBudgetMs = 5000;
      std::optional<long long> settled = settledBudget();
      step("whether the access at " + place.where + " stays inside its memory");
      QueryOutcome o = count(
          m_e.checkBounds(place.sites, settled ? std::min(*settled, kBoundsBudgetMs) : kBoundsBudgetMs));
      if (o.status == QueryOutcome::Status::Unknown) {
        m_out.undecided.push_back("the bounds of the access at " + place.where + ": " +
                                  (o.budgetHit
                                       ? "not decided within " + std::to_string(kBoundsBudgetMs / 1000) + " s"
                                       : o.unknownReason));
        continue;
      }
      if (o.status != QueryOutcome::Status::Sat)
        continue;
      if (!o.exact || !o.bounds) {
        m_out.undecided.push_back("a possible out-of-bounds access at " + place.where + ", depending on " +
                                  o.abstraction);
        continue;
      }
      reportBounds(*o.bounds);
    }
  }

  void reportBounds(const encode::BoundsWitness &w) {
    const AccessSite &site = m_e.accesses()[w.site];
    report::Finding f;
    f.kind = w.null                  ? report::FindingKind::NullDereference
             : !w.accessMode.empty() ? report::FindingKind::AccessMode
                                     : report::FindingKind::OutOfBounds;
    f.accessMode = w.accessMode;
    f.values = witnessValues(w.values);
    f.localSize = w.localSize;
    f.memory = site.space == MemorySpace::Local     ? format::AddressSpace::Local
               : site.space == MemorySpace::Private ? format::AddressSpace::Private
                                                    : format::AddressSpace::Global;
    f.array = w.null ? "" : w.object;
    f.offset = static_cast<std::int64_t>(w.offset);
    f.size = w.size;
    f.extent = w.extent;
    f.withinObject = w.beyondArray;
    f.pixel = w.pixel;
    f.indexVariables = witnessValues(w.variables);
    f.imageExtent = w.imageExtent;
    auto element = static_cast<std::int64_t>(std::max(site.elementSize, 1u));
    if (!f.pixel.empty())
      f.offset = 0; // a pixel: its coordinates say where (the message names them)
    else if (f.offset >= 0 && !w.null)
      f.index = {w.offset / static_cast<std::uint64_t>(element)};
    else if (!w.null) // before the start: name the element as the source would, in[-1]
      f.message = "out-of-bounds " + std::string(report::toString(accessKind(site))) + " on " + f.array +
                  "[" + std::to_string(-((-f.offset + element - 1) / element)) + "]" +
                  report::witnessValuesText(f);
    report::Access &acc = f.accesses[0];
    acc.access = accessKind(site);
    acc.workItem = workItem(w.a);
    acc.location = locationOf(site.inst, m_c);
    acc.source = sourceLine(acc.location, m_c);
    m_out.findings.push_back(std::move(f));
  }

  /// A finding from an exact witness.
  PairOutcome reportRace(const QueryOutcome &o, bool benign) {
    const encode::RaceWitness &w = *o.race;
    const AccessSite &wa = m_e.accesses()[w.siteA], &wb = m_e.accesses()[w.siteB];
    report::Finding f;
    f.kind = report::FindingKind::DataRace;
    f.values = witnessValues(w.values);
    f.localSize = w.localSize;
    f.conflict = conflictOf(wa, wb);
    f.benign = benign;
    f.memory = wa.space == MemorySpace::Local ? format::AddressSpace::Local : format::AddressSpace::Global;
    f.array = !w.object.empty() ? w.object : wa.object;
    std::uint64_t first = std::max(w.offsetA, w.offsetB);
    std::uint64_t last =
        std::min(w.offsetA + std::max(wa.sizeBytes, 1u), w.offsetB + std::max(wb.sizeBytes, 1u)) - 1;
    f.bytes = {first, last};
    f.index = {first / std::max(wa.elementSize, 1u)}; // the first shared byte's element (a copy spans many)
    if (wa.image && wa.imageCoordinates)              // a pixel: img[x], img[y][x] or img[z][y][x]
      f.index = encode::pixelIndex(first, wa.imageCoordinates);
    const AccessSite *chosen[2] = {&wa, &wb};
    const encode::WorkItemIds *ids[2] = {&w.a, &w.b};
    for (int k = 0; k < 2; ++k) {
      report::Access &acc = f.accesses[static_cast<std::size_t>(k)];
      acc.access = accessKind(*chosen[k]);
      acc.workItem = workItem(*ids[k]);
      acc.location = locationOf(chosen[k]->inst, m_c);
      acc.source = sourceLine(acc.location, m_c);
    }
    m_out.findings.push_back(std::move(f));
    return benign ? PairOutcome::Benign : PairOutcome::Harmful;
  }

  encode::KernelEncoding &m_e;
  const CheckContext &m_c;
  CheckOutcome m_out;
  std::set<std::string> m_reported;
  std::optional<long long> m_pairBudgetMs; ///< the most one pair of places may take (none without a deadline)
};

} // namespace

CheckOutcome checkKernel(encode::KernelEncoding &encoding, const CheckContext &context) {
  return Checker(encoding, context).run();
}

} // namespace clcapture::check
