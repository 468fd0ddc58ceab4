//===- ReplayMain.cpp - clcapture-replay: captured launches, run again ----===//
//
// Opens the capture, plans every selected launch (or says why it cannot be replayed), opens the device
// only when some launch can run, replays, writes the outputs and the report. Exit codes: ReplayOptions.h.
//
//===----------------------------------------------------------------------===//

#include "clcapture/archive/CaptureInput.h"
#include "clcapture/format/BlobStore.h"
#include "clcapture/replay/LaunchPlan.h"
#include "clcapture/replay/OpenClDriver.h"
#include "clcapture/replay/ReplayOptions.h"
#include "clcapture/replay/ReplayReport.h"
#include "clcapture/replay/Replayer.h"
#include "clcapture/replay/TracedLaunch.h"

#include <algorithm>
#include <iostream>

namespace fs = std::filesystem;
namespace fmt = clcapture::format;
using namespace clcapture::replay;

namespace {

/// DIR/<index>/arg<N>.bin for every buffer read back; the file names go into the results.
bool writeOutputs(const fs::path &dir, std::vector<LaunchResult> &results) {
  for (LaunchResult &r : results) {
    if (!r.index)
      continue;
    // DIR/<index>/NAME; the name written into the result, or false after the error line.
    auto write = [&](const std::string &name, const std::vector<std::uint8_t> &bytes,
                     std::optional<std::string> &file) {
      std::string relative = std::to_string(*r.index) + "/" + name;
      std::error_code ec;
      fs::create_directories(dir / std::to_string(*r.index), ec);
      fmt::Status written = fmt::writeFileAtomically(dir / relative, bytes.data(), bytes.size());
      if (!written) {
        std::cerr << "clcapture-replay: error: --output: " << written.error() << '\n';
        return false;
      }
      file = relative;
      return true;
    };
    for (BufferResult &b : r.buffers)
      if (!write("arg" + std::to_string(b.argument) + ".bin", b.bytes, b.file))
        return false;
    for (TraceRun &t : r.traces)
      if (!write("trace.run" + std::to_string(t.run) + ".bin", t.bytes, t.file))
        return false;
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  ReplayCommandLine cl = parseReplayCommandLine(argc, argv, std::cout, std::cerr);
  if (cl.exitCode)
    return *cl.exitCode;
  const ReplayOptions &o = cl.options;
  if (o.icd && !fs::exists(*o.icd)) {
    std::cerr << "clcapture-replay: error: --icd: " << *o.icd << " does not exist\n";
    return kExitCommandLine;
  }
  if (o.output) {
    std::error_code ec;
    fs::create_directories(*o.output, ec);
    if (ec || !fs::is_directory(*o.output, ec)) {
      std::cerr << "clcapture-replay: error: --output: cannot create folder " << o.output->string() << '\n';
      return kExitCommandLine;
    }
  }

  fmt::ReadOptions readOptions;
  readOptions.checkFiles = true;
  auto input = clcapture::archive::openToolInput(o.capture, readOptions, "clcapture-replay",
                                                 "nothing was replayed", std::cerr);
  if (!input)
    return kExitCaptureInvalid;
  const fmt::Capture &capture = input->capture;
  auto positions = clcapture::archive::selectInstantiations(capture, o.only, o.capture, o.onlyProcesses);
  if (!positions) {
    std::cerr << "clcapture-replay: error: " << positions.error() << '\n';
    return kExitCommandLine;
  }

  // Plan first: what the capture lacks is known before any device is touched.
  std::vector<LaunchResult> results;
  std::vector<std::optional<LaunchPlan>> plans;
  for (std::size_t p : *positions) {
    const fmt::Instantiation &inst = capture.captures.instantiations[p];
    std::size_t index = capture.captures.indices[p];
    const fmt::LaunchFacts *facts = capture.factsFor(p);
    LaunchResult r;
    r.index = index;
    r.entryPoint = inst.entryPoint;
    if (const fmt::CapturePart *part = capture.partOf(p); part && part->process && capture.parts.size() > 1)
      r.pid = part->process->pid;
    if (facts)
      r.launch = facts->launch;
    auto plan = planLaunch(inst, facts, index, input->folder);
    if (plan && !o.addBuildOptions.empty())
      plan->buildOptions += (plan->buildOptions.empty() ? "" : " ") + o.addBuildOptions;
    if (plan) {
      plans.emplace_back(std::move(*plan));
    } else {
      r.status = LaunchStatus::NotReplayable;
      r.reason = plan.error();
      plans.emplace_back(std::nullopt);
    }
    results.push_back(std::move(r));
  }
  // Launches the sidecar lists without an instantiation (programs from IL or binaries, …), unless --only.
  if (o.only.empty() && o.onlyProcesses.empty() && capture.sidecar)
    for (const fmt::LaunchFacts &facts : capture.sidecar->launches) {
      if (facts.instantiation)
        continue;
      LaunchResult r;
      r.launch = facts.launch;
      r.entryPoint = facts.kernelName;
      r.status = LaunchStatus::NotReplayable;
      r.reason = notReplayableReason(facts);
      results.push_back(std::move(r));
      plans.emplace_back(std::nullopt);
    }

  ReplayReportInfo info;
  info.captures = o.capture;
  info.compare = o.compare;
  info.ulp = o.ulp;
  info.repeat = o.repeat;
  bool anyPlan = std::any_of(plans.begin(), plans.end(), [](const auto &p) { return p.has_value(); });
  if (anyPlan) {
    auto driver = OpenClDriver::open(o.icd, o.platform, o.device);
    if (!driver) {
      std::cerr << "clcapture-replay: error: " << driver.error() << '\n';
      for (std::size_t i = 0; i < results.size(); ++i)
        if (plans[i]) {
          results[i].status = LaunchStatus::Error;
          results[i].reason = "no device: " + driver.error();
        }
    } else {
      info.device = driver->description();
      // Instrumented, the runs are counted here: each one's trace is kept.
      ReplaySettings settings{input->folder, o.compare, o.ulp, o.instrumented ? 1u : o.repeat};
      Replayer replayer(*driver, settings);
      for (std::size_t i = 0; i < results.size(); ++i)
        if (plans[i]) {
          std::optional<std::uint64_t> pid = results[i].pid;
          results[i] = o.instrumented
                           ? replayTraced(replayer, *plans[i], {*o.instrumented, o.traceBytes}, o.repeat)
                           : replayer.replay(*plans[i]);
          results[i].pid = pid;
        }
    }
  }

  if (o.output) {
    if (!writeOutputs(*o.output, results))
      return kExitCommandLine;
    std::string json = jsonReport(results, info);
    fmt::Status written = fmt::writeFileAtomically(*o.output / "replay.json", json.data(), json.size());
    if (!written) {
      std::cerr << "clcapture-replay: error: --output: " << written.error() << '\n';
      return kExitCommandLine;
    }
  }
  std::cout << (o.format == ReplayFormat::Json ? jsonReport(results, info) : textReport(results, info))
            << std::flush;
  return exitCodeFor(results);
}
