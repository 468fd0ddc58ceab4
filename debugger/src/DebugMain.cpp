//===- DebugMain.cpp - clcapture-debug: step through a captured launch --------===//
//
// clcapture-debug CAPTURE [--launch N] [-x FILE] [--batch]
// CAPTURE is a capture folder, its captures.json or a `clcapture pack` archive; N the instantiation index
// (default: the capture's first). Exit status: the session's (0; 1 when a scripted command failed), 1 for a
// bad command line, 10 for a capture that cannot be read or a launch that cannot be debugged.
//
//===----------------------------------------------------------------------===//
#include "CapturedLaunch.h"
#include "CommandInput.h"
#include "DapServer.h"
#include "DebugSession.h"
#include "DeviceEngine.h"
#include "FindingWitness.h"
#include "InterpreterLaunch.h"
#include "clcapture/cli/CommandLine.h"

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

namespace {

constexpr int kExitCaptureInvalid = 10;

/// A folder for the instrumented source and the traces, removed at the end (unless --output names one).
class WorkFolder {
public:
  explicit WorkFolder(const std::string &output) {
    if (!output.empty()) {
      m_path = std::filesystem::path(output) / "device";
      return;
    }
    const char *tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/clcapture-debug-XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (::mkdtemp(buffer.data())) {
      m_path = buffer.data();
      m_remove = true;
    }
  }
  ~WorkFolder() {
    std::error_code ec;
    if (m_remove)
      std::filesystem::remove_all(m_path, ec);
  }
  WorkFolder(const WorkFolder &) = delete;
  WorkFolder &operator=(const WorkFolder &) = delete;
  const std::filesystem::path &path() const { return m_path; }

private:
  std::filesystem::path m_path;
  bool m_remove = false;
};

/// The device engine's options (docs/device-debugging.md) as the command line gives them.
struct DeviceCommandLine {
  std::string engine = "interpreter", recordingFile, instrumentationFolder, recordItems, saveTrace, icd,
              deviceOptions, ignore;
  bool diff = false;
  clcapture::debug::DeviceEngineOptions device;
};

void addDeviceEngineOptions(CLI::App &app, DeviceCommandLine &d) {
  app.add_option("--engine", d.engine,
                 "interpreter (Oclgrind, the default) or device: record the launch on the OpenCL device "
                 "through an instrumented copy of the kernel and step through the recording")
      ->check(CLI::IsMember({"interpreter", "device"}));
  app.add_flag(
      "--diff", d.diff,
      "record the launch on the device and in the interpreter; report the first statement, work-item "
      "and variable where they part (exit 6), or that none does (exit 0)");
  app.add_option("--recording", d.recordingFile,
                 "step through a recording saved with --save-trace (no device)")
      ->type_name("FILE");
  app.add_option(
         "--instrumentation", d.instrumentationFolder,
         "the device engine: use this clcapture-instrument output (DIR/instrumented.cl, DIR/layout.json) "
         "instead of instrumenting here (a machine without Clang)")
      ->type_name("DIR");
  app.add_option("--save-trace", d.saveTrace,
                 "write the device's recording to FILE (with --repeat: FILE.runK too)")
      ->type_name("FILE");
  app.add_option("--record-items", d.recordItems,
                 "which work-items record: all, group X[,Y,Z], items G[,G...] (global ids), or an OpenCL C "
                 "condition over the work-item functions (default: the first work-group)")
      ->type_name("WHICH");
  app.add_option("--trace-bytes", d.device.device.traceBytes, "the device's trace buffer (default 64M)")
      ->transform(CLI::AsSizeValue(false))
      ->type_name("N[K|M|G]");
  app.add_option("--icd", d.icd, "the device: this ICD library (or .icd file), as clcapture-replay --icd")
      ->type_name("FILE");
  app.add_option("--platform", d.device.device.platform, "the device: platform index (default 0)");
  app.add_option("--device", d.device.device.device, "the device: device index in the platform (default 0)");
  app.add_option("--device-build-options", d.deviceOptions,
                 "append these build options on the device only (e.g. a macro that simulates a miscompile)")
      ->type_name("TEXT");
  app.add_option("--repeat", d.device.device.runs, "record the device K times (--diff compares each run)")
      ->check(CLI::Range(1u, 100u));
  app.add_option("--ulps", d.device.diff.ulps,
                 "--diff: floats within N units in the last place are the same");
  app.add_option("--ignore", d.ignore, "--diff: never compare these names (comma-separated)")
      ->type_name("NAMES");
}

/// The device engine's options completed from the launch: the recording predicate (a finding's witness),
/// the device, the files. False after an error line.
bool completeDeviceOptions(DeviceCommandLine &d, const clcapture::debug::CapturedLaunch &launch,
                           const std::string &capture, std::optional<std::size_t> finding,
                           const std::filesystem::path &workFolder) {
  using namespace clcapture::debug;
  DeviceEngineOptions &device = d.device;
  device.capture = capture;
  device.device.workFolder = workFolder;
  device.device.recordItems = recordItemsPredicate(d.recordItems, launch.plan);
  if (finding) { // the witness's two work-items record, unless --record-items says otherwise
    auto found = findingWitness(capture, launch.plan.index, *finding);
    if (!found) {
      std::cerr << "clcapture-debug: error: " << found.error() << '\n';
      return false;
    }
    if (d.recordItems.empty())
      device.device.recordItems = witnessPredicate(*found, launch.plan);
    device.witness = std::move(*found);
  }
  device.device.addBuildOptions = d.deviceOptions;
  if (!d.icd.empty())
    device.device.icd = d.icd;
  if (!d.saveTrace.empty())
    device.saveTrace = d.saveTrace;
  if (!d.instrumentationFolder.empty())
    device.instrumentation = d.instrumentationFolder;
  if (!d.recordingFile.empty()) { // --diff --recording FILE (in the capture's archive too)
    std::filesystem::path file = d.recordingFile;
    std::error_code ec;
    if (!std::filesystem::exists(file, ec) && std::filesystem::exists(launch.input.folder / file, ec))
      file = launch.input.folder / file;
    device.recording = file;
  }
  std::istringstream names(d.ignore);
  for (std::string name; std::getline(names, name, ',');)
    if (!name.empty())
      device.diff.ignored.push_back(name);
  return true;
}

} // namespace

int main(int argc, char **argv) {
  using namespace clcapture::debug;
  CLI::App app{"clcapture-debug: step through a captured kernel launch in Oclgrind's interpreter, with gdb's "
               "commands",
               "clcapture-debug"};
  std::string capture;
  std::optional<std::size_t> launch;
  std::string script;
  bool batch = false;
  std::string output;
  std::optional<std::size_t> finding;
  bool commandTimes = false;
  bool dap = false;
  app.add_option("CAPTURE", capture, "a capture folder, its captures.json, or a `clcapture pack` archive");
  DeviceCommandLine deviceLine;
  addDeviceEngineOptions(app, deviceLine);
  app.add_option("--launch", launch, "the instantiation to debug (its index; default: the capture's first)");
  app.add_option("-x,--command", script, "run the commands of FILE first");
  app.add_flag("--batch", batch,
               "end after the commands of -x FILE (or of standard input), as gdb -batch does");
  app.add_option(
         "--output", output,
         "after the launch, write each buffer argument to DIR/<index>/arg<N>.bin (as clcapture-replay does)")
      ->type_name("DIR");
  app.add_option("--finding", finding,
                 "follow finding K of clcapture-verify's report of the launch (1 = its first): focus its "
                 "work-item, stop at each of its accesses");
  app.add_flag("--command-times", commandTimes,
               "after each command, how long it took (a step: until it stopped), for benchmarks");
  app.add_flag("--dap", dap, "speak the Debug Adapter Protocol on standard input and output (VS Code, …)");
  app.set_version_flag("--version", std::string("clcapture-debug ") + CLCAPTURE_VERSION);
  if (auto exit = clcapture::cli::parseOrExit(app, argc, argv, "clcapture-debug", std::cout, std::cerr))
    return *exit;

  std::unique_ptr<CommandInput> input;
  std::ifstream scriptFile;
  std::ostringstream dapOutput; // what the session prints, sent to the DAP client as output events
  DapServer *server = nullptr;
  // The session's commands: the DAP client, a script (then the terminal, unless --batch), or standard input.
  auto makeInput = [&]() -> bool {
    if (dap) {
      auto owned = std::make_unique<DapServer>(std::cin, std::cout, dapOutput);
      server = owned.get();
      input = std::move(owned);
    } else if (!script.empty()) {
      scriptFile.open(script);
      if (!scriptFile) {
        std::cerr << "clcapture-debug: error: -x: cannot read " << script << '\n';
        return false;
      }
      input = scriptInput(scriptFile, std::cout);
      if (!batch)
        input = chainedInput(std::move(input),
                             isatty(STDIN_FILENO) ? terminalInput() : scriptInput(std::cin, std::cout));
    } else {
      input = batch || !isatty(STDIN_FILENO) ? scriptInput(std::cin, std::cout) : terminalInput();
    }
    return true;
  };
  std::ostream &sessionOut = dap ? static_cast<std::ostream &>(dapOutput) : std::cout;

  bool deviceEngine = deviceLine.engine == "device" || deviceLine.diff || !deviceLine.recordingFile.empty();
  if (deviceEngine && finding && (deviceLine.diff || !deviceLine.recordingFile.empty())) {
    std::cerr << "clcapture-debug: error: --finding records the witness's work-items on the device "
                 "(--engine=device); not with --diff or --recording\n";
    return 1;
  }
  if (!deviceLine.recordingFile.empty() && !deviceLine.diff) {
    // A recording inside a capture (`clcapture pack --recording` puts it under recordings/ of the archive).
    std::filesystem::path file = deviceLine.recordingFile;
    std::optional<clcapture::archive::LoadedCapture> holder;
    std::error_code ec;
    if (!capture.empty() && !std::filesystem::exists(file, ec)) {
      auto loaded = clcapture::archive::loadCaptureInput(capture, clcapture::format::ReadOptions{});
      if (loaded && std::filesystem::exists(loaded->folder / file, ec)) {
        file = loaded->folder / file;
        holder = std::move(*loaded);
      }
    }
    return makeInput() ? runSavedRecording(file, *input, sessionOut, server) : 1;
  }
  if (capture.empty()) {
    std::cerr << "clcapture-debug: error: CAPTURE is required (or --recording FILE)\n";
    return 1;
  }
  auto opened = openCapturedLaunch(capture, launch);
  if (!opened) {
    std::cerr << "clcapture-debug: error: " << opened.error() << '\n';
    return kExitCaptureInvalid;
  }
  if (deviceEngine) {
    WorkFolder work(output);
    if (!completeDeviceOptions(deviceLine, *opened, capture, finding, work.path()))
      return kExitCaptureInvalid;
    DeviceEngineOptions &device = deviceLine.device;
    if (deviceLine.diff)
      return runDiff(*opened, device, std::cout);
    return makeInput() ? runDeviceSession(*opened, device, *input, sessionOut, server) : 1;
  }
  auto interpreter = InterpreterLaunch::create(*opened);
  if (!interpreter) {
    std::cerr << "clcapture-debug: error: " << interpreter.error() << '\n';
    return kExitCaptureInvalid;
  }
  if (!makeInput())
    return 1;
  std::optional<FindingWitness> witness;
  if (finding) {
    auto found = findingWitness(capture, opened->plan.index, *finding);
    if (!found) {
      std::cerr << "clcapture-debug: error: " << found.error() << '\n';
      return kExitCaptureInvalid;
    }
    witness = std::move(*found);
  }
  DebugSession session(*opened, std::move(*interpreter), *input, sessionOut);
  if (server)
    server->attach(session);
  if (witness)
    session.followFinding(std::move(*witness));
  session.timeCommands(commandTimes);
  if (!output.empty())
    session.writeOutputsTo(output);
  return session.run();
}
