//===- VerifyOptions.cpp - clcapture-verify's command line ----------------===//

#include "clcapture/verify/VerifyOptions.h"

#include "clcapture/cli/CommandLine.h"
#include "clcapture/verify/ExitCode.h"
#include "clcapture/verify/VerdictCache.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <fstream>
#include <ostream>
#include <thread>
#include <unistd.h>

namespace clcapture::verify {

namespace {

/// The memory this process may use: the machine's, or its control group's limit when lower (cgroup v2).
std::uint64_t usableMemoryBytes() {
  long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGE_SIZE);
  std::uint64_t bytes = pages > 0 && pageSize > 0
                            ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(pageSize)
                            : 0;
  std::ifstream limit("/sys/fs/cgroup/memory.max");
  std::string text;
  if (limit >> text && !text.empty() && text.find_first_not_of("0123456789") == std::string::npos) {
    std::uint64_t group = std::stoull(text);
    if (group > 0 && (bytes == 0 || group < bytes))
      bytes = group;
  }
  return bytes;
}

} // namespace

std::uint64_t defaultMaxMemoryBytes(unsigned jobs) {
  std::uint64_t usable = usableMemoryBytes();
  if (usable == 0)
    return 0;
  return std::max<std::uint64_t>(usable / 4 * 3 / std::max(1u, jobs), std::uint64_t{512} << 20);
}

CommandLine parseCommandLine(int argc, const char *const *argv, std::ostream &out, std::ostream &err) {
  CommandLine cl;
  VerifyOptions &o = cl.options;
  unsigned cpus = std::thread::hardware_concurrency();
  o.jobs = cpus == 0 ? 1 : cpus;

  CLI::App app{
      "Checks every captured OpenCL kernel launch for data races and barrier divergence (exit 0: all\n"
      "verified, 1: command-line error, 2: a kernel did not compile, 6: defects or unknown, 7: timeout,\n"
      "10: invalid capture)",
      "clcapture-verify"};
  std::string format = "text", output, dumpIr, dumpSmt2;
  std::string captures;
  std::vector<std::string> only;
  bool quiet = false;
  app.add_option("CAPTURES.json", captures, "the capture's captures.json")->required()->type_name("");
  app.add_option("--format", format, "report format (default text)")
      ->check(CLI::IsMember({"text", "json", "sarif"}))
      ->type_name("text|json|sarif");
  app.add_option("--output", output, "write the report to FILE instead of stdout")->type_name("FILE");
  app.add_option("--only", only,
                 "analyse only these instantiations (indices in CAPTURES.json, from 0; pid=N: every launch "
                 "of process N of a capture many processes wrote)")
      ->delimiter(',')
      ->type_name("I[,J...]");
  app.add_option("-j", o.jobs, "analyse N instantiations at a time (default: the number of CPUs)")
      ->check(CLI::Range(1u, 4096u))
      ->type_name("N");
  app.add_option("--timeout", o.timeoutSeconds, "time limit per instantiation, 0 for none (default 300)")
      ->check(CLI::NonNegativeNumber)
      ->type_name("SECONDS");
  std::optional<std::uint64_t> maxMemoryMib;
  app.add_option("--max-memory", maxMemoryMib,
                 "heap one analysis may hold, in MiB, 0 for no limit (default: three quarters of the "
                 "machine's memory shared among the -j analyses); past it the launch is unknown, the budget "
                 "named")
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 40))
      ->type_name("MIB");
  app.add_option("--total-timeout", o.totalTimeoutSeconds,
                 "time limit for the whole run, 0 for none (default); launches not analysed by then are "
                 "unknown, cut short")
      ->check(CLI::NonNegativeNumber)
      ->type_name("SECONDS");
  app.add_option("--give-up-after", o.giveUpAfter,
                 "after N launches of one kernel ran into --timeout, later launches of it are unknown, cut "
                 "short, without analysis; 0 analyses every launch (default 2)")
      ->type_name("N");
  app.add_option("--group-budget", o.groupBudgetSeconds,
                 "seconds for each attempt to prove a parametric group at once, instead of a tenth of what "
                 "analysing its launches alone is estimated to cost (at most a quarter of --timeout, none "
                 "under 1 s)")
      ->type_name("SECONDS")
      ->check(CLI::PositiveNumber);
  app.add_flag("--quiet", quiet, "no progress on stderr");
  app.add_option("--dump-ir", dumpIr, "write each analysed kernel's LLVM IR into DIR")->type_name("DIR");
  app.add_option("--dump-smt2", dumpSmt2, "write each solver query (SMT-LIB 2) into DIR")->type_name("DIR");
  app.add_flag("--strict", o.strict, "benign (same-value) races are errors, not warnings");
  app.add_flag("--confirm", o.confirm,
               "replay each instantiation with a finding under Oclgrind (clcapture-replay) with the captured "
               "data, and mark each finding confirmed or not observed");
  std::vector<std::string> checks;
  app.add_option("--checks", checks,
                 "what to check (default all): races (data races), divergence (barrier "
                 "divergence), bounds (out-of-bounds and null accesses), all; `verified` means the checked "
                 "properties hold")
      ->delimiter(',')
      ->check(CLI::IsMember({"races", "divergence", "bounds", "all"}))
      ->type_name("races,divergence,bounds");
  std::vector<std::string> open;
  app.add_option("--open", open,
                 "prove each launch for every value of its scalar arguments (scalars) or buffer contents "
                 "(data) instead of the captured ones; a race's witness names the values that race")
      ->delimiter(',')
      ->check(CLI::IsMember({"scalars", "data", "sizes"}))
      ->type_name("scalars|data");
  bool noParametric = false;
  app.add_flag("--no-parametric", noParametric,
               "analyse each distinct instantiation alone, without first proving launches that differ only "
               "in scalar values, buffer bytes or buffer sizes together");
  bool inProcess = false;
  app.add_flag(
      "--in-process", inProcess,
      "run each analysis inside clcapture-verify (for a debugger) instead of in a child process that is "
      "ended at --timeout and --max-memory and whose crash is one launch's error");
  bool noCache = false;
  app.add_flag("--no-cache", noCache,
               "analyse every instantiation again instead of reusing results cached under "
               "$XDG_CACHE_HOME/clcapture/verdicts");
  app.set_version_flag("--version", std::string("clcapture-verify ") + CLCAPTURE_VERSION);

  if (auto exit = cli::parseOrExit(app, argc, argv, "clcapture-verify", out, err)) {
    cl.exitCode = *exit;
    return cl;
  }
  auto indices = cli::parseIndices(only, "clcapture-verify", "--only", err, &o.onlyProcesses);
  if (!indices) {
    cl.exitCode = kExitCommandLine;
    return cl;
  }
  o.only = std::move(*indices);
  o.captures = captures;
  o.format = format == "json"    ? ReportFormat::Json
             : format == "sarif" ? ReportFormat::Sarif
                                 : ReportFormat::Text;
  if (!output.empty())
    o.output = output;
  if (!dumpIr.empty())
    o.dumpIrDir = dumpIr;
  if (!dumpSmt2.empty())
    o.dumpSmt2Dir = dumpSmt2;
  if (!noCache)
    o.cacheDir = defaultCacheFolder();
  o.parametric = !noParametric;
  o.isolate = !inProcess;
  o.progress = !quiet;
  o.maxMemoryBytes = maxMemoryMib ? *maxMemoryMib << 20 : defaultMaxMemoryBytes(o.jobs);
  if (!checks.empty()) {
    auto asked = [&](const char *what) {
      return std::find(checks.begin(), checks.end(), what) != checks.end() ||
             std::find(checks.begin(), checks.end(), "all") != checks.end();
    };
    o.checkRaces = asked("races");
    o.checkDivergence = asked("divergence");
    o.checkBounds = asked("bounds");
  }
  for (const std::string &what : open) {
    if (what == "sizes") {
      err << "clcapture-verify: error: --open=sizes: opening the NDRange sizes is not supported yet (the "
             "analysis needs concrete global and local sizes); use --open=scalars or --open=data\n";
      cl.exitCode = kExitCommandLine;
      return cl;
    }
    (what == "scalars" ? o.openScalars : o.openData) = true;
  }
  return cl;
}

} // namespace clcapture::verify
