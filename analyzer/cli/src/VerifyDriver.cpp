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

/// Fewer distinct analyses than this finish too soon for a progress line to help.
constexpr std::size_t kProgressMinimum = 4;

fs::path captureDirOf(const fs::path &capturesPath) {
  fs::path dir = capturesPath.parent_path();
  return dir.empty() ? fs::path(".") : dir;
}

/// Analyses `inst` (with `facts`) as instantiation `index` of the capture.
InstantiationResult analyzeInstantiation(const format::Capture &capture, std::size_t index,
                                         const format::Instantiation &inst, const format::LaunchFacts *facts,
                                         pipeline::InstantiationAnalyzer &analyzer, const VerifyOptions &options) {
  pipeline::AnalysisRequest request;
  request.index = index;
  request.instantiation = &inst;
  request.facts = facts;
  request.captureDir = captureDirOf(capture.capturesPath);
  request.kernelSourcePath = request.captureDir / inst.kernelFile;
  request.options.timeoutSeconds = options.timeoutSeconds;
  request.options.dumpIrDir = options.dumpIrDir;
  request.options.dumpSmt2Dir = options.dumpSmt2Dir;
  request.options.strict = options.strict;

  auto start = std::chrono::steady_clock::now();
  if (options.timeoutSeconds > 0)
    request.deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                   std::chrono::duration<double>(options.timeoutSeconds));
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
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.index = request.index;
  r.entryPoint = inst.entryPoint;
  r.kernelFile = inst.kernelFile;
  r.sameAs.reset();
  report::finalizeResult(r, options.strict);
  return r;
}

InstantiationResult analyzeOne(const format::Capture &capture, std::size_t position,
                               pipeline::InstantiationAnalyzer &analyzer, const VerifyOptions &options) {
  return analyzeInstantiation(capture, capture.captures.indices[position], capture.captures.instantiations[position],
                              capture.factsFor(position), analyzer, options);
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

class Progress {
public:
  Progress(std::ostream *stream, std::size_t total)
      : m_stream(total >= kProgressMinimum ? stream : nullptr), m_total(total) {
    show();
  }
  void done() {
    if (!m_stream)
      return;
    std::lock_guard<std::mutex> lock(m_mutex);
    ++m_done;
    showLocked();
  }
  void finish() {
    if (!m_stream)
      return;
    std::lock_guard<std::mutex> lock(m_mutex);
    *m_stream << '\r' << std::string(m_width, ' ') << '\r' << std::flush;
  }

private:
  void show() {
    if (!m_stream)
      return;
    std::lock_guard<std::mutex> lock(m_mutex);
    showLocked();
  }
  void showLocked() {
    std::string line = "clcapture-verify: analysed " + std::to_string(m_done) + " of " +
                       std::to_string(m_total) + " distinct instantiations";
    m_width = std::max(m_width, line.size());
    *m_stream << '\r' << line << std::flush;
  }

  std::ostream *m_stream;
  std::size_t m_total;
  std::size_t m_done = 0;
  std::size_t m_width = 0;
  std::mutex m_mutex;
};

} // namespace

std::vector<InstantiationResult> analyzeInstantiations(const format::Capture &capture,
                                                       const std::vector<std::size_t> &positions,
                                                       pipeline::InstantiationAnalyzer &analyzer,
                                                       const VerifyOptions &options, std::ostream *progress) {
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

  // Distinct instantiations that differ only in values: one analysis with those values open first
  // (ParametricGroups.h); a group it proves needs no other, the others are analysed one by one below.
  std::vector<ParametricGroup> groups;
  if (options.parametric)
    groups = parametricGroups(capture, positions, distinct, captureDir, hashes);
  std::vector<bool> proven(positions.size(), false);
  std::vector<InstantiationResult> results(positions.size());
  Progress shown(progress, groups.size() + distinct.size());
  auto cachedOrAnalysed = [&](const std::string &key, auto &&analyse) {
    std::optional<InstantiationResult> cached;
    if (cache)
      cached = cache->find(key, options.strict, options.timeoutSeconds);
    if (cached)
      return *cached;
    InstantiationResult r = analyse();
    if (cache)
      cache->store(key, options.strict, options.timeoutSeconds, r);
    return r;
  };
  std::vector<InstantiationResult> groupResults(groups.size());
  runPool(groups.size(), options.jobs, [&](std::size_t g) {
    const ParametricGroup &group = groups[g];
    const format::LaunchFacts *facts = group.facts;
    std::size_t index = capture.captures.indices[positions[group.slots.front()]];
    groupResults[g] = cachedOrAnalysed(analysisKey(group.opened, facts, captureDir, hashes), [&] {
      return analyzeInstantiation(capture, index, group.opened, facts, analyzer, options);
    });
    shown.done();
  });
  std::vector<std::size_t> copies(positions.size(), 0); // per distinct slot: instantiations copying it
  for (std::size_t slot = 0; slot < positions.size(); ++slot)
    if (copyOf[slot])
      ++copies[*copyOf[slot]];
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const InstantiationResult &proof = groupResults[g];
    // Only a clean proof covers the group: a finding's witness (even a benign one) is one launch's, and so
    // is a same-value race the proof could not decide (a `verified` with a reason): alone, a launch may
    // show it with a witness.
    if (proof.verdict != report::Verdict::Verified || !proof.findings.empty() || !proof.reason.empty())
      continue;
    std::size_t launches = 0;
    for (std::size_t slot : groups[g].slots)
      launches += 1 + copies[slot];
    for (std::size_t slot : groups[g].slots) {
      const format::Instantiation &inst = capture.captures.instantiations[positions[slot]];
      results[slot] = copyResult(proof, capture.captures.indices[positions[slot]], inst);
      results[slot].sameAs.reset();
      results[slot].entryPoint = inst.entryPoint;
      results[slot].seconds = slot == groups[g].slots.front() ? proof.seconds : 0;
      results[slot].parametric = report::ParametricProof{describeOpened(groups[g].openedNames), launches};
      proven[slot] = true;
    }
  }

  std::vector<std::size_t> alone;
  for (std::size_t slot : distinct)
    if (!proven[slot])
      alone.push_back(slot);
    else
      shown.done();
  runPool(alone.size(), options.jobs, [&](std::size_t d) {
    std::size_t slot = alone[d];
    const format::Instantiation &inst = capture.captures.instantiations[positions[slot]];
    std::optional<InstantiationResult> cached;
    if (cache)
      cached = cache->find(keys[slot], options.strict, options.timeoutSeconds);
    if (cached) {
      results[slot] = copyResult(*cached, capture.captures.indices[positions[slot]], inst);
      results[slot].sameAs.reset();
      results[slot].entryPoint = inst.entryPoint;
    } else {
      results[slot] = analyzeOne(capture, positions[slot], analyzer, options);
      if (cache)
        cache->store(keys[slot], options.strict, options.timeoutSeconds, results[slot]);
    }
    shown.done();
  });
  shown.finish();
  hashes.save();
  if (cache) {
    cache->prune();
    if (progress && cache->hits() > 0)
      *progress << "clcapture-verify: " << cache->hits() << " of " << distinct.size()
                << " distinct instantiations from the cache in " << cache->folder().string()
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
