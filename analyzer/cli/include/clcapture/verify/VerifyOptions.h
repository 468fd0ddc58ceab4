//===- VerifyOptions.h - clcapture-verify's command line ---------*- C++ -*-===//
//
// docs/contract.md §4: clcapture-verify [--format=text|json|sarif] [--output=FILE] [--only=I[,J…]] [-j N]
// [--timeout=SECONDS] [--dump-ir=DIR] [--dump-smt2=DIR] [--strict] [--confirm] [--no-cache]
// [--no-parametric] [--in-process] [--open=scalars|data] [--total-timeout=SECONDS] [--give-up-after=N]
// [--quiet] CAPTURES.json;
// --version, --help.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace clcapture::verify {

enum class ReportFormat { Text, Json, Sarif };

/// GPUVerify's default per-kernel limit.
constexpr double kDefaultTimeoutSeconds = 300;
/// Two launches of one kernel that ran into the limit: the third is not likely to do better.
constexpr unsigned kDefaultGiveUpAfter = 2;
/// A group attempt with less could save at most ten times as much (RunBudget.h): not worth its compilation.
constexpr double kDefaultMinGroupBudgetSeconds = 1;
/// A progress line this often when stderr is not a terminal (a log, a CI job).
constexpr double kDefaultProgressIntervalSeconds = 15;

/// Three quarters of the machine's memory shared among `jobs` analyses, at least 512 MiB; 0 when the
/// machine's memory is not known.
std::uint64_t defaultMaxMemoryBytes(unsigned jobs);

struct VerifyOptions {
  std::filesystem::path captures;
  ReportFormat format = ReportFormat::Text;
  std::optional<std::filesystem::path> output;
  /// --only: instantiation indices in captures.json (from 0); empty = all.
  std::vector<std::size_t> only;
  /// --only pid=N: every instantiation of those processes (a capture many processes wrote).
  std::vector<std::uint64_t> onlyProcesses;
  unsigned jobs = 1;
  double timeoutSeconds = kDefaultTimeoutSeconds; ///< 0 = no limit
  /// --max-memory: the heap one analysis may hold, in bytes (0 = no limit); by default
  /// defaultMaxMemoryBytes(jobs).
  std::uint64_t maxMemoryBytes = 0;
  std::optional<std::filesystem::path> dumpIrDir;
  std::optional<std::filesystem::path> dumpSmt2Dir;
  bool strict = false;
  /// --checks=races,divergence,bounds|all (default all): what `verified` covers.
  bool checkRaces = true, checkDivergence = true, checkBounds = true;
  /// --confirm: replay each finding's instantiation under Oclgrind (FindingConfirmation.h).
  bool confirm = false;
  /// Where earlier results are kept (VerdictCache.h); nullopt with --no-cache or without a home folder.
  std::optional<std::filesystem::path> cacheDir;
  /// Launches that differ only in values are first proven together (ParametricGroups.h); off with
  /// --no-parametric (each distinct instantiation alone, as before: for comparison).
  bool parametric = true;
  /// --open=scalars|data: every launch's scalar values / buffer contents are left open (exact symbolic
  /// values): a verdict holds for every value, and a race's witness names the values that race.
  bool openScalars = false;
  bool openData = false;
  /// --total-timeout: seconds for the whole run, 0 for none (RunBudget.h).
  double totalTimeoutSeconds = 0;
  /// --give-up-after: a kernel whose launches ran into --timeout this many times gets its later launches
  /// cut short (RunBudget.h); 0 analyses every launch.
  unsigned giveUpAfter = kDefaultGiveUpAfter;
  /// A parametric group's attempt is made only with at least this budget (RunBudget.h groupAttemptBudget).
  double minGroupBudgetSeconds = kDefaultMinGroupBudgetSeconds;
  /// --group-budget: each group's attempt gets these seconds (within --timeout) instead of the estimate.
  std::optional<double> groupBudgetSeconds;
  /// Each analysis in a child process ended at its limit (AnalysisProcesses.h); off with --in-process.
  /// parseCommandLine turns it on; tests that count a fake analysis's calls leave it off.
  bool isolate = false;
  /// Progress on stderr (ProgressReporter.h): off with --quiet.
  bool progress = false;
  /// How progress is shown: rewritten in place on a terminal, else a line every progressIntervalSeconds.
  bool progressOnTerminal = false;
  double progressIntervalSeconds = kDefaultProgressIntervalSeconds;
};

/// What parsing decided: run with `options`, or stop now with `exitCode` (0 after --help/--version, 1 after
/// a command-line error, the message already written to `err`).
struct CommandLine {
  VerifyOptions options;
  std::optional<int> exitCode;
};

/// Parses argv. Help and version go to `out`, errors to `err`. -j defaults to the number of CPUs.
CommandLine parseCommandLine(int argc, const char *const *argv, std::ostream &out, std::ostream &err);

} // namespace clcapture::verify
