//===- CapturedLaunch.cpp - The one launch a debugging session runs -----------===//
#include "CapturedLaunch.h"

#include <fstream>
#include <sstream>

namespace clcapture::debug {

namespace fmt = clcapture::format;

namespace {

// Where the capture records how each argument's bytes could have been kept, for the refusal's hint.
std::string withCaptureHint(std::string reason) {
  if (reason.find("no bytes") != std::string::npos)
    reason +=
        "; capture again with a larger CLCAPTURE_DATA budget (clcapture --data SIZE) so its bytes are kept";
  else if (reason.find("from IL") != std::string::npos || reason.find("binary") != std::string::npos)
    reason += "; the debugger needs the OpenCL C source (clCreateProgramWithSource)";
  return reason;
}

} // namespace

fmt::Expected<CapturedLaunch> openCapturedLaunch(const std::filesystem::path &capture,
                                                 std::optional<std::size_t> index) {
  fmt::ReadOptions readOptions;
  readOptions.checkFiles = true;
  auto loaded = archive::loadCaptureInput(capture, readOptions);
  if (!loaded)
    return fmt::fail(loaded.error());
  const fmt::Capture &c = loaded->capture;
  if (c.hasErrors()) {
    for (const fmt::Diagnostic &d : c.diagnostics)
      if (d.severity == fmt::Severity::Error)
        return fmt::fail(loaded->inArchive(d.str()));
  }
  const auto &indices = c.captures.indices;
  if (indices.empty())
    return fmt::fail(capture.string() + " holds no kernel launch with an instantiation");
  std::size_t position = 0;
  if (index) {
    auto positions = archive::selectInstantiations(c, {*index}, capture.string());
    if (!positions || positions->empty())
      return fmt::fail("--launch " + std::to_string(*index) + ": " + capture.string() +
                       " holds instantiations " + std::to_string(indices.front()) + ".." +
                       std::to_string(indices.back()));
    position = positions->front();
  }
  const fmt::Instantiation &inst = c.captures.instantiations[position];
  auto plan = replay::planLaunch(inst, c.factsFor(position), indices[position], loaded->folder);
  if (!plan)
    return fmt::fail("launch " + std::to_string(indices[position]) + " (" + inst.entryPoint +
                     ") cannot be debugged: " + withCaptureHint(plan.error()));
  std::ifstream file(plan->kernelFile, std::ios::binary);
  if (!file)
    return fmt::fail("cannot read the kernel file " + loaded->inArchive(plan->kernelFile.string()));
  std::ostringstream text;
  text << file.rdbuf();
  CapturedLaunch launch{std::move(*loaded), std::move(*plan), text.str(), indices.size()};
  return launch;
}

} // namespace clcapture::debug
