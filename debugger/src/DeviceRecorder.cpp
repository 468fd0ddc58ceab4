//===- DeviceRecorder.cpp - A captured launch recorded on the real device -----===//
#include "DeviceRecorder.h"

#include "ChildProgram.h"
#include "clcapture/cli/ToolProgram.h"
#include "clcapture/format/CaptureBlobs.h"

#include <cctype>
#include <fstream>
#include <map>
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
                                             const fs::path &workFolder) {
  auto program = tool("clcapture-instrument");
  if (!program)
    return fmt::fail(program.error());
  std::error_code ec;
  fs::create_directories(workFolder, ec);
  Instrumented out;
  out.source = workFolder / "instrumented.cl";
  fs::path layoutFile = workFolder / "layout.json";
  std::vector<std::string> argv{program->string(), launch.plan.kernelFile.string(),
                                "--kernel",        launch.plan.entryPoint,
                                "--options",       launch.plan.buildOptions,
                                "--record-items",  recordItems,
                                "--output-source", out.source.string(),
                                "--output-layout", layoutFile.string()};
  auto [text, status] = runProgram(argv, true);
  if (status != 0)
    return fmt::fail("clcapture-instrument could not instrument " +
                     launch.plan.kernelFile.filename().string() + " (exit " + std::to_string(status) +
                     "):" + lastLines(text));
  auto layoutText = readText(layoutFile);
  if (!layoutText)
    return fmt::fail(layoutText.error());
  auto layout = trace::parseTraceLayout(*layoutText);
  if (!layout)
    return fmt::fail(layoutFile.string() + ": " + layout.error());
  out.layout = std::move(*layout);
  return out;
}

fmt::Expected<Instrumented> loadInstrumentation(const fs::path &folder, const CapturedLaunch &launch) {
  auto layoutText = readText(folder / "layout.json");
  if (!layoutText)
    return fmt::fail("--instrumentation: " + layoutText.error() +
                     " (the folder holds clcapture-instrument's "
                     "--output-layout layout.json and --output-source instrumented.cl)");
  auto layout = trace::parseTraceLayout(*layoutText);
  if (!layout)
    return fmt::fail((folder / "layout.json").string() + ": " + layout.error());
  if (layout->kernel != launch.plan.entryPoint)
    return fmt::fail("--instrumentation: " + folder.string() + " instruments kernel " + layout->kernel +
                     ", the launch runs " + launch.plan.entryPoint);
  Instrumented out;
  out.source = folder / "instrumented.cl";
  if (!fs::exists(out.source))
    return fmt::fail("--instrumentation: no " + out.source.string());
  out.layout = std::move(*layout);
  return out;
}

namespace {

/// `text` without its blanks, for a build option: refused when a blank separates two words (`unsigned int`),
/// which would then run together, or when it holds quotes or a backslash.
fmt::Expected<std::string> withoutBlanks(const std::string &text) {
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  std::string out;
  for (std::size_t c = 0; c < text.size(); ++c) {
    char ch = text[c];
    if (ch == '"' || ch == '\\' || ch == '\'')
      return fmt::fail("set var: " + text + " cannot be written into a build option (quotes)");
    if (!std::isspace(static_cast<unsigned char>(ch))) {
      out += ch;
      continue;
    }
    std::size_t next = text.find_first_not_of(" \t", c);
    if (!out.empty() && next != std::string::npos && word(out.back()) && word(text[next]))
      return fmt::fail(
          "set var: " + text +
          " has a blank between two words; write it without (a cast such as (unsigned int) cannot "
          "go into the device's build options)");
  }
  return out;
}

} // namespace

fmt::Expected<std::string> injectionOptions(const std::vector<Injection> &injections) {
  // One macro per site; the code has no blank, so that a driver splitting options at blanks keeps it whole.
  std::map<unsigned, std::string> code;
  for (const Injection &i : injections) {
    auto lvalue = withoutBlanks(i.lvalue);
    if (!lvalue)
      return fmt::fail(lvalue.error());
    auto value = withoutBlanks(i.value);
    if (!value)
      return fmt::fail(value.error());
    code[i.site] += "if(clcapture_t&&clcapture_item()==" + std::to_string(i.item) +
                    "u&&*clcapture_s==" + std::to_string(i.sequence) + "u){" + *lvalue + "=(" + *value +
                    ");}";
  }
  std::string options;
  for (const auto &[site, text] : code)
    options +=
        (options.empty() ? "" : " ") + std::string("-DCLCAPTURE_INJECT_") + std::to_string(site) + "=" + text;
  return options;
}

fmt::Expected<std::vector<Recording>> recordOnDevice(const CapturedLaunch &launch, const fs::path &capture,
                                                     const DeviceSettings &settings,
                                                     const Instrumented &given) {
  const Instrumented *instrumented = &given;
  auto injected = injectionOptions(settings.injections);
  if (!injected)
    return fmt::fail(injected.error());
  std::string buildOptions = settings.addBuildOptions;
  if (!injected->empty())
    buildOptions += (buildOptions.empty() ? "" : " ") + *injected;
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
  if (!buildOptions.empty())
    argv.insert(argv.end(), {"--add-build-options", buildOptions});
  auto [text, status] = runProgram(argv, true);
  auto reportText = readText(output / "replay.json");
  if (!reportText)
    return fmt::fail(
        status < 0 ? "clcapture-replay was killed before it finished (the device's driver crashed "
                     "running the launch, as an out-of-bounds access can make it):" +
                         lastLines(text)
                   : "clcapture-replay failed (exit " + std::to_string(status) + "):" + lastLines(text));
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
    if (auto instrumentedText = readText(instrumented->source))
      origin.instrumentedSource = *instrumentedText;
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
