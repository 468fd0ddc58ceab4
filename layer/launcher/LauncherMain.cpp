//===- LauncherMain.cpp - clcapture: run a command with the capture in front of its driver -===//
//
// docs/contract.md §1: clcapture [--dir DIR] [--layer] [--kernels REGEX] [--launches A-B] [--data
// all|none|BYTES] -- COMMAND. As a shim ICD (the default) one recipe works for both loaders
// (docs/drivers-and-loaders.md): a private folder holding only clcapture.icd for ocl-icd's OCL_ICD_VENDORS,
// and OCL_ICD_FILENAMES for the Khronos loader; the real driver is whatever --icd or CLCAPTURE_ICD names,
// else what the user's own OCL_ICD_VENDORS named, else the system vendors folder. With --layer the loader
// keeps finding the drivers itself and loads the library through OPENCL_LAYERS (added to the user's own
// layers); --icd then becomes OCL_ICD_VENDORS (LaunchEnvironment.h). Before running COMMAND the launcher
// loads the library and the drivers as the loader will (Preflight.h) and stops when the loader would skip
// them silently. Exits with COMMAND's status (128 + signal when it was killed), and says where the capture
// went and what it lacks (CaptureSummary.h). `clcapture doctor` (Doctor.h) is a subcommand only as the first
// argument: `clcapture -- doctor` runs a command named doctor. So are `pack`, `export` and `import`, which
// run clcapture-pack / clcapture-export / clcapture-import (bugreport/), and `unpack` (Unpack.h), which turns
// packed blobs back into loose files.
//
//===----------------------------------------------------------------------===//

#include "CaptureSummary.h"
#include "Doctor.h"
#include "LaunchEnvironment.h"
#include "Preflight.h"
#include "Unpack.h"
#include "clcapture/format/CaptureParts.h"
#include "process/CaptureControls.h"

#include <CLI/CLI.hpp>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace launcher = clcapture::launcher;

namespace {

/// `clcapture pack|export|import ARGS`: the bug-report tools are programs of their own (`clcapture-pack`, …,
/// bugreport/), which need libraries the launcher must not (libarchive, the OpenCL loader): run the one
/// installed beside this launcher, else the one on PATH, with the same arguments. Returns only on failure.
int runSubcommand(const char *name, int argc, char **argv) {
  std::string program = std::string("clcapture-") + name;
  std::vector<char *> args;
  args.push_back(program.data());
  for (int i = 1; i < argc; ++i)
    args.push_back(argv[i]);
  args.push_back(nullptr);
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    std::string beside(self, static_cast<std::size_t>(n));
    beside = beside.substr(0, beside.rfind('/') + 1) + program;
    execv(beside.c_str(), args.data());
  }
  execvp(program.c_str(), args.data());
  std::fprintf(stderr, "clcapture: cannot run %s (not beside this launcher, not on PATH): %s\n",
               program.c_str(), std::strerror(errno));
  return 1;
}

/// The folder this run captures into: --dir, else CLCAPTURE_DIR as the user set it, else
/// ./clcapture-<command>-<pid>. One that holds another run's capture is left alone: DIR.<pid> instead.
std::filesystem::path captureFolderFor(const std::string &dirOption, const std::string &command,
                                       const std::string &run) {
  const char *fromEnv = std::getenv("CLCAPTURE_DIR");
  std::string dir = !dirOption.empty() ? dirOption
                    : fromEnv && *fromEnv
                        ? std::string(fromEnv)
                        : "clcapture-" + std::filesystem::path(command).filename().string() + "-" +
                              std::to_string(::getpid());
  if (!clcapture::format::holdsOtherRun(dir, run))
    return dir;
  std::string own = dir + "." + std::to_string(::getpid());
  std::fprintf(stderr, "clcapture: %s holds an earlier capture; this run's goes to %s\n", dir.c_str(),
               own.c_str());
  return own;
}

/// Runs COMMAND as the launcher's child and waits for it. Like system(): the terminal's interrupt goes to the
/// command. Returns the child's pid with its wait status in `status`, or -1 when fork failed (reported).
pid_t runChild(std::vector<std::string> &command, int &status) {
  pid_t child = ::fork();
  if (child < 0) {
    std::fprintf(stderr, "clcapture: fork failed: %s\n", std::strerror(errno));
    return -1;
  }
  if (child == 0) {
    std::vector<char *> args;
    for (auto &a : command)
      args.push_back(a.data());
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    std::fprintf(stderr, "clcapture: cannot run %s: %s\n", args[0], std::strerror(errno));
    ::_exit(127);
  }
  std::signal(SIGINT, SIG_IGN);
  std::signal(SIGQUIT, SIG_IGN);
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  return child;
}

} // namespace

int main(int argc, char **argv) {
  if (argc > 1 && std::strcmp(argv[1], "doctor") == 0)
    return launcher::runDoctor(argc - 1, argv + 1);
  if (argc > 1 && std::strcmp(argv[1], "unpack") == 0)
    return launcher::runUnpack(argc - 1, argv + 1);
  for (const char *sub : {"pack", "export", "import"})
    if (argc > 1 && std::strcmp(argv[1], sub) == 0)
      return runSubcommand(sub, argc - 1, argv + 1);
  CLI::App app{
      "Runs COMMAND with clcapture in front of its OpenCL driver and records every kernel launch.\n"
      "usage: clcapture [OPTIONS] -- COMMAND [ARGS...]\n"
      "       clcapture doctor [--icd PATH] [--layer]   (would capture work here? see doctor --help)\n"
      "       clcapture pack DIR [-o FILE] ...           (one archive for a bug report; clcapture-pack)\n"
      "       clcapture export|import ...                (Oclgrind .sim, PySchedCL specs; clcapture-export)\n"
      "       clcapture unpack DIR                       (packed blobs as loose files, for GPUVerify)"};
  app.prefix_command();
  std::string dir, kernels, launches, data, dataPerShape, maxBytes, minFree, icd, logLevel, callSites, store,
      pack;
  bool layer = false, noPreflight = false, dataAfter = false;
  app.add_option("--dir", dir, "capture folder (default ./clcapture-<exe>-<pid>)");
  app.add_flag("--layer", layer, "load as an OPENCL_LAYERS layer instead of a shim ICD");
  app.add_option("--kernels", kernels, "capture only launches of kernels whose name matches this regex");
  app.add_option("--launches", launches, "capture only these launch numbers: A-B, A- or N (from 0)");
  app.add_option("--data", data, "buffer contents: all, none, or a per-buffer byte cap (e.g. 1M)");
  app.add_option(
      "--data-per-shape", dataPerShape,
      "buffer bytes for the first N launches of each launch shape (program, kernel, NDRange, scalar "
      "values) only; later ones keep their metadata (default 64, or all)");
  app.add_flag("--data-after", dataAfter,
               "also record the bytes of the buffers each launch may write, after it (for clcapture-replay "
               "--compare)");
  app.add_option(
      "--max-bytes", maxBytes,
      "total buffer bytes to capture (default 4G; e.g. 16G, or unlimited); past it, metadata only");
  app.add_option(
      "--min-free", minFree,
      "bytes to leave free on the capture's file system (default: 10% of it or 2G, the larger; off)");
  app.add_option("--call-sites", callSites, "record the application's call sites (host_api_calls): on or off")
      ->check(CLI::IsMember({"on", "off"}));
  app.add_option("--pack", pack,
                 "small buffer contents appended to pack files (on, the default) or one data/<hash>.bin file "
                 "each (off: what GPUVerify's loader reads; clcapture unpack DIR converts later)")
      ->check(CLI::IsMember({"on", "off"}));
  app.add_option("--store", store,
                 "program store (sources of the binaries the application caches): a folder, or off "
                 "(default $XDG_CACHE_HOME/clcapture/programs)");
  app.add_option("--icd", icd, "the real driver: a library, an .icd file or a folder of them");
  app.add_option("--log", logLevel, "layer log level: off, error, warning, info, debug")
      ->check(CLI::IsMember({"off", "error", "warning", "info", "debug"}));
  app.add_flag("--no-preflight", noPreflight,
               "run COMMAND without first loading the capture library and the drivers to check them");
  CLI11_PARSE(app, argc, argv);

  std::vector<std::string> command = app.remaining();
  if (!command.empty() && command.front() == "--")
    command.erase(command.begin());
  if (command.empty()) {
    std::fprintf(stderr, "clcapture: no command to run\nusage: clcapture [OPTIONS] -- COMMAND [ARGS...]\n");
    return 1;
  }
  auto controls = clcapture::layer::parseControls(
      kernels.empty() ? nullptr : kernels.c_str(), launches.empty() ? nullptr : launches.c_str(),
      data.empty() ? nullptr : data.c_str(), maxBytes.empty() ? nullptr : maxBytes.c_str(),
      callSites.empty() ? nullptr : callSites.c_str(), nullptr, minFree.empty() ? nullptr : minFree.c_str(),
      dataAfter ? "on" : nullptr, dataPerShape.empty() ? nullptr : dataPerShape.c_str(),
      pack.empty() ? nullptr : pack.c_str());
  if (!controls.error.empty()) {
    std::fprintf(stderr, "clcapture: %s\n", controls.error.c_str());
    return 1;
  }
  std::filesystem::path library = launcher::findLibrary();
  if (library.empty()) {
    std::fprintf(stderr, "clcapture: cannot find libclcapture.so next to the launcher (../lib/); "
                         "CLCAPTURE_LIBRARY names it when it lives elsewhere\n");
    return 1;
  }
  // The private vendors folder of the shim recipe goes away when main returns.
  launcher::LaunchEnvironment env(library, layer, icd);
  if (!env.error().empty()) {
    std::fprintf(stderr, "clcapture: %s\n", env.error().c_str());
    return 1;
  }
  auto pass = [&env](const char *name, const std::string &value) {
    if (!value.empty())
      env.set(name, value);
  };
  // One capture for the whole process tree (docs/contract.md §3): every process that loads the library under
  // this run writes its own part of this one folder, told apart from other runs by CLCAPTURE_RUN.
  std::string run = std::to_string(::getpid()) + "-" +
                    std::to_string(std::chrono::system_clock::now().time_since_epoch().count());
  std::filesystem::path folder = captureFolderFor(dir, command.front(), run);
  env.set("CLCAPTURE_DIR", folder.string());
  env.set("CLCAPTURE_RUN", run);
  pass("CLCAPTURE_KERNELS", kernels);
  pass("CLCAPTURE_LAUNCHES", launches);
  pass("CLCAPTURE_DATA", data);
  pass("CLCAPTURE_DATA_PER_SHAPE", dataPerShape);
  pass("CLCAPTURE_MAX_BYTES", maxBytes);
  pass("CLCAPTURE_MIN_FREE", minFree);
  pass("CLCAPTURE_CALL_SITES", callSites);
  pass("CLCAPTURE_PACK", pack);
  if (dataAfter)
    env.set("CLCAPTURE_DATA_AFTER", "on");
  pass("CLCAPTURE_STORE", store);
  pass("CLCAPTURE_LOG", logLevel);

  env.apply();

  // An ICD loader skips a library that does not load without a word: find out before running anything.
  std::optional<launcher::PreflightReport> preflight;
  if (!noPreflight) {
    preflight = launcher::runPreflight(env, /*countPlatforms=*/false);
    // As a shim the library logs the drivers it cannot use itself, unless its log level hides warnings.
    const char *level = std::getenv("CLCAPTURE_LOG");
    bool layerWarns = !layer && !(level && (!std::strcmp(level, "off") || !std::strcmp(level, "error")));
    if (!launcher::reportPreflight(*preflight, !layerWarns, stderr))
      return 1;
  }

  // The layer appends what it saw in each process (loaded or not, platforms, filtered launches) to this file
  // at exit (RunStatus.h); the summary reads it.
  char statusPath[] = "/tmp/clcapture-status-XXXXXX";
  if (int fd = ::mkstemp(statusPath); fd >= 0) {
    ::close(fd);
    ::setenv("CLCAPTURE_STATUS_FILE", statusPath, 1);
  } else {
    statusPath[0] = '\0';
  }

  int status = 0;
  pid_t child = runChild(command, status);
  if (child < 0)
    return 1;
  launcher::RunStatusTotals runStatus = launcher::readRunStatus(statusPath);
  if (statusPath[0])
    ::unlink(statusPath);
  launcher::reportCaptures(folder, layer, preflight ? &*preflight : nullptr, &runStatus, stderr);
  if (WIFEXITED(status))
    return WEXITSTATUS(status);
  if (WIFSIGNALED(status))
    return 128 + WTERMSIG(status);
  return 1;
}
