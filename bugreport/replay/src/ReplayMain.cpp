//===- ReplayMain.cpp - clcapture-replay: captured launches, run again ----===//
//
// Opens the capture, plans every selected launch (or says why it cannot be replayed), opens the device
// only when some launch can run, replays, writes the outputs and the report. Exit codes: ReplayOptions.h.
//
//===----------------------------------------------------------------------===//

#include "clcapture/format/BlobStore.h"
#include "clcapture/replay/LaunchPlan.h"
#include "clcapture/replay/OpenClDriver.h"
#include "clcapture/replay/ReplayInput.h"
#include "clcapture/replay/ReplayOptions.h"
#include "clcapture/replay/ReplayReport.h"
#include "clcapture/replay/Replayer.h"

#include <algorithm>
#include <iostream>
#include <map>

namespace fs = std::filesystem;
namespace fmt = clcapture::format;
using namespace clcapture::replay;

namespace {

/// The positions in capture.instantiations to replay, in index order; nullopt after an error message.
std::optional<std::vector<std::size_t>> selectPositions(const fmt::Capture &capture, const ReplayOptions &o) {
  const auto &indices = capture.captures.indices;
  std::vector<std::size_t> positions;
  if (o.only.empty()) {
    for (std::size_t p = 0; p < indices.size(); ++p)
      positions.push_back(p);
    return positions;
  }
  std::map<std::size_t, std::size_t> positionOf;
  for (std::size_t p = 0; p < indices.size(); ++p)
    positionOf.emplace(indices[p], p);
  for (std::size_t index : o.only) {
    auto it = positionOf.find(index);
    if (it == positionOf.end()) {
      std::size_t count = capture.captures.recordCount;
      std::cerr << "clcapture-replay: error: --only: no instantiation " << index << " in " << o.capture
                << " ("
                << (count == 0
                        ? std::string("it has none")
                        : "it has " + std::to_string(count) + ", numbered 0 to " + std::to_string(count - 1))
                << ")\n";
      return std::nullopt;
    }
    positions.push_back(it->second);
  }
  std::sort(positions.begin(), positions.end());
  positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
  return positions;
}

/// DIR/<index>/arg<N>.bin for every buffer read back; the file names go into the results.
bool writeOutputs(const fs::path &dir, std::vector<LaunchResult> &results) {
  for (LaunchResult &r : results) {
    if (!r.index)
      continue;
    for (BufferResult &b : r.buffers) {
      std::string relative = std::to_string(*r.index) + "/arg" + std::to_string(b.argument) + ".bin";
      std::error_code ec;
      fs::create_directories(dir / std::to_string(*r.index), ec);
      fmt::Status written = fmt::writeFileAtomically(dir / relative, b.bytes.data(), b.bytes.size());
      if (!written) {
        std::cerr << "clcapture-replay: error: --output: " << written.error() << '\n';
        return false;
      }
      b.file = relative;
    }
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

  auto input = openReplayInput(o.capture);
  if (!input) {
    std::cerr << "clcapture-replay: error: " << input.error() << '\n';
    return kExitCaptureInvalid;
  }
  const fmt::Capture &capture = input->capture;
  for (const fmt::Diagnostic &d : capture.diagnostics)
    std::cerr << d.str() << '\n';
  if (capture.hasErrors()) {
    std::cerr << "clcapture-replay: error: " << o.capture
              << " is not a valid capture; nothing was replayed\n";
    return kExitCaptureInvalid;
  }
  auto positions = selectPositions(capture, o);
  if (!positions)
    return kExitCommandLine;

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
    if (facts)
      r.launch = facts->launch;
    auto plan = planLaunch(inst, facts, index, input->folder);
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
  if (o.only.empty() && capture.sidecar)
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
      ReplaySettings settings{input->folder, o.compare, o.ulp, o.repeat};
      Replayer replayer(*driver, settings);
      for (std::size_t i = 0; i < results.size(); ++i)
        if (plans[i])
          results[i] = replayer.replay(*plans[i]);
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
