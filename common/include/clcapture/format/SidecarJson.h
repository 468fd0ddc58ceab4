//===- SidecarJson.h - Launch facts as the sidecar writes them --*- C++ -*-===//
//
// The sidecar's records as JSON, keys in the order the sidecar documents them (docs/contract.md §3). Shared
// by the writer (CaptureWriter.h: whole entries) and SidecarRepeats.h (the keys a repeat entry replaces), so
// neither depends on the other.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Sidecar.h"

#include <nlohmann/json.hpp>

namespace clcapture::format {

nlohmann::ordered_json toJson(const LaunchFacts &facts);
nlohmann::ordered_json toJson(const SidecarHeader &header);
nlohmann::ordered_json toJson(const DeviceFacts &device);
nlohmann::ordered_json toJson(const ArgumentFacts &argument);
nlohmann::ordered_json toJson(const HostCallFacts &call);

} // namespace clcapture::format
