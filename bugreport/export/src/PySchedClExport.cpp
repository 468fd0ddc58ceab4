//===- PySchedClExport.cpp - A launch as a PySchedCL kernel specification --===//
//
// Each of the spec's fields from the capture: name (entry point), src (the source, copied beside the spec),
// workDimension, partition 10 (the whole NDRange on one device: a capture is one device's launch, and a
// split would be another launch), globalWorkSize, the buffer lists (bugreport/README.md's rule), scalars
// as numbers where their type is a built-in scalar, and local memory in elements. `break` is 0: clcapture
// does not know how the kernel maps work-items to buffer elements, so no buffer is declared partitionable.
//
//===----------------------------------------------------------------------===//

#include "clcapture/export/ElementBytes.h"
#include "clcapture/export/PySchedClSpec.h"
#include "clcapture/format/BlobStore.h"
#include "clcapture/format/CaptureWriter.h"
#include "clcapture/format/ScalarCodec.h"

#include <cmath>
#include <cstring>
#include <variant>

namespace clcapture::exporter {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

const std::vector<std::string> &seedSpecFields() {
  static const std::vector<std::string> fields{"name",
                                               "src",
                                               "workDimension",
                                               "partition",
                                               "globalWorkSize",
                                               "inputBuffers",
                                               "ioBuffers",
                                               "outputBuffers",
                                               "varArguments",
                                               "localArguments",
                                               "id"};
  return fields;
}

const std::vector<std::string> &specExtraFields() {
  static const std::vector<std::string> fields{"localWorkSize", "globalWorkOffset", "compilerFlags",
                                               "clcapture"};
  return fields;
}

namespace {

/// Copies `bytes` into outDir under its content hash; returns the file name.
format::Expected<std::string> writeBeside(const fs::path &outDir, const std::string &name,
                                          const std::string &bytes) {
  auto written = format::writeBlobOnce(outDir, name, bytes.data(), bytes.size());
  if (!written)
    return format::fail(written.error());
  return name;
}

format::Expected<std::string> copyData(const fs::path &from, const fs::path &outDir) {
  auto bytes = readFileBytes(from);
  if (!bytes)
    return format::fail(bytes.error());
  std::string name = fs::path(format::dataBlobName(bytes->data(), bytes->size())).filename().string();
  return writeBeside(outDir, name, *bytes);
}

std::string symbolFor(const ArgumentView &v, const char *suffix) {
  return (v.name ? *v.name : "arg" + std::to_string(v.index)) + suffix;
}

/// PySchedCL's spec (size, type) of an array of `bytes` bytes (or unknown): elements of the declared built-in
/// type when they divide the bytes, else uchar bytes.
std::pair<Json, std::string> sizeAndType(const ArgumentView &v, const std::optional<std::uint64_t> &bytes) {
  if (!bytes)
    return {symbolFor(v, "_size"), v.type ? v.type->specName() : std::string("uchar")};
  if (v.type && v.type->size() > 0 && *bytes % v.type->size() == 0)
    return {*bytes / v.type->size(), v.type->specName()};
  return {*bytes, "uchar"};
}

/// A scalar's value as a JSON number where its type is a built-in scalar type and the number is exact;
/// else the captured hex string (vectors, structs, half, NaN).
Json scalarValue(const ArgumentView &v, const std::string &captured, format::Endianness order) {
  if (!v.type || v.type->lanes != 1 || v.type->elementClass == ElementClass::Half)
    return captured;
  auto bytes = format::decodeScalar(captured, v.type->size(), order);
  if (!bytes)
    return captured;
  std::uint64_t bits = loadUnsigned(bytes->data(), bytes->size(), order);
  switch (v.type->elementClass) {
  case ElementClass::Signed:
    return signExtend(bits, v.type->elementSize);
  case ElementClass::Unsigned:
    return bits;
  case ElementClass::Float: {
    double d = 0;
    if (v.type->elementSize == 4) {
      auto narrow = static_cast<std::uint32_t>(bits);
      float f;
      std::memcpy(&f, &narrow, sizeof f);
      d = static_cast<double>(f);
    } else {
      std::memcpy(&d, &bits, sizeof d);
    }
    // JSON has no NaN or infinity; nlohmann writes the shortest digits that read back to the same double.
    return std::isfinite(d) ? Json(d) : Json(captured);
  }
  case ElementClass::Half:
    break;
  }
  return captured;
}

/// The sidecar's launch entry without what the spec says itself (and the import recomputes): the
/// instantiation index, the exact offset, local size and array sizes (keepExactFacts), the data_after
/// paths (the `dataAfter` extras).
Json launchEntry(const format::LaunchFacts &facts) {
  format::LaunchFacts f = facts;
  f.globalOffset.reset();
  f.localSize.reset();
  for (format::ArgumentFacts &a : f.arguments) {
    a.size.reset();
    a.dataAfter.reset();
  }
  Json j = format::toJson(f);
  j.erase("instantiation");
  return j;
}

} // namespace

format::Expected<SpecExport> exportSpec(const LaunchView &view, const format::Capture &capture,
                                        std::size_t position, const fs::path &folder,
                                        const fs::path &outDir) {
  const format::Instantiation &inst = *view.instantiation;
  std::size_t index = capture.captures.indices[position];
  SpecExport out;

  std::string suffix =
      inst.kernelFile.size() >= 7 && inst.kernelFile.compare(inst.kernelFile.size() - 7, 7, ".pre.cl") == 0
          ? ".pre.cl"
          : ".cl";
  std::string kernelName =
      fs::path(format::kernelFileName(inst.entryPoint, view.source, suffix)).filename().string();
  auto wroteKernel = writeBeside(outDir, kernelName, view.source);
  if (!wroteKernel)
    return format::fail(wroteKernel.error());

  Json inputs = Json::array(), ios = Json::array(), outputs = Json::array(), vars = Json::array(),
       locals = Json::array(), others = Json::array();
  std::vector<std::string> symbolic;
  for (const ArgumentView &v : view.arguments) {
    if (v.role == ArgumentRole::Image || v.role == ArgumentRole::Sampler) {
      others.push_back(Json{{"pos", v.index}, {"type", v.role == ArgumentRole::Image ? "image" : "sampler"}});
      continue;
    }
    if (const format::ScalarArgument *s = v.scalar()) {
      Json entry;
      entry["pos"] = v.index;
      entry["type"] = v.type                   ? v.type->specName()
                      : v.declaredType.empty() ? std::string("unknown")
                                               : v.declaredType;
      if (s->value) {
        entry["value"] = scalarValue(v, *s->value, view.endianness);
        entry["captured"] = *s->value;
      } else {
        entry["value"] = symbolFor(v, "");
        symbolic.push_back(v.label() + "'s value");
      }
      vars.push_back(std::move(entry));
      continue;
    }
    const format::ArrayArgument &a = *v.array();
    auto [size, type] = sizeAndType(v, a.size);
    if (!a.size)
      symbolic.push_back(v.label() + "'s size");
    Json entry;
    if (v.role == ArgumentRole::Local) {
      entry["pos"] = v.index;
      // PySchedCL eval()s a local argument's size, so it is a string.
      entry["size"] = size.is_string() ? size : Json(size.dump());
      entry["type"] = type;
      if (a.flags)
        entry["flags"] = *a.flags;
      locals.push_back(std::move(entry));
      continue;
    }
    entry["break"] = 0;
    entry["pos"] = v.index;
    entry["size"] = size;
    entry["type"] = type;
    if (a.addressSpace)
      entry["addressSpace"] = format::toString(*a.addressSpace);
    if (a.flags)
      entry["flags"] = *a.flags;
    if (a.data) {
      auto name = copyData(folder / *a.data, outDir);
      if (!name)
        return format::fail(v.label() + ": " + name.error());
      entry["data"] = *name;
    }
    if (v.facts && v.facts->dataAfter) {
      auto name = copyData(folder / *v.facts->dataAfter, outDir);
      if (!name)
        return format::fail(v.label() + ": " + name.error());
      entry["dataAfter"] = *name;
    }
    (v.use == BufferUse::Input    ? inputs
     : v.use == BufferUse::Output ? outputs
                                  : ios)
        .push_back(std::move(entry));
  }

  Json &spec = out.spec;
  spec["name"] = inst.entryPoint;
  spec["src"] = kernelName;
  spec["workDimension"] = inst.globalSize.size();
  spec["partition"] = 10;
  spec["globalWorkSize"] = pythonList(inst.globalSize);
  spec["inputBuffers"] = std::move(inputs);
  spec["ioBuffers"] = std::move(ios);
  spec["outputBuffers"] = std::move(outputs);
  spec["varArguments"] = std::move(vars);
  spec["localArguments"] = std::move(locals);
  spec["id"] = std::to_string(index) + "-" + inst.entryPoint;
  if (inst.localSize)
    spec["localWorkSize"] = pythonList(*inst.localSize);
  if (inst.globalOffset)
    spec["globalWorkOffset"] = pythonList(*inst.globalOffset);
  if (inst.compilerFlags)
    spec["compilerFlags"] = *inst.compilerFlags;

  Json extras;
  extras["format"] = "clcapture-pyschedcl";
  extras["version"] = kSpecExtrasVersion;
  extras["instantiation"] = index;
  extras["language"] = inst.language;
  if (inst.endianness)
    extras["endianness"] = format::toString(*inst.endianness);
  extras["argumentCount"] = inst.kernelArguments ? Json(inst.kernelArguments->size()) : Json(nullptr);
  if (!others.empty())
    extras["otherArguments"] = std::move(others);
  if (inst.hostApiCalls) {
    Json calls = Json::array();
    for (const format::HostApiCall &c : *inst.hostApiCalls)
      calls.push_back(Json{{"function_name", c.functionName},
                           {"compilation_unit", c.compilationUnit},
                           {"line_number", c.lineNumber}});
    extras["hostApiCalls"] = std::move(calls);
  }
  if (capture.sidecar)
    extras["meta"] = format::toJson(capture.sidecar->header);
  // null: the capture has no facts for this launch (a capture from another tool), and the import keeps it so.
  const format::LaunchFacts *facts = capture.factsFor(position);
  extras["launch"] = facts ? launchEntry(*facts) : Json(nullptr);
  spec["clcapture"] = std::move(extras);

  if (!symbolic.empty()) {
    std::string list;
    for (std::size_t i = 0; i < symbolic.size(); ++i)
      list += (i ? ", " : "") + symbolic[i];
    out.notes.push_back("not captured, so written as a name: " + list);
  }
  return out;
}

} // namespace clcapture::exporter
