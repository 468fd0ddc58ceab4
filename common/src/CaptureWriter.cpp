//===- CaptureWriter.cpp - Byte-stable captures.json and sidecar text ----===//

#include "clcapture/format/CaptureWriter.h"

#include "clcapture/format/BlobStore.h"
#include "clcapture/format/GpuVerifyForm.h"
#include "clcapture/format/InstantiationValidation.h"
#include "clcapture/format/JsonEmitter.h"

namespace clcapture::format {

using Json = nlohmann::ordered_json;

namespace {

Json argumentJson(const KernelArgument &arg) {
  Json j;
  if (const auto *s = std::get_if<ScalarArgument>(&arg)) {
    j["type"] = "scalar";
    if (s->value)
      j["value"] = *s->value;
  } else if (const auto *a = std::get_if<ArrayArgument>(&arg)) {
    j["type"] = "array";
    if (a->size)
      j["size"] = *a->size;
    if (a->addressSpace)
      j["address_space"] = toString(*a->addressSpace);
    if (a->flags)
      j["flags"] = *a->flags;
    if (a->data)
      j["data"] = *a->data;
  } else if (std::holds_alternative<ImageArgument>(arg)) {
    j["type"] = "image";
  } else {
    j["type"] = "sampler";
  }
  return j;
}

std::string indentedRecord(const Json &j, int indent) {
  return std::string(static_cast<std::size_t>(indent), ' ') + emitJson(j, indent);
}

} // namespace

Json toJson(const Instantiation &exact) {
  // What GPUVerify's loader rejects is left out (the sidecar keeps it: keepExactFacts).
  const Instantiation inst = gpuverifyForm(exact);
  // Keys in the order GPUVerify's format documents them.
  Json j;
  j["language"] = inst.language;
  if (inst.endianness)
    j["endianness"] = toString(*inst.endianness);
  j["kernel_file"] = inst.kernelFile;
  if (inst.localSize)
    j["local_size"] = *inst.localSize;
  j["global_size"] = inst.globalSize;
  if (inst.globalOffset)
    j["global_offset"] = *inst.globalOffset;
  if (inst.compilerFlags)
    j["compiler_flags"] = *inst.compilerFlags;
  j["entry_point"] = inst.entryPoint;
  if (inst.kernelArguments) {
    Json args = Json::array();
    for (const auto &arg : *inst.kernelArguments)
      args.push_back(argumentJson(arg));
    j["kernel_arguments"] = std::move(args);
  }
  if (inst.hostApiCalls) {
    Json calls = Json::array();
    for (const auto &call : *inst.hostApiCalls)
      calls.push_back(Json{{"function_name", call.functionName},
                           {"compilation_unit", call.compilationUnit},
                           {"line_number", call.lineNumber}});
    j["host_api_calls"] = std::move(calls);
  }
  return j;
}

std::string serializeInstantiation(const Instantiation &inst, int indent) {
  return indentedRecord(toJson(inst), indent);
}

std::string serializeLaunchFacts(const LaunchFacts &facts, int indent) {
  return indentedRecord(toJson(facts), indent);
}

std::string serializeRecord(const Json &record, int indent) {
  return indentedRecord(record, indent);
}

std::string capturesHead() {
  return "[\n";
}
std::string capturesTail() {
  return "]\n";
}

std::string sidecarHead(const SidecarHeader &header) {
  // The header's members one per line, then the launches array left open for appending.
  Json h = toJson(header);
  std::string s = "{\n";
  for (const auto &[key, value] : h.items()) {
    std::string prefix = "  " + Json(key).dump() + ": ";
    s += prefix + emitJson(value, 2, prefix.size()) + ",\n";
  }
  return s + "  \"launches\": [\n";
}
std::string sidecarTail() {
  return "  ]\n}\n";
}

std::string serializeCaptures(const std::vector<Instantiation> &insts) {
  std::string s = capturesHead();
  for (std::size_t i = 0; i < insts.size(); ++i)
    s += serializeInstantiation(insts[i], 2) + (i + 1 < insts.size() ? ",\n" : "\n");
  return s + capturesTail();
}

std::string serializeSidecar(const Sidecar &sidecar) {
  std::string s = sidecarHead(sidecar.header);
  for (std::size_t i = 0; i < sidecar.launches.size(); ++i)
    s += serializeLaunchFacts(sidecar.launches[i], 4) + (i + 1 < sidecar.launches.size() ? ",\n" : "\n");
  return s + sidecarTail();
}

Status writeCapturesFile(const std::filesystem::path &path, const std::vector<Instantiation> &insts) {
  ReadOptions options;
  options.checkFiles = false;
  DiagnosticList problems;
  std::string name = path.filename().string();
  for (std::size_t i = 0; i < insts.size(); ++i) {
    // What is written is the GPUVerify form; the exact facts are the sidecar's (keepExactFacts).
    validateInstantiation(gpuverifyForm(insts[i]), i, name, options, nullptr, problems);
    if (auto problem = gpuverifyFormProblem(insts[i]))
      problems.add(Diagnostic{Severity::Error, name, {}, {}, i, "global_size", *problem});
  }
  if (problems.hasErrors())
    return fail("refusing to write an invalid capture:\n" + problems.text());
  std::string text = serializeCaptures(insts);
  return writeFileAtomically(path, text.data(), text.size());
}

Status writeSidecarFile(const std::filesystem::path &path, const Sidecar &sidecar) {
  std::string text = serializeSidecar(sidecar);
  return writeFileAtomically(path, text.data(), text.size());
}

} // namespace clcapture::format
