//===- DeviceRecorder.cpp - A captured launch recorded on the real device -----===//
#include "DeviceRecorder.h"

#include "ChildProgram.h"
#include "clcapture/cli/ToolProgram.h"
#include "clcapture/format/CaptureBlobs.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace clcapture::debug {

namespace fs = std::filesystem;
namespace fmt = clcapture::format;
using nlohmann::json;

namespace {

fmt::Expected<std::string> readText(const fs::path &file) {
  std::ifstream in(file, std::ios::binary);
  if (!in)
    return fmt::fail("cannot read " + file.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

fmt::Expected<fs::path> tool(const std::string &name) {
  auto found = cli::findToolProgram(name);
  if (!found)
    return fmt::fail(name + " is neither beside clcapture-debug nor on PATH");
  return *found;
}

/// The last lines a failed program printed, indented.
std::string lastLines(const std::string &text) {
  std::istringstream in(text);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty())
      lines.push_back(line);
  std::string out;
  for (std::size_t i = lines.size() > 12 ? lines.size() - 12 : 0; i < lines.size(); ++i)
    out += "\n  " + lines[i];
  return out;
}

} // namespace

std::string firstGroupPredicate(const replay::LaunchPlan &plan) {
  std::string text;
  for (std::size_t d = 0; d < plan.globalSize.size(); ++d)
    text += (d ? " && " : "") + std::string("get_group_id(") + std::to_string(d) + ") == 0";
  return text.empty() ? "1" : text;
}

RecordedRange recordedRange(const replay::LaunchPlan &plan) {
  RecordedRange r;
  r.dims = static_cast<unsigned>(plan.globalSize.size());
  for (std::size_t d = 0; d < plan.globalSize.size() && d < 3; ++d) {
    r.global[d] = plan.globalSize[d];
    // No captured local size: the device chose; the recording still names work-items by global id.
    r.local[d] = plan.localSize ? (*plan.localSize)[d] : plan.globalSize[d];
    r.offset[d] = plan.globalOffset ? (*plan.globalOffset)[d] : 0;
  }
  return r;
}

fmt::Expected<Instrumented> instrumentKernel(const CapturedLaunch &launch, const std::string &recordItems,
                                             const std::vector<Injection> &injections,
                                             const fs::path &workFolder) {
  auto program = tool("clcapture-instrument");
  if (!program)
    return fmt::fail(program.error());
  std::error_code ec;
  fs::create_directories(workFolder, ec);
  Instrumented out;
  out.source = workFolder / ("instrumented-" + launch.plan.kernelFile.filename().string());
  fs::path layoutFile = workFolder / "layout.json";
  std::vector<std::string> argv{program->string(), launch.plan.kernelFile.string(),
                                "--kernel",        launch.plan.entryPoint,
                                "--options",       launch.plan.buildOptions,
                                "--record-items",  recordItems,
                                "--output-source", out.source.string(),
                                "--output-layout", layoutFile.string()};
  for (const Injection &i : injections) {
    argv.push_back("--inject");
    argv.push_back(std::to_string(i.site) + ":" + std::to_string(i.sequence) + ":" + std::to_string(i.item) +
                   ":" + i.lvalue + "=" + i.value);
  }
  auto [text, status] = runProgram(argv, true);
  if (status != 0)
    return fmt::fail("clcapture-instrument could not instrument " +
                     launch.plan.kernelFile.filename().string() + " (exit " + std::to_string(status) +
                     "):" + lastLines(text));
  auto layoutText = readText(layoutFile);
  if (!layoutText)
    return fmt::fail(layoutText.error());
  auto layout = parseTraceLayout(*layoutText);
  if (!layout)
    return fmt::fail(layoutFile.string() + ": " + layout.error());
  out.layout = std::move(*layout);
  return out;
}

fmt::Expected<std::vector<Recording>> recordOnDevice(const CapturedLaunch &launch, const fs::path &capture,
                                                     const DeviceSettings &settings,
                                                     const Instrumented *given) {
  std::optional<Instrumented> made;
  if (!given) {
    auto instrumented =
        instrumentKernel(launch, settings.recordItems, settings.injections, settings.workFolder);
    if (!instrumented)
      return fmt::fail(instrumented.error());
    made = std::move(*instrumented);
  }
  const Instrumented *instrumented = given ? given : &*made;
  auto program = tool("clcapture-replay");
  if (!program)
    return fmt::fail(program.error());
  fs::path output = settings.workFolder / "replay";
  std::vector<std::string> argv{program->string(), capture.string(),
                                "--only",          std::to_string(launch.plan.index),
                                "--instrumented",  instrumented->source.string(),
                                "--trace-bytes",   std::to_string(settings.traceBytes),
                                "--repeat",        std::to_string(settings.runs),
                                "--output",        output.string()};
  if (settings.icd) {
    argv.push_back("--icd");
    argv.push_back(*settings.icd);
  }
  argv.insert(argv.end(),
              {"--platform", std::to_string(settings.platform), "--device", std::to_string(settings.device)});
  if (!settings.addBuildOptions.empty())
    argv.insert(argv.end(), {"--add-build-options", settings.addBuildOptions});
  auto [text, status] = runProgram(argv, true);
  auto reportText = readText(output / "replay.json");
  if (!reportText)
    return fmt::fail("clcapture-replay failed (exit " + std::to_string(status) + "):" + lastLines(text));
  json report;
  try {
    report = json::parse(*reportText);
  } catch (const json::exception &e) {
    return fmt::fail("clcapture-replay's report is not JSON: " + std::string(e.what()));
  }
  if (!report.contains("launches") || report["launches"].empty())
    return fmt::fail("clcapture-replay replayed nothing:" + lastLines(text));
  const json &l = report["launches"][0];
  std::string launchStatus = l.value("status", "");
  if (launchStatus != "replayed" && launchStatus != "differs")
    return fmt::fail("the device did not run the launch (" + launchStatus + "): " + l.value("reason", ""));
  std::string device = report.value("device", "");
  std::vector<Recording> recordings;
  for (const json &t : l.value("traces", json::array())) {
    auto bytes = fmt::readCaptureFile(output / t.value("file", ""));
    if (!bytes)
      return fmt::fail("cannot read the trace " + (output / t.value("file", "")).string());
    RecordingOrigin origin;
    origin.device = device;
    origin.capture = capture.string();
    origin.launch = launch.plan.index;
    origin.run = t.value("run", 1u);
    origin.seconds = t.value("seconds", 0.0);
    origin.kernelSource = launch.source;
    origin.kernelFileName = launch.plan.kernelFile.filename().string();
    origin.outputsSame = t.value("outputs_same_as_plain", true);
    origin.outputsDifference = t.value("difference", "");
    auto recording =
        Recording::decode(instrumented->layout, std::vector<std::uint8_t>(bytes->begin(), bytes->end()),
                          recordedRange(launch.plan), std::move(origin));
    if (!recording)
      return fmt::fail("run " + std::to_string(t.value("run", 1u)) + ": " + recording.error());
    recordings.push_back(std::move(*recording));
  }
  if (recordings.empty())
    return fmt::fail("clcapture-replay returned no trace:" + lastLines(text));
  return recordings;
}

} // namespace clcapture::debug
