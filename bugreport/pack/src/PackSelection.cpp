//===- PackSelection.cpp - What of a capture goes into a bug-report archive -===//

#include "PackSelection.h"

#include "clcapture/format/CaptureBlobs.h"
#include "clcapture/format/GpuVerifyForm.h"

#include <set>

namespace clcapture::pack {

namespace fs = std::filesystem;
namespace fmt = clcapture::format;

namespace {

std::string baseName(const std::string &path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace

fmt::Expected<PackedCapture> selectForPack(const fmt::Capture &capture, const fs::path &folder,
                                           const PackPolicy &policy) {
  const auto &all = capture.captures.instantiations;
  std::vector<std::size_t> selected;
  if (policy.only) {
    std::set<std::size_t> seen;
    for (std::size_t index : *policy.only) {
      if (index >= all.size())
        return fmt::fail("--only: instantiation " + std::to_string(index) +
                         " does not exist (the capture has " + std::to_string(all.size()) + ")");
      if (seen.insert(index).second)
        selected.push_back(index);
    }
  } else {
    for (std::size_t i = 0; i < all.size(); ++i)
      selected.push_back(i);
  }

  PackedCapture out;
  std::set<std::string> files;
  fmt::CaptureBlobs &blobs = fmt::CaptureBlobs::of(folder);
  // A packed blob goes into the archive as the loose data/<hash>.bin it stands for, so the archive is the
  // same bytes whether the capture was packed or not, and GPUVerify's loader reads it.
  auto addFile = [&](const std::string &relative) -> fmt::Status {
    if (!files.insert(relative).second)
      return {};
    std::error_code ec;
    if (fs::exists(folder / relative, ec) || !blobs.packed(relative)) {
      out.files.push_back(archive::ArchiveEntry{relative, {}, folder / relative});
      return {};
    }
    auto bytes = blobs.read(relative);
    if (!bytes)
      return fmt::fail(bytes.error());
    out.files.push_back(archive::ArchiveEntry{relative, std::move(*bytes), {}});
    return {};
  };
  const std::string leftOut =
      policy.data ? "left out by clcapture pack --data " + std::to_string(policy.dataCap) + " (larger)"
                  : std::string("left out by clcapture pack --data none");
  if (capture.sidecar)
    out.sidecar.header = capture.sidecar->header;
  else
    out.sidecar.header.clcaptureVersion = CLCAPTURE_VERSION;

  for (std::size_t j = 0; j < selected.size(); ++j) {
    fmt::Instantiation inst = all[selected[j]];
    const fmt::LaunchFacts *given = capture.factsFor(selected[j]);
    fmt::LaunchFacts facts = given ? *given : fmt::LaunchFacts{};
    if (!given) {
      facts.launch = j;
      facts.kernelName = inst.entryPoint;
      facts.enqueueFunction = "clEnqueueNDRangeKernel";
    }
    facts.instantiation = j;
    if (fmt::Status s = addFile(inst.kernelFile); !s)
      return fmt::fail(s.error());
    if (inst.kernelArguments)
      for (std::size_t a = 0; a < inst.kernelArguments->size(); ++a) {
        auto *array = std::get_if<fmt::ArrayArgument>(&(*inst.kernelArguments)[a]);
        if (!array || !array->data)
          continue;
        std::uint64_t size = array->size.value_or(0);
        if (!policy.data || size > policy.dataCap) {
          array->data.reset();
          ++out.dataLeftOut;
          for (fmt::ArgumentFacts &af : facts.arguments)
            if (af.index == a)
              af.dataSkipped = leftOut;
          continue;
        }
        if (fmt::Status s = addFile(*array->data); !s)
          return fmt::fail(s.error());
      }
    for (fmt::ArgumentFacts &af : facts.arguments) {
      if (!af.dataAfter)
        continue;
      std::optional<std::uint64_t> size = blobs.size(*af.dataAfter);
      if (!size || !policy.data || *size > policy.dataCap) {
        af.dataAfter.reset();
        af.dataAfterSkipped = !size ? "its file is missing from the capture folder" : leftOut;
        continue;
      }
      if (fmt::Status s = addFile(*af.dataAfter); !s)
        return fmt::fail(s.error());
    }
    if (policy.redactPaths) {
      if (inst.hostApiCalls)
        for (auto &call : *inst.hostApiCalls)
          call.compilationUnit = baseName(call.compilationUnit);
      for (auto &call : facts.hostCalls) {
        call.module = baseName(call.module);
        if (call.compilationUnit)
          call.compilationUnit = baseName(*call.compilationUnit);
      }
    }
    fmt::keepExactFacts(inst, facts);
    out.instantiations.push_back(std::move(inst));
    out.sidecar.launches.push_back(std::move(facts));
  }
  // Launches that never became instantiations say what the capture lacks: kept when nothing was left out.
  if (!policy.only && capture.sidecar)
    for (const fmt::LaunchFacts &l : capture.sidecar->launches)
      if (!l.instantiation)
        out.sidecar.launches.push_back(l);
  if (policy.redactPaths) {
    auto &process = out.sidecar.header.process;
    process.executable = baseName(process.executable);
    if (!process.commandLine.empty())
      process.commandLine[0] = baseName(process.commandLine[0]);
    if (process.loader)
      process.loader = baseName(*process.loader);
  }
  return out;
}

} // namespace clcapture::pack
