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

fs::path sidecarPathFor(const fs::path &capturesPath) {
  fs::path p = capturesPath;
  if (p.extension() == ".json")
    p.replace_extension();
  p += ".meta.json";
  return p;
}

bool Capture::hasErrors() const {
  return containsErrors(diagnostics);
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

Capture loadCapture(const fs::path &capturesPath, const ReadOptions &options) {
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

} // namespace clcapture::format
