//===- SidecarJson.cpp - Launch facts as the sidecar writes them ---------===//

#include "clcapture/format/SidecarJson.h"

namespace clcapture::format {

using Json = nlohmann::ordered_json;

Json toJson(const DeviceFacts &d) {
  Json j;
  j["name"] = d.name;
  j["vendor"] = d.vendor;
  j["version"] = d.version;
  j["driver_version"] = d.driverVersion;
  j["address_bits"] = d.addressBits;
  j["endianness"] = toString(d.endianness);
  if (d.nonUniformWorkGroups)
    j["non_uniform_work_groups"] = *d.nonUniformWorkGroups;
  return j;
}

Json toJson(const ArgumentFacts &a) {
  Json j;
  j["index"] = a.index;
  j["kind"] = toString(a.kind);
  if (a.name)
    j["name"] = *a.name;
  if (a.typeName)
    j["type_name"] = *a.typeName;
  if (a.addressQualifier)
    j["address_qualifier"] = *a.addressQualifier;
  if (a.memObject)
    j["mem_object"] = *a.memObject;
  if (a.memFlags)
    j["mem_flags"] = *a.memFlags;
  if (a.subBuffer)
    j["sub_buffer"] = Json{{"parent", a.subBuffer->parent}, {"origin", a.subBuffer->origin}};
  if (a.svm)
    j["svm"] = Json{{"allocation", a.svm->allocation}, {"offset", a.svm->offset}};
  if (a.dataSkipped)
    j["data_skipped"] = *a.dataSkipped;
  if (a.size)
    j["size"] = *a.size;
  if (a.dataAfter)
    j["data_after"] = *a.dataAfter;
  if (a.dataAfterSkipped)
    j["data_after_skipped"] = *a.dataAfterSkipped;
  if (a.image) {
    Json image{{"type", a.image->type}, {"width", a.image->width}};
    if (a.image->height)
      image["height"] = a.image->height;
    if (a.image->depth)
      image["depth"] = a.image->depth;
    if (a.image->arraySize)
      image["array_size"] = a.image->arraySize;
    j["image"] = std::move(image);
  }
  if (a.sampler)
    j["sampler"] = Json{{"normalized_coords", a.sampler->normalizedCoords},
                        {"addressing", toString(a.sampler->addressing)},
                        {"filter", toString(a.sampler->filter)}};
  return j;
}

Json toJson(const HostCallFacts &c) {
  Json call;
  call["function_name"] = c.functionName;
  if (c.argument)
    call["argument"] = *c.argument;
  call["module"] = c.module;
  call["module_offset"] = c.moduleOffset;
  if (c.caller)
    call["caller"] = *c.caller;
  if (c.compilationUnit)
    call["compilation_unit"] = *c.compilationUnit;
  if (c.lineNumber)
    call["line_number"] = *c.lineNumber;
  return call;
}

Json toJson(const LaunchFacts &f) {
  Json j;
  j["launch"] = f.launch;
  j["instantiation"] = f.instantiation ? Json(*f.instantiation) : Json(nullptr);
  if (f.notCapturedReason)
    j["not_captured_reason"] = *f.notCapturedReason;
  j["enqueue_function"] = f.enqueueFunction;
  j["kernel_name"] = f.kernelName;
  j["thread"] = f.thread;
  j["queue"] = f.queue;
  j["program"] = f.program;
  j["program_origin"] = toString(f.programOrigin);
  j["build_options"] = f.buildOptions;
  if (f.globalOffset)
    j["global_offset"] = *f.globalOffset;
  if (f.localSize)
    j["local_size"] = *f.localSize;
  j["device"] = toJson(f.device);
  Json args = Json::array();
  for (const auto &a : f.arguments)
    args.push_back(toJson(a));
  j["arguments"] = std::move(args);
  j["aliases"] = f.aliases;
  // Written only when known, so captures without call sites read exactly as before.
  if (!f.hostCalls.empty()) {
    Json calls = Json::array();
    for (const auto &c : f.hostCalls)
      calls.push_back(toJson(c));
    j["host_calls"] = std::move(calls);
  }
  return j;
}

Json toJson(const SidecarHeader &h) {
  Json j;
  j["format"] = "clcapture-meta";
  j["format_version"] = h.formatVersion;
  j["clcapture_version"] = h.clcaptureVersion;
  j["process"] =
      Json{{"executable", h.process.executable}, {"pid", h.process.pid}, {"started_at", h.process.startedAt}};
  if (h.process.parentPid)
    j["process"]["parent_pid"] = *h.process.parentPid;
  if (!h.process.commandLine.empty())
    j["process"]["command_line"] = h.process.commandLine;
  if (h.process.loader)
    j["process"]["loader"] = *h.process.loader;
  if (h.process.frontEnd)
    j["process"]["front_end"] = *h.process.frontEnd;
  return j;
}

} // namespace clcapture::format
