//===- CaptureReader.cpp - Load a whole capture folder and cross-check it -===//
//
// captures.json (CapturesJsonReader) and the sidecar (SidecarReader) are read independently, then each
// launch entry is matched with its instantiation and the exact facts captures.json leaves out for
// GPUVerify's loader are put back (restoreExactFacts).
//
//===----------------------------------------------------------------------===//

#include "clcapture/format/CaptureReader.h"

#include "clcapture/format/GpuVerifyForm.h"
#include "reader/DiagnosticText.h"
#include "reader/Reporter.h"

#include <cstdint>
#include <future>
#include <map>
#include <string>
#include <system_error>

namespace clcapture::format {

namespace fs = std::filesystem;
using namespace reader;

bool Capture::hasErrors() const {
  return containsErrors(diagnostics);
}

const CapturePart *Capture::partOf(std::size_t k) const {
  if (k >= captures.indices.size())
    return nullptr;
  std::size_t index = captures.indices[k];
  for (const CapturePart &part : parts)
    if (index >= part.firstIndex && index < part.firstIndex + part.recordCount)
      return &part;
  return nullptr;
}

const LaunchFacts *Capture::factsFor(std::size_t k) const {
  if (!sidecar || k >= launchIndex.size() || !launchIndex[k])
    return nullptr;
  return &sidecar->launches[*launchIndex[k]];
}

namespace {

/// Cross-check: each instantiation has at most one launch, and names match; fills c.launchIndex and puts
/// the sidecar's exact facts back into the instantiations.
std::vector<Diagnostic> crossCheck(Capture &c, const fs::path &metaPath, const ReadOptions &options) {
  DiagnosticList list(options.maxErrors);
  Reporter r(list, metaPath.string(), options);
  std::map<std::uint64_t, std::size_t> launchOf; // instantiation index -> launches[] position
  for (std::size_t i = 0; i < c.sidecar->launches.size(); ++i) {
    const LaunchFacts &f = c.sidecar->launches[i];
    if (!f.instantiation)
      continue;
    std::string path = at("launches", i) + ".instantiation";
    if (*f.instantiation >= c.captures.recordCount) {
      // The sidecar entry is written just before its record: a kill in between leaves exactly this.
      if (c.captures.truncated || *f.instantiation == c.captures.recordCount)
        r.warning(path, "instantiation " + std::to_string(*f.instantiation) +
                            " was not recorded in captures.json (the application stopped first); ignored");
      else
        r.error(path, "instantiation " + std::to_string(*f.instantiation) +
                          " does not exist (captures.json has " + std::to_string(c.captures.recordCount) +
                          ")");
      continue;
    }
    if (!launchOf.emplace(*f.instantiation, i).second)
      r.error(path, "instantiation " + std::to_string(*f.instantiation) + " is claimed by two launches");
  }
  for (std::size_t k = 0; k < c.captures.instantiations.size(); ++k) {
    std::size_t index = c.captures.indices[k];
    auto it = launchOf.find(index);
    if (it == launchOf.end()) {
      r.warning("", "no launch facts for instantiation " + std::to_string(index));
      continue;
    }
    const LaunchFacts &f = c.sidecar->launches[it->second];
    if (f.kernelName != c.captures.instantiations[k].entryPoint)
      r.error(at("launches", it->second) + ".kernel_name",
              "is " + inQuotes(f.kernelName) + " but instantiation " + std::to_string(index) +
                  " has entry_point " + inQuotes(c.captures.instantiations[k].entryPoint));
    c.launchIndex[k] = it->second;
    // What captures.json leaves out for GPUVerify's loader (GpuVerifyForm.h) is the sidecar's: put back.
    for (const ExactFactProblem &p : restoreExactFacts(c.captures.instantiations[k], f))
      r.error(at("launches", it->second) + "." + p.keyPath, p.message);
  }
  return list.take();
}

} // namespace

namespace {

Capture loadCaptureFile(const fs::path &capturesPath, const ReadOptions &options) {
  Capture c;
  c.capturesPath = capturesPath;
  fs::path metaPath = sidecarPathFor(capturesPath);
  std::error_code ec;
  bool hasSidecar = fs::exists(metaPath, ec); // a capture from another tool (or GPUVerify's own) has none
  // The two files are independent until the cross-check below: with threads, the sidecar is read beside.
  std::future<SidecarSet> sidecarRead;
  if (hasSidecar && options.threads > 1)
    sidecarRead = std::async(std::launch::async, [&] { return readSidecarFile(metaPath, options); });
  c.captures = readCapturesFile(capturesPath, options);
  c.diagnostics = c.captures.diagnostics;
  c.launchIndex.assign(c.captures.instantiations.size(), std::nullopt);

  if (!hasSidecar)
    return c;
  SidecarSet meta = sidecarRead.valid() ? sidecarRead.get() : readSidecarFile(metaPath, options);
  c.diagnostics.insert(c.diagnostics.end(), meta.diagnostics.begin(), meta.diagnostics.end());
  if (!meta.sidecar)
    return c;
  c.sidecar = std::move(meta.sidecar);

  auto cross = crossCheck(c, metaPath, options);
  c.diagnostics.insert(c.diagnostics.end(), cross.begin(), cross.end());
  return c;
}

CapturePart partOfFile(const Capture &c) {
  CapturePart part;
  part.capturesPath = c.capturesPath;
  if (c.sidecar)
    part.process = c.sidecar->header.process;
  part.recordCount = c.captures.recordCount;
  return part;
}

} // namespace

Capture loadCapture(const fs::path &capturesPath, const ReadOptions &options) {
  Capture c = loadCaptureFile(capturesPath, options);
  c.parts = {partOfFile(c)};
  return c;
}

Capture loadCaptureFolder(const fs::path &folder, const ReadOptions &options) {
  std::vector<fs::path> paths = capturePartsOf(folder);
  if (paths.empty())
    paths.push_back(folder / "captures.json"); // the reader's diagnostics name what is missing
  Capture whole;
  for (const fs::path &path : paths) {
    Capture c = loadCaptureFile(path, options);
    CapturePart part = partOfFile(c);
    part.firstIndex = whole.captures.recordCount;
    if (whole.parts.empty()) {
      whole.capturesPath = c.capturesPath;
      if (c.sidecar)
        whole.sidecar = Sidecar{c.sidecar->header, {}};
    }
    std::size_t launchesBefore = whole.sidecar ? whole.sidecar->launches.size() : 0;
    for (std::size_t k = 0; k < c.captures.instantiations.size(); ++k) {
      whole.captures.instantiations.push_back(std::move(c.captures.instantiations[k]));
      whole.captures.indices.push_back(part.firstIndex + c.captures.indices[k]);
      std::optional<std::size_t> launch = c.launchIndex[k];
      whole.launchIndex.push_back(
          launch && whole.sidecar ? std::optional<std::size_t>(launchesBefore + *launch) : std::nullopt);
    }
    if (c.sidecar && whole.sidecar)
      for (LaunchFacts &facts : c.sidecar->launches) {
        if (facts.instantiation)
          *facts.instantiation += part.firstIndex;
        whole.sidecar->launches.push_back(std::move(facts));
      }
    whole.captures.recordCount += c.captures.recordCount;
    whole.captures.truncated = whole.captures.truncated || c.captures.truncated;
    whole.captures.diagnostics.insert(whole.captures.diagnostics.end(), c.captures.diagnostics.begin(),
                                      c.captures.diagnostics.end());
    whole.diagnostics.insert(whole.diagnostics.end(), c.diagnostics.begin(), c.diagnostics.end());
    whole.parts.push_back(std::move(part));
  }
  return whole;
}

} // namespace clcapture::format
