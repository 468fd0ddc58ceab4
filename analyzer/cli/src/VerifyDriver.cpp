//===- VerifyDriver.cpp - clcapture-verify from options to exit status ---===//

#include "clcapture/verify/VerifyDriver.h"

#include "clcapture/archive/CaptureInput.h"
#include "clcapture/format/BlobStore.h"
#include "clcapture/report/JsonReport.h"
#include "clcapture/report/SarifReport.h"
#include "clcapture/report/TextReport.h"
#include "clcapture/verify/ExitCode.h"
#include "clcapture/verify/FindingConfirmation.h"
#include "clcapture/verify/InstantiationKey.h"
#include "clcapture/verify/ParametricGroups.h"
#include "clcapture/verify/ProgressReporter.h"
#include "clcapture/verify/RunBudget.h"
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

/// Analyses `inst` (with `facts`) as instantiation `index` of the capture, within `limitSeconds` (0: none).
InstantiationResult analyzeInstantiation(const format::Capture &capture, std::size_t index,
                                         const format::Instantiation &inst, const format::LaunchFacts *facts,
                                         pipeline::InstantiationAnalyzer &analyzer, const VerifyOptions &options,
                                         double limitSeconds) {
  pipeline::AnalysisRequest request;
  request.index = index;
  request.instantiation = &inst;
  request.facts = facts;
  request.captureDir = captureDirOf(capture.capturesPath);
  request.kernelSourcePath = request.captureDir / inst.kernelFile;
  request.options.timeoutSeconds = limitSeconds;
  request.options.dumpIrDir = options.dumpIrDir;
  request.options.dumpSmt2Dir = options.dumpSmt2Dir;
  request.options.strict = options.strict;

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
  r.index = request.index;
  r.entryPoint = inst.entryPoint;
  r.kernelFile = inst.kernelFile;
  r.sameAs.reset();
  report::finalizeResult(r, options.strict);
  return r;
}

/// Runs `task(i)` for i in [0, count) on `jobs` threads.
template <typename Task> void runPool(std::size_t count, unsigned jobs, Task &&task) {
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < count; i = next++)
      task(i);
  };
  std::size_t threads = std::min<std::size_t>(std::max(1u, jobs), count);
  if (threads <= 1) {
    worker();
    return;
  }
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (std::size_t t = 0; t < threads; ++t)
    pool.emplace_back(worker);
  for (std::thread &t : pool)
    t.join();
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
  auto rename = [&](report::SourceLocation &l) {
    if (l.file == from.kernelFile)
      l.file = inst.kernelFile;
  };
  for (report::Finding &f : r.findings) {
    rename(f.barrier);
    for (report::Access &a : f.accesses)
      rename(a.location);
  }
  return r;
}

/// A result that proves its launch for every value it was analysed with: `verified`, no finding (even a
/// benign one is one launch's), no same-value race left undecided (a `verified` with a reason).
bool cleanProof(const InstantiationResult &r) {
  return r.verdict == report::Verdict::Verified && r.findings.empty() && r.reason.empty();
}

} // namespace

std::vector<InstantiationResult> analyzeInstantiations(const format::Capture &capture,
                                                       const std::vector<std::size_t> &positions,
                                                       pipeline::InstantiationAnalyzer &analyzer,
                                                       const VerifyOptions &options, std::ostream *progress) {
  RunBudget budget(options);
  // Identical instantiations: the first (lowest index) is analysed, the others copy its result.
  fs::path captureDir = captureDirOf(capture.capturesPath);
  // Hashes of data files outlive the run with the verdicts (not for an archive: its folder is temporary).
  bool keepHashes = options.cacheDir && !options.dumpIrDir && !options.dumpSmt2Dir &&
                    !archive::looksLikeArchive(options.captures);
  FileHashCache hashes = keepHashes ? FileHashCache(FileHashCache::storeFor(*options.cacheDir, captureDir))
                                    : FileHashCache();
  std::vector<std::size_t> distinct;                                // slots to analyse
  std::vector<std::optional<std::size_t>> copyOf(positions.size()); // slot -> slot it copies
  std::map<std::string, std::size_t> firstWithKey;
  std::vector<std::string> keys(positions.size());
  for (std::size_t slot = 0; slot < positions.size(); ++slot) {
    std::size_t p = positions[slot];
    keys[slot] = analysisKey(capture.captures.instantiations[p], capture.factsFor(p), captureDir, hashes);
    auto [it, inserted] = firstWithKey.emplace(keys[slot], slot);
    if (inserted)
      distinct.push_back(slot);
    else
      copyOf[slot] = it->second;
  }
  std::vector<std::size_t> copies(positions.size(), 0); // per distinct slot: instantiations copying it
  for (std::size_t slot = 0; slot < positions.size(); ++slot)
    if (copyOf[slot])
      ++copies[*copyOf[slot]];

  // Results of earlier runs (VerdictCache.h): not while dumping, since a dump is what the user asked for.
  std::optional<VerdictCache> cache;
  std::string identity = analyzer.identity();
  if (options.cacheDir && !identity.empty() && !options.dumpIrDir && !options.dumpSmt2Dir) {
    std::string buildId = executableBuildId();
    if (!buildId.empty())
      cache.emplace(*options.cacheDir, identity + ";build-id " + buildId, [&](const std::string &header) {
        fs::path path(header);
        return hashes.hashOf(path.is_absolute() ? path : captureDir / path);
      });
  }

  std::vector<InstantiationResult> results(positions.size());
  std::vector<double> cost(positions.size(), 0); // what a distinct slot's own analysis cost (cached: then)
  std::vector<bool> answered(positions.size(), false);
  ProgressReporter shown(options.progress ? progress : nullptr, options.progressOnTerminal,
                         options.progressIntervalSeconds, distinct.size(), positions.size());

  // One distinct instantiation alone: from the cache, cut short by the run's time limits, or analysed.
  auto alone = [&](std::size_t slot) {
    std::size_t p = positions[slot];
    const format::Instantiation &inst = capture.captures.instantiations[p];
    std::size_t index = capture.captures.indices[p];
    std::string kernel = report::kernelName(inst.entryPoint, inst.kernelFile);
    std::optional<InstantiationResult> cached;
    if (cache)
      cached = cache->find(keys[slot], options.strict, options.timeoutSeconds);
    if (cached) {
      cost[slot] = cached->seconds;
      budget.record(kernel, *cached); // a cached time limit counts toward giving up, as it did when analysed
      results[slot] = copyResult(*cached, index, inst);
      results[slot].sameAs.reset();
      results[slot].entryPoint = inst.entryPoint;
    } else if (auto why = budget.cutShort(kernel)) {
      cost[slot] = options.timeoutSeconds; // what the kernel's launches have been costing
      results[slot] = cutShortResult(*why);
      results[slot].index = index;
      results[slot].entryPoint = inst.entryPoint;
      results[slot].kernelFile = inst.kernelFile;
      report::finalizeResult(results[slot], options.strict);
    } else {
      shown.started(slot, kernel);
      double limit = budget.limit(options.timeoutSeconds);
      results[slot] = analyzeInstantiation(capture, index, inst, capture.factsFor(p), analyzer, options, limit);
      cost[slot] = results[slot].seconds;
      budget.record(kernel, results[slot]);
      if (cache)
        cache->store(keys[slot], options.strict, limit, results[slot]);
    }
    shown.finished(slot, results[slot], 1 + copies[slot]);
  };

  // Distinct instantiations that differ only in values (ParametricGroups.h): the first of a group is analysed
  // alone, and unless it has a finding, the group is attempted with those values open, within a budget sized
  // by that first analysis (RunBudget.h), so that a failed attempt costs a tenth of what it might save. A
  // group proven needs no other analysis; its other members are otherwise analysed one by one below.
  std::vector<ParametricGroup> groups;
  if (options.parametric)
    groups = parametricGroups(capture, positions, distinct, captureDir, hashes);
  // First the groups' first launches, then every launch in no group, on one pool (no core waits for the
  // attempts while there is other work).
  std::vector<bool> inGroup(positions.size(), false);
  std::vector<std::size_t> opening;
  for (const ParametricGroup &group : groups) {
    opening.push_back(group.slots.front());
    for (std::size_t slot : group.slots)
      inGroup[slot] = true;
  }
  for (std::size_t slot : distinct)
    if (!inGroup[slot])
      opening.push_back(slot);
  runPool(opening.size(), options.jobs, [&](std::size_t i) { alone(opening[i]); });
  for (std::size_t slot : opening) // here, not in alone(): a vector<bool> is not for several threads
    answered[slot] = true;
  std::vector<std::optional<InstantiationResult>> groupProofs(groups.size());
  runPool(groups.size(), options.jobs, [&](std::size_t g) {
    const ParametricGroup &group = groups[g];
    std::size_t first = group.slots.front();
    if (!results[first].findings.empty() || results[first].verdict == report::Verdict::Error || budget.over())
      return; // the group holds a launch with a finding, which no proof covers, or the run's time is out
    double attempt = groupAttemptBudget(group.slots.size(), cost[first], options);
    if (attempt > 0)
      attempt = budget.limit(attempt);
    std::string key = analysisKey(group.opened, group.facts, captureDir, hashes);
    std::optional<InstantiationResult> proof;
    if (cache)
      proof = cache->find(key, options.strict, attempt); // a proof, or an attempt that ran out before
    if (!proof && attempt > 0) {
      std::size_t index = capture.captures.indices[positions[first]];
      shown.started(positions.size() + g, report::kernelName(group.opened.entryPoint, group.opened.kernelFile));
      proof = analyzeInstantiation(capture, index, group.opened, group.facts, analyzer, options, attempt);
      shown.finished(positions.size() + g, *proof, 0);
      if (cache)
        cache->store(key, options.strict, attempt, *proof);
    }
    if (proof && cleanProof(*proof))
      groupProofs[g] = std::move(proof);
  });
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (!groupProofs[g])
      continue;
    const InstantiationResult &proof = *groupProofs[g];
    std::size_t launches = 0;
    for (std::size_t slot : groups[g].slots)
      launches += 1 + copies[slot];
    for (std::size_t slot : groups[g].slots) {
      const format::Instantiation &inst = capture.captures.instantiations[positions[slot]];
      // The first keeps its own analysis when that proved it; one that ran out of time (its concrete data
      // can make it harder than the open values) is `verified` through the proof, as the others are.
      bool first = slot == groups[g].slots.front();
      if (!first || !cleanProof(results[slot])) {
        results[slot] = copyResult(proof, capture.captures.indices[positions[slot]], inst);
        results[slot].sameAs.reset();
        results[slot].entryPoint = inst.entryPoint;
        results[slot].seconds = slot == groups[g].slots[1] ? proof.seconds : first ? cost[slot] : 0;
        if (!first)
          shown.covered(proof, 1 + copies[slot]);
        answered[slot] = true;
      }
      results[slot].parametric = report::ParametricProof{describeOpened(groups[g].openedNames), launches};
    }
  }

  std::vector<std::size_t> rest;
  for (std::size_t slot : distinct)
    if (!answered[slot])
      rest.push_back(slot);
  runPool(rest.size(), options.jobs, [&](std::size_t d) { alone(rest[d]); });
  shown.finish();
  hashes.save();
  if (cache) {
    cache->prune();
    if (progress && options.progress && cache->hits() > 0)
      *progress << "clcapture-verify: " << cache->hits() << " of " << distinct.size() + groups.size()
                << " analyses from the cache in " << cache->folder().string()
                << " (--no-cache analyses them again)\n";
  }

  for (std::size_t slot = 0; slot < positions.size(); ++slot)
    if (copyOf[slot])
      results[slot] = copyResult(results[*copyOf[slot]], capture.captures.indices[positions[slot]],
                                 capture.captures.instantiations[positions[slot]]);
  return results;
}

namespace {

/// Positions (in capture.captures.instantiations) of the selected instantiations, ascending; nullopt after
/// an error message for an index that does not exist.
std::optional<std::vector<std::size_t>> selectPositions(const format::Capture &capture,
                                                        const VerifyOptions &options, std::ostream &err) {
  const auto &indices = capture.captures.indices;
  std::vector<std::size_t> positions;
  if (options.only.empty()) {
    for (std::size_t p = 0; p < indices.size(); ++p)
      positions.push_back(p);
    return positions;
  }
  std::map<std::size_t, std::size_t> positionOf;
  for (std::size_t p = 0; p < indices.size(); ++p)
    positionOf.emplace(indices[p], p);
  for (std::size_t index : options.only) {
    auto it = positionOf.find(index);
    if (it == positionOf.end()) {
      std::size_t count = capture.captures.recordCount;
      err << "clcapture-verify: error: --only: no instantiation " << index << " in "
          << options.captures.string() << " ("
          << (count == 0 ? std::string("it has none")
                         : "it has " + std::to_string(count) + ", numbered 0 to " + std::to_string(count - 1))
          << ")\n";
      return std::nullopt;
    }
    positions.push_back(it->second);
  }
  std::sort(positions.begin(), positions.end());
  positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
  return positions;
}

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
  // that lives until the reports are written; hostile archives are refused here).
  std::optional<archive::CaptureInput> input;
  std::error_code notDirectory;
  if (fs::is_directory(options.captures, notDirectory) || archive::looksLikeArchive(options.captures)) {
    auto opened = archive::CaptureInput::open(options.captures);
    if (!opened.ok()) {
      err << "clcapture-verify: error: " << opened.error() << "; nothing was analysed\n";
      return kExitCaptureInvalid;
    }
    input = opened.value();
  }
  format::Capture capture =
      format::loadCapture(input ? input->capturesPath() : options.captures, readOptions);
  // Messages and reports name files inside an archive as ARCHIVE:path, never the temporary folder.
  const bool fromArchive = input && input->fromArchive();
  const std::string archiveName = options.captures.filename().string();
  const std::string extracted = input ? input->capturesPath().parent_path().string() + "/" : std::string();
  for (const format::Diagnostic &d : capture.diagnostics) {
    std::string line = d.str();
    for (std::size_t at; fromArchive && (at = line.find(extracted)) != std::string::npos;)
      line.replace(at, extracted.size(), archiveName + ":");
    err << line << '\n';
  }
  if (capture.hasErrors()) {
    err << "clcapture-verify: error: " << options.captures.string()
        << " is not a valid capture; nothing was analysed\n";
    return kExitCaptureInvalid;
  }

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

  auto positions = selectPositions(capture, options, err);
  if (!positions)
    return kExitCommandLine;
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
  if (options.confirm)
    confirmFindings(results, capture.capturesPath, options.timeoutSeconds, err);

  report::ReportInfo info;
  info.version = CLCAPTURE_VERSION;
  // An archive's kernels are inside it: report paths relative to its top, SARIF URIs relative (no base).
  info.capturesPath = fromArchive ? archiveName + ":captures.json"
                      : input     ? input->capturesPath().string()
                                  : options.captures.string();
  info.capturesDirUri = fromArchive ? std::string() : absoluteFolderUri(info.capturesPath);
  info.strict = options.strict;
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
