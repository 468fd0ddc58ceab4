//===- VerifyDriver.cpp - clcapture-verify from options to exit status ---===//

#include "clcapture/verify/VerifyDriver.h"

#include "clcapture/archive/CaptureInput.h"
#include "clcapture/format/BlobStore.h"
#include "clcapture/report/JsonReport.h"
#include "clcapture/report/SarifReport.h"
#include "clcapture/report/TextReport.h"
#include "clcapture/verify/AllocationAccount.h"
#include "clcapture/verify/AnalysisInChild.h"
#include "clcapture/verify/AnalysisProcesses.h"
#include "clcapture/verify/CreationSites.h"
#include "clcapture/verify/ExitCode.h"
#include "clcapture/verify/FindingConfirmation.h"
#include "clcapture/verify/InstantiationKey.h"
#include "clcapture/verify/ParametricGroups.h"
#include "clcapture/verify/ProgressReporter.h"
#include "clcapture/verify/RunBudget.h"
#include "clcapture/verify/TaskPool.h"
#include "clcapture/verify/VerdictCache.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <ostream>
#include <thread>
#include <variant>

namespace clcapture::verify {

namespace fs = std::filesystem;
using report::InstantiationResult;

namespace {

fs::path captureDirOf(const fs::path &capturesPath) {
  fs::path dir = capturesPath.parent_path();
  return dir.empty() ? fs::path(".") : dir;
}

/// The request to analyse `inst` (with `facts`) as instantiation `index` of the capture, within
/// `limitSeconds` (0: none); no deadline yet.
pipeline::AnalysisRequest requestFor(const format::Capture &capture, std::size_t index,
                                     const format::Instantiation &inst, const format::LaunchFacts *facts,
                                     const VerifyOptions &options, double limitSeconds,
                                     const std::map<std::size_t, std::vector<std::string>> &openValues = {}) {
  pipeline::AnalysisRequest request;
  request.openValues = openValues;
  request.index = index;
  request.instantiation = &inst;
  request.facts = facts;
  request.captureDir = captureDirOf(capture.capturesPath);
  request.kernelSourcePath = request.captureDir / inst.kernelFile;
  request.options.timeoutSeconds = limitSeconds;
  request.options.dumpIrDir = options.dumpIrDir;
  request.options.dumpSmt2Dir = options.dumpSmt2Dir;
  request.options.strict = options.strict;
  request.options.checkRaces = options.checkRaces;
  request.options.checkDivergence = options.checkDivergence;
  request.options.checkBounds = options.checkBounds;
  request.options.maxMemoryBytes = options.maxMemoryBytes;
  return request;
}

/// Analyses `inst` (with `facts`) as instantiation `index` of the capture, within `limitSeconds` (0: none).
InstantiationResult
analyzeInstantiation(const format::Capture &capture, std::size_t index, const format::Instantiation &inst,
                     const format::LaunchFacts *facts, pipeline::InstantiationAnalyzer &analyzer,
                     const VerifyOptions &options, double limitSeconds,
                     const std::map<std::size_t, std::vector<std::string>> &openValues = {}) {
  pipeline::AnalysisRequest request =
      requestFor(capture, index, inst, facts, options, limitSeconds, openValues);
  AllocationWindow heap; // this thread's heap from here on is the analysis's
  request.peakHeapBytes = [&heap] { return heap.peakBytes(); };
  request.onStep = AnalysisProcesses::reportStep; // a child's driver hears it; elsewhere nothing happens

  auto start = std::chrono::steady_clock::now();
  if (limitSeconds > 0)
    request.deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                   std::chrono::duration<double>(limitSeconds));
  InstantiationResult r;
  try {
    r = analyzer.analyze(request);
  } catch (const std::exception &e) {
    r = InstantiationResult{};
    r.verdict = report::Verdict::Error;
    r.errorKind = report::ErrorKind::Other;
    r.reason = std::string("internal error: ") + e.what();
  } catch (...) {
    r = InstantiationResult{};
    r.verdict = report::Verdict::Error;
    r.errorKind = report::ErrorKind::Other;
    r.reason = "internal error: unknown exception";
  }
  // What the analysis cost; an analysis may state its own (a test's fake analysis: no clock in tests).
  double measured = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.seconds = std::max(r.seconds, measured);
  if (allocationsCounted())
    r.peakMemoryBytes = heap.peakBytes();
  r.index = request.index;
  r.entryPoint = inst.entryPoint;
  r.kernelFile = inst.kernelFile;
  r.sameAs.reset();
  report::finalizeResult(r, options.strict);
  return r;
}

/// The result of an identical instantiation, under this one's index and kernel file name (identical
/// sources may sit in differently named files).
InstantiationResult copyResult(const InstantiationResult &from, std::size_t index,
                               const format::Instantiation &inst) {
  InstantiationResult r = from;
  r.index = index;
  r.kernelFile = inst.kernelFile;
  r.sameAs = from.index;
  r.seconds = 0;
  r.peakMemoryBytes.reset();
  auto rename = [&](report::SourceLocation &l) {
    if (l.file == from.kernelFile)
      l.file = inst.kernelFile;
  };
  // Places in the text ("kernels/a.cl:8:12") name the file the result was made for; the same source under
  // another name (a cached result, another capture) is named as this launch names it.
  auto renameIn = [&](std::string &text) {
    if (from.kernelFile.empty() || from.kernelFile == inst.kernelFile)
      return;
    std::string old = from.kernelFile + ":", now = inst.kernelFile + ":";
    for (std::size_t at = text.find(old); at != std::string::npos; at = text.find(old, at + now.size()))
      text.replace(at, old.size(), now);
  };
  renameIn(r.reason);
  for (report::Finding &f : r.findings) {
    rename(f.barrier);
    for (report::Access &a : f.accesses)
      rename(a.location);
    renameIn(f.message);
  }
  return r;
}

/// A result that proves its launch for every value it was analysed with: `verified`, no finding (even a
/// benign one is one launch's), no same-value race left undecided (a `verified` with a reason).
bool cleanProof(const InstantiationResult &r) {
  return r.verdict == report::Verdict::Verified && r.findings.empty() && r.reason.empty();
}

/// One call of analyzeInstantiations: the state its steps share. Slots are indices into `positions`.
class AnalysisRun {
public:
  AnalysisRun(const format::Capture &capture, const std::vector<std::size_t> &positions,
              pipeline::InstantiationAnalyzer &analyzer, const VerifyOptions &options, std::ostream *progress)
      : m_capture(capture), m_positions(positions), m_analyzer(analyzer), m_options(options),
        m_progress(progress), m_budget(options), m_captureDir(captureDirOf(capture.capturesPath)),
        m_hashes(keepsHashes(options)
                     ? FileHashCache(FileHashCache::storeFor(*options.cacheDir, m_captureDir))
                     : FileHashCache()),
        m_copyOf(positions.size()), m_keys(positions.size()), m_copies(positions.size(), 0),
        m_results(positions.size()), m_cost(positions.size(), 0), m_state(positions.size(), kWaiting) {}

  std::vector<InstantiationResult> run();

private:
  /// Hashes of data files outlive the run with the verdicts (not for an archive: its folder is temporary).
  static bool keepsHashes(const VerifyOptions &o) {
    return o.cacheDir && !o.dumpIrDir && !o.dumpSmt2Dir && !archive::looksLikeArchive(o.captures);
  }
  void findIdentical();
  void openCache();
  void alone(std::size_t slot);
  std::vector<std::size_t> slotsInNoGroup() const;
  std::optional<InstantiationResult> attemptGroup(std::size_t g);
  void decideGroup(std::size_t g, TaskPool &pool);
  void member(std::size_t slot);
  void coverByProof(std::size_t g, std::size_t slot, bool analysed);
  void closeCache();
  void prepareForProcesses();
  void startProcesses();
  InstantiationResult analyze(const ChildRequest &task);
  InstantiationResult analyzeHere(const ChildRequest &task);
  std::string serve(const std::string &request);

  const format::Instantiation &instantiation(std::size_t slot) const {
    return m_capture.captures.instantiations[m_positions[slot]];
  }
  std::size_t indexOf(std::size_t slot) const { return m_capture.captures.indices[m_positions[slot]]; }

  const format::Capture &m_capture;
  const std::vector<std::size_t> &m_positions;
  pipeline::InstantiationAnalyzer &m_analyzer;
  const VerifyOptions &m_options;
  std::ostream *m_progress;
  RunBudget m_budget;
  fs::path m_captureDir;
  FileHashCache m_hashes;
  std::vector<std::size_t> m_distinct;              ///< slots to analyse
  std::vector<std::optional<std::size_t>> m_copyOf; ///< slot -> the slot it copies
  std::vector<std::string> m_keys;                  ///< slot -> its analysis key
  std::vector<std::size_t> m_copies;                ///< distinct slot -> instantiations copying it
  std::optional<VerdictCache> m_cache;
  std::vector<InstantiationResult> m_results;
  std::vector<double> m_cost; ///< what a distinct slot's own analysis cost (cached: then)
  /// Each distinct slot's analysis: kWaiting, kRunning (alone), kDone (alone, or covered by its group's
  /// proof). With m_proofs and m_proofSecondsShown, guarded by m_stateMutex.
  enum : char { kWaiting, kRunning, kDone };
  std::vector<char> m_state;
  std::vector<std::optional<InstantiationResult>> m_proofs; ///< group -> its proof, once decided
  std::vector<char> m_proofSecondsShown; ///< group -> its proof's own time given to one result
  std::vector<std::size_t> m_groupOf;    ///< distinct slot in a group -> the group
  std::mutex m_stateMutex;
  std::optional<ProgressReporter> m_shown;
  std::vector<ParametricGroup> m_groups;
  std::unique_ptr<AnalysisProcesses> m_processes; ///< where analyses run; none: in this process
  /// Each distinct slot's cached result, looked up by prepareForProcesses; empty: alone() looks it up.
  std::vector<std::optional<InstantiationResult>> m_cached;
};

/// Identical instantiations: the first (lowest index) is analysed, the others copy its result.
void AnalysisRun::findIdentical() {
  std::map<std::string, std::size_t> firstWithKey;
  for (std::size_t slot = 0; slot < m_positions.size(); ++slot) {
    std::size_t p = m_positions[slot];
    m_keys[slot] =
        analysisKey(m_capture.captures.instantiations[p], m_capture.factsFor(p), m_captureDir, m_hashes);
    auto [it, inserted] = firstWithKey.emplace(m_keys[slot], slot);
    if (inserted)
      m_distinct.push_back(slot);
    else
      m_copyOf[slot] = it->second;
  }
  for (std::size_t slot = 0; slot < m_positions.size(); ++slot)
    if (m_copyOf[slot])
      ++m_copies[*m_copyOf[slot]];
}

/// --checks as the report names them: "races", "divergence", "bounds", in that order.
static std::vector<std::string> checksAsked(const VerifyOptions &o) {
  std::vector<std::string> checks;
  for (auto [on, name] : {std::pair{o.checkRaces, "races"}, std::pair{o.checkDivergence, "divergence"},
                          std::pair{o.checkBounds, "bounds"}})
    if (on)
      checks.emplace_back(name);
  return checks;
}

/// Results of earlier runs (VerdictCache.h): not while dumping, since a dump is what the user asked for.
void AnalysisRun::openCache() {
  std::string identity = m_analyzer.identity();
  if (!m_options.cacheDir || identity.empty() || m_options.dumpIrDir || m_options.dumpSmt2Dir)
    return;
  std::string buildId = executableBuildId();
  if (!buildId.empty())
    m_cache.emplace(*m_options.cacheDir,
                    identity + ";build-id " + buildId + ";checks " +
                        nlohmann::json(checksAsked(m_options)).dump(),
                    [this](const std::string &header) {
                      fs::path path(header);
                      return m_hashes.hashOf(path.is_absolute() ? path : m_captureDir / path);
                    });
}

/// One distinct instantiation alone: from the cache, cut short by the run's time limits, or analysed.
void AnalysisRun::alone(std::size_t slot) {
  const format::Instantiation &inst = instantiation(slot);
  std::size_t index = indexOf(slot);
  std::string kernel = report::kernelName(inst.entryPoint, inst.kernelFile);
  InstantiationResult &result = m_results[slot];
  std::optional<InstantiationResult> cached;
  if (!m_cached.empty()) // looked up before the zygote was forked
    cached = std::move(m_cached[slot]);
  else if (m_cache)
    cached = m_cache->find(m_keys[slot], m_options.strict, m_options.timeoutSeconds);
  if (cached) {
    m_cost[slot] = cached->seconds;
    m_budget.record(kernel, *cached); // a cached time limit counts toward giving up, as it did when analysed
    result = copyResult(*cached, index, inst);
    result.sameAs.reset();
    result.entryPoint = inst.entryPoint;
  } else if (auto why = m_budget.cutShort(kernel)) {
    m_cost[slot] = m_options.timeoutSeconds; // what the kernel's launches have been costing
    result = cutShortResult(*why);
    result.index = index;
    result.entryPoint = inst.entryPoint;
    result.kernelFile = inst.kernelFile;
    report::finalizeResult(result, m_options.strict);
  } else {
    m_shown->started(slot, kernel);
    double limit = m_budget.limit(m_options.timeoutSeconds);
    result = analyze({false, slot, limit});
    m_cost[slot] = result.seconds;
    m_budget.record(kernel, result);
    if (m_cache)
      m_cache->store(m_keys[slot], m_options.strict, limit, result);
  }
  m_shown->finished(slot, result, 1 + m_copies[slot]);
}

/// The distinct launches in no parametric group.
std::vector<std::size_t> AnalysisRun::slotsInNoGroup() const {
  std::vector<bool> inGroup(m_positions.size(), false);
  for (const ParametricGroup &group : m_groups)
    for (std::size_t slot : group.slots)
      inGroup[slot] = true;
  std::vector<std::size_t> out;
  for (std::size_t slot : m_distinct)
    if (!inGroup[slot])
      out.push_back(slot);
  return out;
}

/// Whether a group whose first launch gave `r` is worth attempting. Not after a finding (no proof covers
/// it), an error, or an `unknown` that ran into no limit: a query its concrete values left undecided, which
/// the open values (every behaviour of the concrete ones, and more) leave undecided too, so the attempt
/// would cost its budget and save nothing (OpenMM's findBlocksWithInteractions: 6 s for nothing). A first
/// launch that ran out of time may be harder than the open values: that group is attempted.
bool worthAttempting(const InstantiationResult &r) {
  if (!r.findings.empty() || r.verdict == report::Verdict::Error)
    return false;
  return r.verdict != report::Verdict::Unknown || r.errorKind == report::ErrorKind::Timeout;
}

/// Group g's proof with its differing values open, from the cache or analysed within the attempt's budget;
/// nothing when its first launch says the attempt is not worth it, the run's time is out, or the attempt
/// did not prove it.
std::optional<InstantiationResult> AnalysisRun::attemptGroup(std::size_t g) {
  const ParametricGroup &group = m_groups[g];
  std::size_t first = group.slots.front();
  if (!worthAttempting(m_results[first]) || m_budget.over())
    return std::nullopt;
  double attempt = groupAttemptBudget(group.slots.size(), m_cost[first], m_options);
  if (attempt > 0)
    attempt = m_budget.limit(attempt);
  // The values that bound the open scalars decide the proof as much as the values left in.
  std::string key = analysisKey(group.opened, group.facts, m_captureDir, m_hashes);
  for (const auto &[index, values] : group.openValues) {
    key += "|open " + std::to_string(index) + ":";
    for (const std::string &v : values)
      key += v + ",";
  }
  std::optional<InstantiationResult> proof;
  if (m_cache)
    proof = m_cache->find(key, m_options.strict, attempt); // a proof, or an attempt that ran out before
  if (!proof && attempt > 0) {
    std::size_t id = m_positions.size() + g;
    m_shown->started(id, report::kernelName(group.opened.entryPoint, group.opened.kernelFile));
    proof = analyze({true, g, attempt});
    m_shown->finished(id, *proof, 0);
    if (m_cache)
      m_cache->store(key, m_options.strict, attempt, *proof);
  }
  if (proof && cleanProof(*proof))
    return proof;
  return std::nullopt;
}

/// Slot's result through group g's proof (m_stateMutex held): `verified` for every value the group opened.
/// A slot `analysed` alone keeps its own result when that proved it; one whose own analysis did not (it ran
/// out of time on its concrete data, which can make it harder than the open values) is `verified` through
/// the proof, as the slots never analysed are.
void AnalysisRun::coverByProof(std::size_t g, std::size_t slot, bool analysed) {
  const ParametricGroup &group = m_groups[g];
  const InstantiationResult &proof = *m_proofs[g];
  std::size_t launches = 0;
  for (std::size_t s : group.slots)
    launches += 1 + m_copies[s];
  InstantiationResult &result = m_results[slot];
  if (!analysed || !cleanProof(result)) {
    const format::Instantiation &inst = instantiation(slot);
    result = copyResult(proof, indexOf(slot), inst);
    result.sameAs.reset();
    result.entryPoint = inst.entryPoint;
    result.seconds = analysed ? m_cost[slot] : 0;
    if (!analysed)
      m_shown->covered(proof, 1 + m_copies[slot]);
  }
  if (!analysed && !m_proofSecondsShown[g]) { // the proof's own time, once in the group's results
    result.seconds = proof.seconds;
    m_proofSecondsShown[g] = true;
  }
  result.parametric = report::ParametricProof{describeOpened(group.openedNames), launches};
}

/// Group g's task: its first launch alone, then its attempt; a proof covers every launch not analysed yet,
/// and every one analysed alone that its own analysis did not prove. Launches still waiting are left to
/// their own (speculative) tasks when there is no proof.
void AnalysisRun::decideGroup(std::size_t g, TaskPool &pool) {
  std::size_t first = m_groups[g].slots.front();
  {
    std::lock_guard<std::mutex> lock(m_stateMutex);
    m_state[first] = kRunning;
  }
  alone(first);
  {
    std::lock_guard<std::mutex> lock(m_stateMutex);
    m_state[first] = kDone;
  }
  std::optional<InstantiationResult> proof = attemptGroup(g);
  std::lock_guard<std::mutex> lock(m_stateMutex);
  m_proofs[g] = std::move(proof);
  for (std::size_t slot : m_groups[g].slots) {
    if (m_proofs[g] && m_state[slot] != kRunning) // a running one applies the proof when it is done
      coverByProof(g, slot, m_state[slot] == kDone);
    if (m_proofs[g])
      m_state[slot] = m_state[slot] == kRunning ? kRunning : kDone;
    else if (m_state[slot] == kWaiting)
      pool.add([this, slot](TaskPool &) { member(slot); }); // ahead of the speculative copies: no proof
  }
}

/// A group's launch other than its first, alone: when its group is not decided yet (speculatively, on a
/// thread with nothing else to do) or was not proven. Nothing when it has been covered or taken already.
void AnalysisRun::member(std::size_t slot) {
  {
    std::lock_guard<std::mutex> lock(m_stateMutex);
    if (m_state[slot] != kWaiting)
      return;
    m_state[slot] = kRunning;
  }
  alone(slot);
  std::lock_guard<std::mutex> lock(m_stateMutex);
  m_state[slot] = kDone;
  std::size_t g = m_groupOf[slot];
  if (m_proofs[g]) // set only once the group is decided, and only for a proof
    coverByProof(g, slot, true);
}

void AnalysisRun::closeCache() {
  if (!m_cache)
    return;
  m_cache->prune();
  if (m_progress && m_options.progress && m_cache->hits() > 0)
    *m_progress << "clcapture-verify: " << m_cache->hits() << " of " << m_distinct.size() + m_groups.size()
                << " analyses from the cache in " << m_cache->folder().string()
                << " (--no-cache analyses them again)\n";
}

/// Before the zygote is forked: each distinct launch's cached result (looked up once, here), and for the
/// analyses the cache does not answer, the analyzer's shared work, which every child then inherits
/// (InstantiationAnalyzer::prepareForForks: each program that several analyses compile, compiled once).
void AnalysisRun::prepareForProcesses() {
  m_cached.resize(m_positions.size());
  std::vector<bool> toAnalyse(m_positions.size(), false);
  std::vector<pipeline::AnalysisRequest> requests;
  for (std::size_t slot : m_distinct) {
    if (m_cache)
      m_cached[slot] = m_cache->find(m_keys[slot], m_options.strict, m_options.timeoutSeconds);
    if (!m_cached[slot]) {
      toAnalyse[slot] = true;
      requests.push_back(requestFor(m_capture, indexOf(slot), instantiation(slot),
                                    m_capture.factsFor(m_positions[slot]), m_options,
                                    m_options.timeoutSeconds));
    }
  }
  for (const ParametricGroup &group : m_groups)
    if (std::any_of(group.slots.begin(), group.slots.end(),
                    [&](std::size_t slot) { return toAnalyse[slot]; }))
      requests.push_back(requestFor(m_capture, indexOf(group.slots.front()), group.opened, group.facts,
                                    m_options, m_options.timeoutSeconds, group.openValues));
  m_analyzer.prepareForForks(requests, m_options.jobs);
}

/// Analyses run in child processes (AnalysisProcesses.h) unless --in-process; forked here, while this
/// process has one thread. When that cannot be, they run in this process, and the user is told.
void AnalysisRun::startProcesses() {
  if (!m_options.isolate)
    return;
  prepareForProcesses();
  std::string why;
  m_processes = AnalysisProcesses::start([this](const std::string &request) { return serve(request); }, why);
  if (!m_processes && m_progress)
    *m_progress << "clcapture-verify: warning: analyses run inside clcapture-verify, so --timeout and "
                   "--max-memory are checked only between solver queries: "
                << why << '\n';
}

/// Task's analysis: in a child process, ended at its limit, or here.
InstantiationResult AnalysisRun::analyze(const ChildRequest &task) {
  if (!m_processes)
    return analyzeHere(task);
  auto start = std::chrono::steady_clock::now();
  std::size_t index = indexOf(task.group ? m_groups[task.id].slots.front() : task.id);
  AnalysisProcesses::Outcome outcome = runRetryingCrash(
      *m_processes,
      [&](double seconds) {
        ChildRequest asked = task;
        asked.limitSeconds = seconds;
        return requestText(asked);
      },
      task.limitSeconds, hardMemoryBytes(m_options),
      [&](int signal) {
        if (!m_progress)
          return;
        std::string warning = "clcapture-verify: warning: the analysis of instantiation " +
                              std::to_string(index) + " crashed (signal " + std::to_string(signal) +
                              "); trying it once more\n";
        std::lock_guard<std::mutex> lock(m_stateMutex);
        *m_progress << warning << std::flush;
      });
  if (outcome.ending == AnalysisProcesses::Ending::Unavailable)
    return analyzeHere(task);
  std::optional<InstantiationResult> replied;
  if (outcome.ending == AnalysisProcesses::Ending::Replied)
    replied = parseReply(outcome.reply);
  InstantiationResult r =
      replied ? std::move(*replied) : resultOfEnding(outcome, task.limitSeconds, m_options);
  const format::Instantiation &inst = task.group ? m_groups[task.id].opened : instantiation(task.id);
  r.index = index;
  r.entryPoint = inst.entryPoint;
  r.kernelFile = inst.kernelFile;
  r.seconds =
      std::max(r.seconds, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  if (!replied)
    report::finalizeResult(r, m_options.strict);
  return r;
}

/// Task's analysis in this process: a distinct launch alone, or a group with its differing values open.
InstantiationResult AnalysisRun::analyzeHere(const ChildRequest &task) {
  if (task.group) {
    const ParametricGroup &group = m_groups[task.id];
    return analyzeInstantiation(m_capture, indexOf(group.slots.front()), group.opened, group.facts,
                                m_analyzer, m_options, task.limitSeconds, group.openValues);
  }
  return analyzeInstantiation(m_capture, indexOf(task.id), instantiation(task.id),
                              m_capture.factsFor(m_positions[task.id]), m_analyzer, m_options,
                              task.limitSeconds);
}

/// A child's work (AnalysisProcesses::Handler): the request's analysis, on the child's copy of this run.
std::string AnalysisRun::serve(const std::string &request) {
  std::optional<ChildRequest> task = parseRequest(request);
  if (!task || (task->group ? task->id >= m_groups.size() : task->id >= m_positions.size())) {
    InstantiationResult r;
    r.verdict = report::Verdict::Error;
    r.errorKind = report::ErrorKind::Other;
    r.reason = "internal error: the analysis process was asked for something it does not have";
    return replyText(r);
  }
  return replyText(analyzeHere(*task));
}

std::vector<InstantiationResult> AnalysisRun::run() {
  findIdentical();
  openCache();

  // Distinct instantiations that differ only in values (ParametricGroups.h): the first of a group is analysed
  // alone, and unless it has a finding, the group is attempted with those values open, within a budget sized
  // by that first analysis (RunBudget.h), so that a failed attempt costs a tenth of what it might save. A
  // group proven needs no other analysis; its other members are otherwise analysed one by one below.
  if (m_options.parametric)
    m_groups = parametricGroups(m_capture, m_positions, m_distinct, m_captureDir, m_hashes);
  startProcesses(); // before any thread of this run starts: the ticker's, the pool's
  m_shown.emplace(m_options.progress ? m_progress : nullptr, m_options.progressOnTerminal,
                  m_options.progressIntervalSeconds, m_distinct.size(), m_positions.size());
  // One pool (TaskPool.h): each group's first launch and attempt, and the launches in no group; a group's
  // other launches wait for its attempt, or run speculatively on a thread that has nothing else to do.
  m_proofs.resize(m_groups.size());
  m_proofSecondsShown.assign(m_groups.size(), false);
  m_groupOf.assign(m_positions.size(), 0);
  TaskPool pool;
  for (std::size_t g = 0; g < m_groups.size(); ++g) {
    pool.add([this, g](TaskPool &more) { decideGroup(g, more); });
    for (std::size_t slot : m_groups[g].slots)
      m_groupOf[slot] = g;
  }
  for (std::size_t slot : slotsInNoGroup())
    pool.add([this, slot](TaskPool &) { alone(slot); });
  for (const ParametricGroup &group : m_groups)
    for (std::size_t i = 1; i < group.slots.size(); ++i)
      pool.add([this, slot = group.slots[i]](TaskPool &) { member(slot); }, true);
  pool.run(m_options.jobs);
  m_shown->finish();
  m_hashes.save();
  closeCache();

  for (std::size_t slot = 0; slot < m_positions.size(); ++slot)
    if (m_copyOf[slot])
      m_results[slot] = copyResult(m_results[*m_copyOf[slot]], indexOf(slot), instantiation(slot));
  return std::move(m_results);
}

} // namespace

std::vector<InstantiationResult> analyzeInstantiations(const format::Capture &capture,
                                                       const std::vector<std::size_t> &positions,
                                                       pipeline::InstantiationAnalyzer &analyzer,
                                                       const VerifyOptions &options, std::ostream *progress) {
  return AnalysisRun(capture, positions, analyzer, options, progress).run();
}

namespace {

bool prepareFolder(const char *option, const std::optional<fs::path> &dir, std::ostream &err) {
  if (!dir)
    return true;
  std::error_code ec;
  fs::create_directories(*dir, ec);
  if (ec || !fs::is_directory(*dir, ec)) {
    err << "clcapture-verify: error: " << option << ": cannot create folder " << dir->string() << ": "
        << (ec ? ec.message() : std::string("not a folder")) << '\n';
    return false;
  }
  return true;
}

std::string absoluteFolderUri(const fs::path &capturesPath) {
  std::error_code ec;
  fs::path absolute = fs::absolute(capturesPath, ec);
  if (ec)
    return {};
  return report::folderUri(absolute.lexically_normal().parent_path().generic_string());
}

} // namespace

int runVerify(const VerifyOptions &options, pipeline::InstantiationAnalyzer &analyzer, std::ostream &out,
              std::ostream &err) {
  format::ReadOptions readOptions;
  readOptions.checkFiles = true;
  readOptions.threads = options.jobs;
  // A captures.json, its folder, or a `clcapture pack` archive (extracted into a private temporary folder
  // that lives until the reports are written; hostile archives are refused here). Messages and reports name
  // files inside an archive as ARCHIVE:path, never the temporary folder.
  std::optional<archive::LoadedCapture> input =
      archive::openToolInput(options.captures, readOptions, "clcapture-verify", "nothing was analysed", err);
  if (!input)
    return kExitCaptureInvalid;
  format::Capture &capture = input->capture;

  // --open: "race-free for every value?" is the question; the captured values give way to symbolic ones.
  if (options.openScalars || options.openData)
    for (format::Instantiation &inst : capture.captures.instantiations)
      if (inst.kernelArguments)
        for (format::KernelArgument &arg : *inst.kernelArguments) {
          if (auto *s = std::get_if<format::ScalarArgument>(&arg); s && options.openScalars)
            s->value.reset();
          else if (auto *a = std::get_if<format::ArrayArgument>(&arg); a && options.openData)
            a->data.reset();
        }

  auto positions =
      archive::selectInstantiations(capture, options.only, options.captures.string(), options.onlyProcesses);
  if (!positions) {
    err << "clcapture-verify: error: " << positions.error() << '\n';
    return kExitCommandLine;
  }
  if (!prepareFolder("--dump-ir", options.dumpIrDir, err) ||
      !prepareFolder("--dump-smt2", options.dumpSmt2Dir, err))
    return kExitCommandLine;
  if (options.output) {
    fs::path folder = options.output->parent_path();
    std::error_code ec;
    if (!folder.empty() && !fs::is_directory(folder, ec)) {
      err << "clcapture-verify: error: --output: folder " << folder.string() << " does not exist\n";
      return kExitCommandLine;
    }
  }
  if (positions->empty())
    err << "clcapture-verify: warning: " << options.captures.string() << " holds no instantiation\n";

  std::vector<InstantiationResult> results =
      analyzeInstantiations(capture, *positions, analyzer, options, options.progress ? &err : nullptr);
  if (capture.parts.size() > 1) { // a capture many processes wrote: each launch's process is named
    std::map<std::size_t, const format::CapturePart *> partOfIndex;
    for (std::size_t p : *positions)
      partOfIndex[capture.captures.indices[p]] = capture.partOf(p);
    for (InstantiationResult &r : results)
      if (auto it = partOfIndex.find(r.index); it != partOfIndex.end() && it->second && it->second->process)
        r.process = report::LaunchProcess{it->second->process->pid, it->second->process->commandLine,
                                          it->second->capturesPath.filename().string()};
  }
  nameCreationSites(results, capture, *positions);
  if (options.confirm) // replayed from the whole capture when the indices run across its parts
    confirmFindings(results,
                    input->source.wholeFolder() ? input->source.capturesPath().parent_path()
                                                : capture.capturesPath,
                    options.timeoutSeconds, err);

  report::ReportInfo info;
  info.version = CLCAPTURE_VERSION;
  // An archive's kernels are inside it: report paths relative to its top, SARIF URIs relative (no base).
  info.capturesPath = input->inArchive(input->source.capturesPath().string());
  info.capturesDirUri = input->fromArchive() ? std::string() : absoluteFolderUri(info.capturesPath);
  info.strict = options.strict;
  info.checks = checksAsked(options);
  std::string text;
  switch (options.format) {
  case ReportFormat::Text:
    text = report::textReport(results, info);
    break;
  case ReportFormat::Json:
    text = report::jsonReport(results, info);
    break;
  case ReportFormat::Sarif:
    text = report::sarifReport(results, info);
    break;
  }
  if (options.output) {
    format::Status written = format::writeFileAtomically(*options.output, text.data(), text.size());
    if (!written) {
      err << "clcapture-verify: error: --output: " << written.error() << '\n';
      return kExitCommandLine;
    }
    err << report::textSummaryLine(results) << '\n';
  } else {
    out << text << std::flush;
  }
  return exitCodeFor(results);
}

} // namespace clcapture::verify
