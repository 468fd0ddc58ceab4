//===- PySchedClSpec.h - A launch as a PySchedCL kernel specification, and back -*- C++ -*-===//
//
// PySchedCL's per-kernel JSON spec, docs/contract.md §1: one JSON object per kernel with name, src,
// workDimension, partition, globalWorkSize (a Python list expression), inputBuffers / ioBuffers /
// outputBuffers ({break, pos, size in elements, type}), varArguments ({pos, type, value}), localArguments and
// an optional id. What PySchedCL's spec has no field for but a capture needs goes under extra keys PySchedCL
// ignores (it reads only PySchedCL's spec keys and localWorkSize): localWorkSize, globalWorkOffset,
// compilerFlags, per buffer addressSpace / flags / data / dataAfter, per scalar `captured`, and a top-level
// `clcapture` object with the exact facts (the sidecar's launch entry: aliasing, memory objects, device,
// argument kinds and types). bugreport/README.md (export/) lists them with the buffer classification rule.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/export/LaunchView.h"
#include "clcapture/export/SpecExpression.h"
#include "clcapture/format/CaptureReader.h"
#include "clcapture/format/Expected.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace clcapture::exporter {

/// Version of the `clcapture` object's layout (clcapture.version).
constexpr int kSpecExtrasVersion = 1;

/// PySchedCL's spec fields in its table's order, and the extras an export may add (the documented list).
const std::vector<std::string> &seedSpecFields();
const std::vector<std::string> &specExtraFields();

struct SpecExport {
  nlohmann::ordered_json spec;
  std::vector<std::string> notes; ///< e.g. what stays symbolic
};

/// The spec of the instantiation at `position` in `capture` (its view `view`), whose files (kernel source,
/// data, data after) are copied into `outDir` under content-addressed names.
format::Expected<SpecExport> exportSpec(const LaunchView &view, const format::Capture &capture,
                                        std::size_t position, const std::filesystem::path &folder,
                                        const std::filesystem::path &outDir);

struct ImportOptions {
  Defines defines;
  std::optional<std::filesystem::path> srcDir; ///< where `src` is (default: the spec's folder)
};

struct ImportedLaunch {
  format::Instantiation instantiation;      ///< kernel_file and data name files written in the output
  std::optional<format::LaunchFacts> facts; ///< nullopt: `clcapture.launch` is null (a capture without them)
  std::optional<format::SidecarHeader> header; ///< from `clcapture.meta`
  std::vector<std::string> notes;              ///< what stays open, and why
};

/// Reads one spec and writes its kernel source and data files into `outDir` (kernels/, data/). A failure
/// is an invalid spec or something required that cannot be known (e.g. globalWorkSize "[dataset]"
/// without --define dataset=N).
format::Expected<ImportedLaunch> importSpec(const std::filesystem::path &specPath,
                                            const ImportOptions &options,
                                            const std::filesystem::path &outDir);

} // namespace clcapture::exporter
