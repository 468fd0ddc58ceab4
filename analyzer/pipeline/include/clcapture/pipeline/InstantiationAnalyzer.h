//===- InstantiationAnalyzer.h - The analysis of one captured launch -*- C++ -*-===//
//
// The seam between clcapture-verify's driver (analyzer/cli/) and the analysis (frontend → model → encode →
// check). The driver loads and validates the capture, picks the instantiations, runs one analyze() per
// distinct instantiation on a thread pool (-j N) and writes the report; an InstantiationAnalyzer decides
// one instantiation. analyze() is called concurrently from several threads on one analyzer object, so it
// must not keep per-call state in members (or must guard it).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Instantiation.h"
#include "clcapture/format/Sidecar.h"
#include "clcapture/report/AnalysisResult.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clcapture::pipeline {

/// Options of one analysis, from the command line (docs/contract.md §4).
struct AnalysisOptions {
  /// --timeout=SECONDS per instantiation; 0 = no limit. The analysis honours it itself (solver
  /// time limits, checks of `deadline` between queries) and, when it runs out, returns verdict `unknown`
  /// with ErrorKind::Timeout and a reason such as "timed out after 300 s (3 of 7 race checks done)".
  double timeoutSeconds = 0;
  /// --dump-ir=DIR / --dump-smt2=DIR: when set (the folder exists), write the normalised LLVM IR and every
  /// solver query there, named by dumpPath() so that dumps of different instantiations never collide.
  std::optional<std::filesystem::path> dumpIrDir;
  std::optional<std::filesystem::path> dumpSmt2Dir;
  /// --strict. The driver applies it (report::finalizeResult); an analysis may ignore it.
  bool strict = false;
  /// --max-memory in bytes; 0 = no limit. Once its peak (AnalysisRequest::peakHeapBytes) is past it, the
  /// analysis stops at its next check (between phases, every 256 instructions encoded, before each query)
  /// with verdict `unknown` and the budget named. A single solver call is not interrupted (clcapture-verify
  /// runs each analysis in a process of its own and ends it: verify/AnalysisProcesses.h).
  std::uint64_t maxMemoryBytes = 0;
  /// --checks: which properties the analysis checks (by default all); `verified` means these hold.
  bool checkRaces = true, checkDivergence = true, checkBounds = true;
};

/// Everything one analysis may use. The pointers and references stay valid for the whole analyze() call.
struct AnalysisRequest {
  /// Index of the instantiation in captures.json (what --only and the report call it).
  std::size_t index = 0;
  /// The record, validated by common/'s reader (sizes, paths inside the folder, data file sizes).
  const format::Instantiation *instantiation = nullptr;
  /// Its launch facts from captures.meta.json (aliasing, sub-buffers, NULL/SVM arguments, program
  /// origin, the application's own build options, device), or nullptr when the capture has no sidecar.
  const format::LaunchFacts *facts = nullptr;
  /// Folder of the captures file: instantiation->kernelFile and every argument's `data` are relative to it.
  std::filesystem::path captureDir;
  /// captureDir / instantiation->kernelFile.
  std::filesystem::path kernelSourcePath;
  AnalysisOptions options;
  /// When the timeout runs out (steady clock); nullopt when there is no limit.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  /// The most heap this analysis has held so far (verify/AllocationAccount.h); unset when not counted.
  std::function<std::uint64_t()> peakHeapBytes;
  /// Told each step as it starts ("while compiling the kernel", "while asking the solver whether …"), so
  /// that an analysis ended from outside at its limit can be reported with the step it was at; unset: no one
  /// is told.
  std::function<void(const std::string &)> onStep;
  /// Scalars the instantiation leaves without a value that take one of these values (as captures.json
  /// writes them): the launches of a parametric group (verify/ParametricGroups.h). The analysis covers
  /// every value these bound (model::ArgumentFact::candidates), not only these; a scalar absent here is
  /// open to every value.
  std::map<std::size_t, std::vector<std::string>> openValues;
};

/// Up to this many distinct values, an open scalar is one of its captured values; beyond, it lies between
/// the least and the greatest of them (docs/semantics.md row 35).
constexpr std::size_t kOpenValueSetMax = 16;

/// DIR/<index>-<entry point><extension>, e.g. dumps/3-reduce.ll or dumps/3-reduce.race-1.smt2 (the
/// extension may carry a qualifier). Characters of the entry point outside [A-Za-z0-9_] become '_'.
std::filesystem::path dumpPath(const std::filesystem::path &dir, std::size_t index,
                               const std::string &entryPoint, const std::string &extension);

class InstantiationAnalyzer {
public:
  virtual ~InstantiationAnalyzer() = default;

  /// Decides one instantiation. Fill in `verdict` (`verified`: every pair proven, apart from any benign
  /// races listed in `findings`; `unknown` with `reason`; `error` with `reason` and `errorKind`), the
  /// `findings` (each with a concrete witness), and `errorKind`. The driver then sets index, entry point,
  /// kernel file and seconds, and applies report::finalizeResult() (severity, verdict from findings,
  /// default messages, order). Should not throw; an escaping exception becomes verdict `error`.
  virtual report::InstantiationResult analyze(const AnalysisRequest &request) = 0;

  /// Called at most once, before any analyze(), when every later analyze() runs in a process of its own
  /// forked from this one (clcapture-verify's verify/AnalysisProcesses.h), with the requests those will be
  /// (deadlines unset). Work that several of them share, such as compiling one program, may be done here
  /// once, on up to `jobs` threads that have all ended when it returns; each forked analysis then finds the
  /// result in its own copy of this object and may consume it. Default: nothing.
  virtual void prepareForForks(const std::vector<AnalysisRequest> &requests, unsigned jobs) {
    (void)requests;
    (void)jobs;
  }

  /// What decides this analysis's results besides its input (its version, the libraries it rests on), for
  /// clcapture-verify's verdict cache; empty: its results are never cached.
  virtual std::string identity() const { return {}; }
};

/// The analysis clcapture-verify runs: KernelAnalyzer (KernelAnalyzer.h).
std::unique_ptr<InstantiationAnalyzer> makeDefaultAnalyzer();

} // namespace clcapture::pipeline
