//===- CaptureWriter.h - Byte-stable captures.json and sidecar text -*- C++ -*-===//
//
// Output is a pure function of the model: keys in GPUVerify's format documented order, only documented keys,
// `flags` as an array, a NULL local size omitted, and captures.json in the form GPUVerify's own loader
// accepts (gpuverifyForm: e.g. `global_offset` only when every component is > 0); the sidecar keeps the
// exact values (keepExactFacts). The layout is JsonEmitter's.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Expected.h"
#include "clcapture/format/Instantiation.h"
#include "clcapture/format/Sidecar.h"
#include "clcapture/format/SidecarJson.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace clcapture::format {

/// The record captures.json holds for `inst`: its GPUVerify form (gpuverifyForm), keys in GPUVerify's format
/// order. (The sidecar's toJson overloads are SidecarJson.h's.)
nlohmann::ordered_json toJson(const Instantiation &inst);

/// One record as it appears inside the array (indented by `indent` spaces, no trailing newline).
std::string serializeInstantiation(const Instantiation &inst, int indent = 2);
std::string serializeLaunchFacts(const LaunchFacts &facts, int indent = 4);
/// Any record (e.g. a SidecarRepeats entry) in the same layout.
std::string serializeRecord(const nlohmann::ordered_json &record, int indent);

/// A whole captures.json / captures.meta.json text.
std::string serializeCaptures(const std::vector<Instantiation> &insts);
std::string serializeSidecar(const Sidecar &sidecar);

/// The framing of the two files, shared with CaptureRecorder's incremental writer: a whole file is
/// head + records joined by ",\n" (each followed by "\n") + tail.
std::string capturesHead();
std::string capturesTail();
std::string sidecarHead(const SidecarHeader &header);
std::string sidecarTail();

/// Validates every instantiation's GPUVerify form (without file checks) and writes the file atomically
/// (temporary + rename). What the form leaves out is lost unless the caller's sidecar has keepExactFacts().
Status writeCapturesFile(const std::filesystem::path &path, const std::vector<Instantiation> &insts);
Status writeSidecarFile(const std::filesystem::path &path, const Sidecar &sidecar);

} // namespace clcapture::format
