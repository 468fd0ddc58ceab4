//===- LauncherMain.cpp - clcapture: run a command with the capture in front of its driver -===//
//
// SPEC §1: clcapture [--dir DIR] [--layer] [--kernels REGEX] [--launches A-B] [--data all|none|BYTES] --
// COMMAND. As a shim ICD (the default) one recipe works for both loaders (opencl-notes.md): a private folder
// holding only clcapture.icd for ocl-icd's OCL_ICD_VENDORS, and OCL_ICD_FILENAMES for the Khronos loader;
// the real driver is whatever --icd or CLCAPTURE_ICD names, else what the user's own OCL_ICD_VENDORS named,
// else the system vendors folder. With --layer the loader keeps finding the drivers itself and loads the
// library through OPENCL_LAYERS (added to the user's own layers); --icd then becomes OCL_ICD_VENDORS.
// Exits with COMMAND's status (128 + signal when it was killed), and says where the capture went.
//
//===----------------------------------------------------------------------===//

#include "CaptureControls.h"
#include "clcapture/format/CaptureReader.h"

#include <CLI/CLI.hpp>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

/// libclcapture.so beside the launcher's installation: PREFIX/bin/clcapture → PREFIX/lib/libclcapture.so.
fs::path findLibrary() {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  for (const char *relative : {"../lib/libclcapture.so", "lib/libclcapture.so"}) {
    fs::path candidate = self.parent_path() / relative;
    if (fs::exists(candidate, ec))
      return fs::canonical(candidate, ec);
  }
  return {};
}

void report(pid_t child, const std::string &dirOption, bool layer) {
  std::vector<fs::path> folders;
  std::error_code ec;
  if (!dirOption.empty()) {
    folders.push_back(dirOption);
  } else {
    // The layer names its folder clcapture-<exe>-<pid>; the launcher knows the pid, not what exe resolves to.
    std::string suffix = "-" + std::to_string(child);
    for (const auto &entry : fs::directory_iterator(".", ec)) {
      std::string name = entry.path().filename().string();
      if (name.rfind("clcapture-", 0) == 0 && name.size() > suffix.size() &&
          name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
        folders.push_back(entry.path());
    }
  }
  bool any = false;
  for (const auto &folder : folders) {
    if (!fs::exists(folder / "captures.json", ec))
      continue;
    any = true;
    auto capture = clcapture::format::loadCapture(folder / "captures.json");
    std::fprintf(stderr, "clcapture: %zu instantiation%s captured in %s\n",
                 capture.captures.instantiations.size(),
                 capture.captures.instantiations.size() == 1 ? "" : "s", folder.string().c_str());
  }
  if (!any)
    std::fprintf(stderr, "clcapture: no kernel launch was captured (run with --log info to see what the layer "
                         "did)%s\n",
                 layer ? "; with --layer the application's ICD loader must support OPENCL_LAYERS (CUDA's "
                         "bundled Khronos loader does not): try without --layer"
                       : "");
}

} // namespace

int main(int argc, char **argv) {
  CLI::App app{"Runs COMMAND with clcapture in front of its OpenCL driver and records every kernel launch.\n"
               "usage: clcapture [OPTIONS] -- COMMAND [ARGS...]"};
  app.prefix_command();
  std::string dir, kernels, launches, data, maxBytes, icd, logLevel, callSites;
  bool layer = false;
  app.add_option("--dir", dir, "capture folder (default ./clcapture-<exe>-<pid>)");
  app.add_flag("--layer", layer, "load as an OPENCL_LAYERS layer instead of a shim ICD");
  app.add_option("--kernels", kernels, "capture only launches of kernels whose name matches this regex");
  app.add_option("--launches", launches, "capture only these launch numbers: A-B, A- or N (from 0)");
  app.add_option("--data", data, "buffer contents: all, none, or a per-buffer byte cap (e.g. 1M)");
  app.add_option("--max-bytes", maxBytes, "total buffer bytes to capture (e.g. 1G); past it, metadata only");
  app.add_option("--call-sites", callSites, "record the application's call sites (host_api_calls): on or off")
      ->check(CLI::IsMember({"on", "off"}));
  app.add_option("--icd", icd, "the real driver: a library, an .icd file or a folder of them");
  app.add_option("--log", logLevel, "layer log level: off, error, warning, info, debug")
      ->check(CLI::IsMember({"off", "error", "warning", "info", "debug"}));
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
      callSites.empty() ? nullptr : callSites.c_str());
  if (!controls.error.empty()) {
    std::fprintf(stderr, "clcapture: %s\n", controls.error.c_str());
    return 1;
  }
  fs::path library = findLibrary();
  if (library.empty()) {
    std::fprintf(stderr, "clcapture: cannot find libclcapture.so next to the launcher (../lib/)\n");
    return 1;
  }

  char vendors[] = "/tmp/clcapture-icd-XXXXXX";
  if (layer) {
    vendors[0] = '\0'; // nothing to clean up
    const char *others = std::getenv("OPENCL_LAYERS");
    std::string layers = others && *others ? std::string(others) + ":" + library.string() : library.string();
    ::setenv("OPENCL_LAYERS", layers.c_str(), 1);
    if (icd.empty() && std::getenv("CLCAPTURE_ICD"))
      icd = std::getenv("CLCAPTURE_ICD");
    if (!icd.empty())
      ::setenv("OCL_ICD_VENDORS", icd.c_str(), 1);
  } else {
    if (!::mkdtemp(vendors)) {
      std::fprintf(stderr, "clcapture: cannot create a temporary folder: %s\n", std::strerror(errno));
      return 1;
    }
    std::ofstream(std::string(vendors) + "/clcapture.icd") << library.string() << "\n";
    // The user's own driver choice becomes the real driver behind the capture.
    if (!icd.empty())
      ::setenv("CLCAPTURE_ICD", icd.c_str(), 1);
    else if (!std::getenv("CLCAPTURE_ICD") && std::getenv("OCL_ICD_VENDORS"))
      ::setenv("CLCAPTURE_ICD", std::getenv("OCL_ICD_VENDORS"), 1);
    ::setenv("OCL_ICD_VENDORS", vendors, 1);
    ::setenv("OCL_ICD_FILENAMES", library.c_str(), 1);
  }
  auto pass = [](const char *name, const std::string &value) {
    if (!value.empty())
      ::setenv(name, value.c_str(), 1);
  };
  pass("CLCAPTURE_DIR", dir);
  pass("CLCAPTURE_KERNELS", kernels);
  pass("CLCAPTURE_LAUNCHES", launches);
  pass("CLCAPTURE_DATA", data);
  pass("CLCAPTURE_MAX_BYTES", maxBytes);
  pass("CLCAPTURE_CALL_SITES", callSites);
  pass("CLCAPTURE_LOG", logLevel);

  pid_t child = ::fork();
  if (child < 0) {
    std::fprintf(stderr, "clcapture: fork failed: %s\n", std::strerror(errno));
    return 1;
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
  // Like system(): the terminal's interrupt goes to the command; the launcher waits for it.
  std::signal(SIGINT, SIG_IGN);
  std::signal(SIGQUIT, SIG_IGN);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  std::error_code ec;
  if (vendors[0])
    fs::remove_all(vendors, ec);
  report(child, dir, layer);
  if (WIFEXITED(status))
    return WEXITSTATUS(status);
  if (WIFSIGNALED(status))
    return 128 + WTERMSIG(status);
  return 1;
}
