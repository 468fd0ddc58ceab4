//===- KernelAnalyzer.cpp - clcapture-verify's analysis of one launch -----===//

#include "clcapture/pipeline/KernelAnalyzer.h"

#include "PreparedKernels.h"
#include "clcapture/check/KernelChecker.h"
#include "clcapture/encode/KernelEncoding.h"
#include "clcapture/frontend/KernelCompiler.h"
#include "clcapture/frontend/Normalizer.h"
#include "clcapture/model/LaunchConfig.h"
#include "clcapture/model/LaunchSpecializer.h"

#include <fstream>
#include <llvm/Config/llvm-config.h>
#include <llvm/Support/raw_ostream.h>
#include <sstream>

namespace clcapture::pipeline {

static_assert(kOpenValueSetMax == model::kCandidateSetMax,
              "the driver's words and the encoder's bound agree");

namespace {

std::vector<std::string> readLines(const std::filesystem::path &path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

void writeFile(const std::filesystem::path &path, const std::string &text) {
  std::ofstream(path, std::ios::binary) << text;
}

report::InstantiationResult fail(report::Verdict verdict, report::ErrorKind kind, std::string reason) {
  report::InstantiationResult r;
  r.verdict = verdict;
  r.errorKind = kind;
  r.reason = std::move(reason);
  return r;
}

/// At most `n` reasons, then how many more.
std::string summarise(const std::vector<std::string> &reasons, std::size_t n = 3) {
  std::string out;
  for (std::size_t i = 0; i < reasons.size() && i < n; ++i)
    out += (i ? "; " : "") + reasons[i];
  if (reasons.size() > n)
    out += "; and " + std::to_string(reasons.size() - n) + " more";
  return out;
}

/// Whether the analysis holds more heap than --max-memory allows (false when either is unknown).
bool overMemory(const AnalysisRequest &request) {
  return request.options.maxMemoryBytes > 0 && request.peakHeapBytes &&
         request.peakHeapBytes() > request.options.maxMemoryBytes;
}

/// `unknown` for the memory budget, `phase` being what the analysis was doing.
report::InstantiationResult outOfMemory(const AnalysisRequest &request, const std::string &phase) {
  std::uint64_t peak = request.peakHeapBytes ? request.peakHeapBytes() : 0;
  return fail(
      report::Verdict::Unknown, report::ErrorKind::None,
      "over the memory budget while " + phase + ": the analysis reached " + std::to_string(peak >> 20) +
          " MiB, more than --max-memory=" + std::to_string(request.options.maxMemoryBytes >> 20) + " MiB");
}

/// Tells request.onStep, if set, that `step` starts.
void tell(const AnalysisRequest &request, const std::string &step) {
  if (request.onStep)
    request.onStep(step);
}

bool pastDeadline(const AnalysisRequest &request) {
  return request.deadline && std::chrono::steady_clock::now() >= *request.deadline;
}

/// `unknown` for --timeout, `phase` being what the analysis was doing (no query asked yet).
report::InstantiationResult outOfTime(const std::string &phase) {
  return fail(report::Verdict::Unknown, report::ErrorKind::Timeout, "timed out while " + phase);
}

/// Everything after compiling and normalising: specialise, encode, check.
report::InstantiationResult analyzeCompiled(const AnalysisRequest &request, model::LaunchConfig &launch,
                                            frontend::CompiledKernel &kernel) {
  const format::Instantiation &inst = *request.instantiation;
  model::applyRequiredWorkGroupSize(kernel.entry(), launch);
  tell(request, "while specialising the kernel to the launch");
  model::SpecializeReport specialised = model::specializeToLaunch(kernel.entry(), launch);
  if (specialised.undefined)
    return fail(report::Verdict::Unknown, report::ErrorKind::None,
                "not analysed: the launch's values make the kernel's behaviour undefined: " +
                    *specialised.undefined);
  if (overMemory(request))
    return outOfMemory(request, "specialising the kernel");
  if (pastDeadline(request))
    return outOfTime("specialising the kernel");
  if (request.options.dumpIrDir)
    writeFile(dumpPath(*request.options.dumpIrDir, request.index, inst.entryPoint, ".ll"),
              frontend::printModule(kernel.module()));

  tell(request, "while encoding the launch for the solver");
  encode::EncodeOptions encodeOptions;
  encodeOptions.deadline = request.deadline;
  encodeOptions.overMemory = [&request] { return overMemory(request); };
  encodeOptions.memorySafety = request.options.checkBounds;

  auto encoding = encode::KernelEncoding::encode(kernel.entry(), launch, encodeOptions);
  if (!encoding && overMemory(request))
    return outOfMemory(request, "encoding");
  if (!encoding && pastDeadline(request))
    return outOfTime("encoding");
  if (!encoding)
    return fail(report::Verdict::Unknown, report::ErrorKind::None,
                "not covered by the analysis: " + encoding.error());

  check::CheckContext context;
  context.kernelFile = inst.kernelFile;
  context.sourceLines = readLines(request.kernelSourcePath);
  context.deadline = request.deadline;
  context.overMemory = encodeOptions.overMemory;
  context.races = request.options.checkRaces;
  context.divergence = request.options.checkDivergence;
  context.bounds = request.options.checkBounds;
  context.onStep = request.onStep;
  check::CheckOutcome outcome = check::checkKernel(**encoding, context);
  if (request.options.dumpSmt2Dir)
    writeFile(dumpPath(*request.options.dumpSmt2Dir, request.index, inst.entryPoint, ".smt2"),
              (*encoding)->smtLog());

  report::InstantiationResult r;
  r.findings = std::move(outcome.findings);
  r.unsizedMemory = std::move(outcome.unsized);
  if (outcome.overMemory) {
    // Findings so far stand (each has its witness); the rest was not asked.
    report::InstantiationResult stopped = outOfMemory(request, "checking");
    stopped.findings = std::move(r.findings);
    return stopped;
  }
  // A query the solver stopped at the deadline is a timeout of the whole analysis, not a hard query.
  if (outcome.timedOut || pastDeadline(request)) {
    r.verdict = report::Verdict::Unknown;
    r.errorKind = report::ErrorKind::Timeout;
    r.reason = "timed out after " + std::to_string(outcome.queries) + " queries";
  } else if (!outcome.undecided.empty()) {
    r.verdict = report::Verdict::Unknown;
    r.reason = summarise(outcome.undecided);
  } else if (!outcome.benignIfAny.empty() && request.options.strict) {
    // Under --strict a benign race is an error, and whether this one happens is not decided.
    r.verdict = report::Verdict::Unknown;
    r.reason = summarise(outcome.benignIfAny) + " (benign if it does, but --strict counts benign races)";
  } else if (!outcome.benignIfAny.empty()) {
    // docs/contract.md §4: a same-value race does not make `defects`; it is named, though it has no witness
    // to list.
    r.verdict = report::Verdict::Verified;
    r.reason = summarise(outcome.benignIfAny) + "; every writer there stores the same value, so it is benign "
                                                "if it does (--strict makes this unknown)";
  } else {
    // finalizeResult turns this into `defects` when a finding counts.
    r.verdict = report::Verdict::Verified;
  }
  return r;
}

const frontend::KernelCompiler &compiler() {
  static const frontend::KernelCompiler compiler;
  return compiler;
}

/// How `request`'s program is compiled on a device with `addressBits`-bit pointers.
format::Expected<frontend::CompileRequest> compileRequestFor(const AnalysisRequest &request,
                                                             unsigned addressBits) {
  auto level = frontend::optimisationLevelFromEnvironment();
  if (!level)
    return format::fail(level.error());
  const format::Instantiation &inst = *request.instantiation;
  frontend::CompileRequest compile;
  compile.optimisationLevel = *level;
  compile.captureDir = request.captureDir;
  compile.kernelFile = inst.kernelFile;
  compile.compilerFlags = inst.compilerFlags.value_or("");
  compile.entryPoint = inst.entryPoint;
  compile.addressBits = addressBits;
  return compile;
}

} // namespace

KernelAnalyzer::KernelAnalyzer() = default;
KernelAnalyzer::~KernelAnalyzer() = default;

report::InstantiationResult KernelAnalyzer::analyze(const AnalysisRequest &request) {
  const format::Instantiation &inst = *request.instantiation;
  auto launch = model::makeLaunchConfig(inst, request.facts, request.captureDir);
  if (!launch)
    return fail(report::Verdict::Error, report::ErrorKind::Other, "invalid launch: " + launch.error());
  if (auto problem = model::addCandidates(*launch, request.openValues))
    return fail(report::Verdict::Error, report::ErrorKind::Other, "invalid launch: " + *problem);

  auto compile = compileRequestFor(request, launch->addressBits);
  if (!compile)
    return fail(report::Verdict::Error, report::ErrorKind::Other, compile.error());
  std::optional<PreparedKernel> prepared = m_prepared ? m_prepared->take(*compile) : std::nullopt;
  if (!prepared) {
    tell(request, "while compiling " + inst.kernelFile);
    prepared = compileAndNormalize(compiler(), *compile);
  }
  if (!prepared->compileError.empty())
    return fail(report::Verdict::Error, report::ErrorKind::Compile, prepared->compileError);
  if (overMemory(request))
    return outOfMemory(request, "compiling");
  report::InstantiationResult r =
      prepared->normalizeError.empty()
          ? analyzeCompiled(request, *launch, *prepared->kernel)
          : fail(report::Verdict::Unknown, report::ErrorKind::None, prepared->normalizeError);
  r.headersRead = prepared->kernel->headersRead();
  return r;
}

void KernelAnalyzer::prepareForForks(const std::vector<AnalysisRequest> &requests, unsigned jobs) {
  std::vector<frontend::CompileRequest> compiles;
  for (const AnalysisRequest &request : requests) {
    auto launch = model::makeLaunchConfig(*request.instantiation, request.facts, request.captureDir);
    if (!launch)
      continue; // its analysis says why
    if (auto compile = compileRequestFor(request, launch->addressBits))
      compiles.push_back(std::move(*compile));
  }
  m_prepared = std::make_unique<PreparedKernels>(compiler(), compiles, jobs);
}

std::string KernelAnalyzer::identity() const {
  // The optimisation level (a testing knob) decides the results too: a -O2 run never reads a -O0 result.
  auto level = frontend::optimisationLevelFromEnvironment();
  if (!level)
    return {}; // every analysis is an error naming the variable: nothing to cache
  std::string identity = std::string("clcapture ") + CLCAPTURE_VERSION + ";LLVM " + LLVM_VERSION_STRING +
                         ";cvc5 " + CLCAPTURE_CVC5_VERSION;
  if (*level > 0)
    identity += ";-O" + std::to_string(*level);
  return identity;
}

std::unique_ptr<InstantiationAnalyzer> makeDefaultAnalyzer() {
  return std::make_unique<KernelAnalyzer>();
}

} // namespace clcapture::pipeline
