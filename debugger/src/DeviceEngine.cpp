//===- DeviceEngine.cpp - clcapture-debug's device engine: the three ways in ---===//
#include "DeviceEngine.h"

#include "InterpreterRecorder.h"
#include "RecordingSession.h"
#include "SessionText.h"

#include <fstream>
#include <iostream>

namespace clcapture::debug {

namespace fs = std::filesystem;

namespace {

constexpr int kExitCannotRecord = 10;

/// --save-trace: FILE, or FILE.runK for the later runs of --repeat.
bool saveRecordings(const std::vector<Recording> &recordings, const DeviceEngineOptions &options,
                    std::ostream &out) {
  if (!options.saveTrace)
    return true;
  for (const Recording &r : recordings) {
    fs::path file = *options.saveTrace;
    if (r.origin().run > 1)
      file += ".run" + std::to_string(r.origin().run);
    auto saved = r.save(file);
    if (!saved) {
      std::cerr << "clcapture-debug: error: --save-trace: " << saved.error() << '\n';
      return false;
    }
    out << "recording saved to " << file.string() << '\n';
  }
  return true;
}

/// The session's instrumentation: the one given (--instrumentation DIR), else clcapture-instrument's.
format::Expected<Instrumented> instrumentation(const CapturedLaunch &launch,
                                               const DeviceEngineOptions &options) {
  if (options.instrumentation)
    return loadInstrumentation(*options.instrumentation, launch);
  return instrumentKernel(launch, options.device.recordItems, options.device.workFolder);
}

/// The launch instrumented (or the given instrumentation) and recorded on the device, the recordings saved
/// when asked; nullopt after an error line (`exit`: the status to end with).
struct Recorded {
  Instrumented instrumented;
  std::vector<Recording> recordings;
};
std::optional<Recorded> instrumentAndRecord(const CapturedLaunch &launch, const DeviceEngineOptions &options,
                                            std::ostream &out, int &exit) {
  exit = kExitCannotRecord;
  auto instrumented = instrumentation(launch, options);
  if (!instrumented) {
    std::cerr << "clcapture-debug: error: " << instrumented.error() << '\n';
    return std::nullopt;
  }
  auto recordings = recordOnDevice(launch, options.capture, options.device, *instrumented);
  if (!recordings) {
    std::cerr << "clcapture-debug: error: " << recordings.error() << '\n';
    return std::nullopt;
  }
  exit = 1;
  if (!saveRecordings(*recordings, options, out))
    return std::nullopt;
  return Recorded{std::move(*instrumented), std::move(*recordings)};
}

} // namespace

std::string witnessPredicate(const FindingWitness &witness, const replay::LaunchPlan &plan) {
  std::string text;
  for (const WitnessAccess &a : witness.accesses) {
    std::string one;
    for (std::size_t d = 0; d < plan.globalSize.size() && d < 3; ++d)
      one += (d ? " && " : "") + std::string("get_global_id(") + std::to_string(d) +
             ") == " + std::to_string(a.globalId[d]);
    if (text.find("(" + one + ")") == std::string::npos)
      text += (text.empty() ? "(" : " || (") + one + ")";
  }
  return text.empty() ? firstGroupPredicate(plan) : text;
}

std::string recordItemsPredicate(const std::string &given, const replay::LaunchPlan &plan) {
  std::string text = trim(given);
  if (text.empty())
    return firstGroupPredicate(plan);
  if (text == "all")
    return "1";
  auto list = [](const std::string &rest) {
    std::vector<std::string> parts;
    std::string part;
    for (char c : rest + ",") {
      if (c == ',') {
        if (!trim(part).empty())
          parts.push_back(trim(part));
        part.clear();
      } else {
        part += c;
      }
    }
    return parts;
  };
  if (text.rfind("group ", 0) == 0) {
    auto parts = list(text.substr(6));
    std::string out;
    for (std::size_t d = 0; d < parts.size() && d < 3; ++d)
      out += (d ? " && " : "") + std::string("get_group_id(") + std::to_string(d) + ") == " + parts[d];
    return out.empty() ? firstGroupPredicate(plan) : out;
  }
  if (text.rfind("items ", 0) == 0) {
    auto parts = list(text.substr(6));
    std::string out;
    for (const std::string &p : parts)
      out += (out.empty() ? "" : " || ") + std::string("get_global_id(0) == ") + p;
    return out.empty() ? "0" : out;
  }
  return text;
}

int runDeviceSession(const CapturedLaunch &launch, const DeviceEngineOptions &options, CommandInput &input,
                     std::ostream &out, DapServer *server) {
  out << "recording launch " << launch.plan.index << " (" << launch.plan.entryPoint
      << ") on the device ...\n";
  int exit = 0;
  auto recorded = instrumentAndRecord(launch, options, out, exit);
  if (!recorded)
    return exit;
  DeviceSettings settings = options.device;
  settings.runs = 1;
  RecordingSession::Rerun rerun =
      [&launch, &options, settings, instrumented = recorded->instrumented](
          const std::vector<Injection> &injections) mutable -> format::Expected<Recording> {
    settings.injections = injections;
    auto again = recordOnDevice(launch, options.capture, settings, instrumented);
    if (!again)
      return format::fail(again.error());
    return std::move(again->front());
  };
  RecordingSession session(std::move(recorded->recordings.front()), input, out, rerun);
  session.setKernelFile(launch.plan.kernelFile);
  if (options.witness)
    session.followWitness(*options.witness);
  if (server)
    server->attach(session);
  return session.run();
}

int runSavedRecording(const fs::path &file, CommandInput &input, std::ostream &out, DapServer *server) {
  auto recording = Recording::load(file);
  if (!recording) {
    std::cerr << "clcapture-debug: error: " << recording.error() << '\n';
    return kExitCannotRecord;
  }
  RecordingSession session(std::move(*recording), input, out, nullptr);
  if (server)
    server->attach(session);
  return session.run();
}

/// --diff --recording FILE: the recording's own instrumented source, run in the interpreter here.
format::Expected<std::vector<Recording>> savedDeviceRecording(const DeviceEngineOptions &options,
                                                              Instrumented &instrumented) {
  auto recording = Recording::load(*options.recording);
  if (!recording)
    return format::fail(recording.error());
  if (recording->origin().instrumentedSource.empty())
    return format::fail(options.recording->string() +
                        " does not hold the instrumented source it was made from");
  std::error_code ec;
  fs::create_directories(options.device.workFolder, ec);
  instrumented.layout = recording->layout();
  instrumented.source = options.device.workFolder / "instrumented.cl";
  std::ofstream(instrumented.source, std::ios::binary) << recording->origin().instrumentedSource;
  std::vector<Recording> one;
  one.push_back(std::move(*recording));
  return one;
}

/// The interpreter's recording (and, with --repeat, its reversed schedule's) against each device recording.
int compareWithInterpreter(const CapturedLaunch &launch, const DeviceEngineOptions &options,
                           const Instrumented &instrumented, const std::vector<Recording> &recordings,
                           std::ostream &out) {
  auto reference = recordInInterpreter(launch, instrumented, options.device.traceBytes);
  if (!reference) {
    std::cerr << "clcapture-debug: error: the interpreter's recording: " << reference.error() << '\n';
    return kExitCannotRecord;
  }
  out << "interpreter: " << reference->summary() << '\n';
  bool diverged = false;
  if (options.device.runs > 1) {
    // Another schedule of the same launch: a divergence there is an outcome that depends on the order.
    auto reversed = recordInInterpreter(launch, instrumented, options.device.traceBytes, Schedule::Reversed);
    if (!reversed) {
      std::cerr << "clcapture-debug: error: the interpreter's reversed schedule: " << reversed.error()
                << '\n';
      return kExitCannotRecord;
    }
    std::string name = "interpreter, reversed schedule";
    if (auto d = firstDivergence(*reference, *reversed, options.diff)) {
      diverged = true;
      out << name << ": the outcome depends on the order the work-items run (a race): "
          << describeDivergence(*d, *reference, *reversed, "interpreter", name);
    } else {
      out << name << ": no divergence\n";
    }
  }
  for (const Recording &device : recordings) {
    std::string name = recordings.size() > 1 ? "device run " + std::to_string(device.origin().run) : "device";
    out << name << " (" << device.origin().device << "): " << device.summary() << '\n';
    if (!device.origin().outputsSame)
      out << "  note: its outputs differ from the plain launch's: " << device.origin().outputsDifference
          << '\n';
    auto d = firstDivergence(*reference, device, options.diff);
    if (!d) {
      out << name << ": no divergence: every recorded statement of every recorded work-item agrees"
          << (options.diff.ulps ? " (floats within " + std::to_string(options.diff.ulps) + " ULP)" : "")
          << '\n';
      continue;
    }
    diverged = true;
    out << name << ": " << describeDivergence(*d, *reference, device, "interpreter", name);
  }
  return diverged ? kExitDiverged : 0;
}

int runDiff(const CapturedLaunch &launch, const DeviceEngineOptions &options, std::ostream &out) {
  if (options.recording) {
    Instrumented instrumented;
    auto saved = savedDeviceRecording(options, instrumented);
    if (!saved) {
      std::cerr << "clcapture-debug: error: " << saved.error() << '\n';
      return kExitCannotRecord;
    }
    if (saved->front().layout().kernel != launch.plan.entryPoint) {
      std::cerr << "clcapture-debug: error: the recording is of kernel " << saved->front().layout().kernel
                << ", the launch runs " << launch.plan.entryPoint << '\n';
      return kExitCannotRecord;
    }
    return compareWithInterpreter(launch, options, instrumented, *saved, out);
  }
  int exit = 0;
  auto recorded = instrumentAndRecord(launch, options, out, exit);
  if (!recorded)
    return exit;
  return compareWithInterpreter(launch, options, recorded->instrumented, recorded->recordings, out);
}

} // namespace clcapture::debug
