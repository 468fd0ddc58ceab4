//===- VerifyOptions.h - clcapture-verify's command line ---------*- C++ -*-===//
//
// SPEC §4: clcapture-verify [--format=text|json|sarif] [--output=FILE] [--only=I[,J…]] [-j N]
// [--timeout=SECONDS] [--dump-ir=DIR] [--dump-smt2=DIR] [--strict] [--confirm] [--no-cache]
// CAPTURES.json;
// --version, --help.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace clcapture::verify {

enum class ReportFormat { Text, Json, Sarif };

/// GPUVerify's default per-kernel limit.
constexpr double kDefaultTimeoutSeconds = 300;

struct VerifyOptions {
  std::filesystem::path captures;
  ReportFormat format = ReportFormat::Text;
  std::optional<std::filesystem::path> output;
  /// --only: instantiation indices in captures.json (from 0); empty = all.
  std::vector<std::size_t> only;
  unsigned jobs = 1;
  double timeoutSeconds = kDefaultTimeoutSeconds; ///< 0 = no limit
  std::optional<std::filesystem::path> dumpIrDir;
  std::optional<std::filesystem::path> dumpSmt2Dir;
  bool strict = false;
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
  /// A progress line on stderr (main() sets it when stderr is a terminal).
  bool progress = false;
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
