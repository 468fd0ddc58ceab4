//===- InstantiationConverter.cpp - A captures.json record into the typed model -===//

#include "InstantiationConverter.h"

namespace clcapture::format::reader {

void InstantiationConverter::checkKeys(const Json &obj, const std::string &path,
                                       const std::set<std::string> &allowed, const std::string &where) {
  for (const auto &item : obj.items())
    if (!allowed.count(item.key())) {
      m_r.unknownKey(join(path, item.key()), where);
      if (m_r.options().strict)
        m_ok = false;
    }
}

const Json *InstantiationConverter::member(const Json &obj, const std::string &path, const char *key,
                                           bool required) {
  auto it = obj.find(key);
  if (it == obj.end()) {
    if (required)
      fail(join(path, key), "missing required key");
    return nullptr;
  }
  return &*it;
}

std::optional<std::string> InstantiationConverter::string(const Json &v, const std::string &path) {
  if (!v.is_string()) {
    fail(path, "expected a string, got " + describe(v));
    return std::nullopt;
  }
  return v.get<std::string>();
}

std::optional<std::uint64_t> InstantiationConverter::integer(const Json &v, const std::string &path,
                                                             std::uint64_t min) {
  if (v.is_number_unsigned()) {
    auto n = v.get<std::uint64_t>();
    if (n >= min)
      return n;
  }
  fail(path, "expected an integer from " + std::to_string(min) + " to " + std::to_string(kMaxU64) + ", got " +
                 describe(v));
  return std::nullopt;
}

std::optional<Dims> InstantiationConverter::dims(const Json &v, const std::string &path, std::uint64_t min) {
  if (!v.is_array()) {
    fail(path, "expected an array of 1 to 3 integers, got " + describe(v));
    return std::nullopt;
  }
  if (v.empty() || v.size() > 3) {
    fail(path, "expected 1 to 3 dimensions, got " + std::to_string(v.size()));
    return std::nullopt;
  }
  Dims d;
  for (std::size_t i = 0; i < v.size(); ++i) {
    auto n = integer(v[i], at(path, i), min);
    if (!n)
      return std::nullopt;
    d.push_back(*n);
  }
  return d;
}

std::optional<KernelArgument> InstantiationConverter::argument(const Json &v, const std::string &path) {
  if (!v.is_object()) {
    fail(path, "expected an object, got " + describe(v));
    return std::nullopt;
  }
  const Json *type = member(v, path, "type", true);
  if (!type)
    return std::nullopt;
  auto typeName = string(*type, join(path, "type"));
  if (!typeName)
    return std::nullopt;
  if (*typeName == "scalar") {
    checkKeys(v, path, {"type", "value"}, "a scalar argument");
    ScalarArgument s;
    if (const Json *value = member(v, path, "value", false))
      s.value = string(*value, join(path, "value"));
    return s;
  }
  if (*typeName == "array") {
    checkKeys(v, path, {"type", "size", "address_space", "flags", "data"}, "an array argument");
    ArrayArgument a;
    if (const Json *size = member(v, path, "size", false))
      a.size = integer(*size, join(path, "size"), 1);
    if (const Json *space = member(v, path, "address_space", false)) {
      if (auto name = string(*space, join(path, "address_space"))) {
        a.addressSpace = parseAddressSpace(*name);
        if (!a.addressSpace)
          fail(join(path, "address_space"),
               "expected \"global\", \"local\" or \"constant\", got " + describe(*space));
      }
    }
    if (const Json *flags = member(v, path, "flags", false)) {
      if (!flags->is_array()) {
        fail(join(path, "flags"), "expected an array of CL_MEM_* names, got " + describe(*flags));
      } else {
        a.flags.emplace();
        for (std::size_t i = 0; i < flags->size(); ++i)
          if (auto name = string((*flags)[i], at(join(path, "flags"), i)))
            a.flags->push_back(*name);
      }
    }
    if (const Json *data = member(v, path, "data", false))
      a.data = string(*data, join(path, "data"));
    return a;
  }
  if (*typeName == "image") {
    checkKeys(v, path, {"type"}, "an image argument");
    return ImageArgument{};
  }
  if (*typeName == "sampler") {
    checkKeys(v, path, {"type"}, "a sampler argument");
    return SamplerArgument{};
  }
  fail(join(path, "type"),
       "expected \"scalar\", \"array\", \"image\" or \"sampler\", got " + describe(*type));
  return std::nullopt;
}

std::optional<HostApiCall> InstantiationConverter::hostApiCall(const Json &v, const std::string &path) {
  if (!v.is_object()) {
    fail(path, "expected an object, got " + describe(v));
    return std::nullopt;
  }
  checkKeys(v, path, {"function_name", "compilation_unit", "line_number"}, "a host API call");
  HostApiCall call;
  const Json *fn = member(v, path, "function_name", true);
  const Json *cu = member(v, path, "compilation_unit", true);
  const Json *line = member(v, path, "line_number", true);
  if (fn)
    call.functionName = string(*fn, join(path, "function_name")).value_or("");
  if (cu)
    call.compilationUnit = string(*cu, join(path, "compilation_unit")).value_or("");
  if (line)
    call.lineNumber = integer(*line, join(path, "line_number"), 1).value_or(0);
  return call;
}

std::optional<Instantiation> InstantiationConverter::instantiation(const Json &v) {
  if (!v.is_object()) {
    fail("", "expected an object (a kernel instantiation), got " + describe(v));
    return std::nullopt;
  }
  checkKeys(v, "",
            {"language", "endianness", "kernel_file", "local_size", "global_size", "global_offset",
             "compiler_flags", "entry_point", "kernel_arguments", "host_api_calls"},
            "a kernel instantiation");
  Instantiation inst;
  if (const Json *lang = member(v, "", "language", true))
    inst.language = string(*lang, "language").value_or("");
  if (const Json *endian = member(v, "", "endianness", false)) {
    if (auto name = string(*endian, "endianness")) {
      inst.endianness = parseEndianness(*name);
      if (!inst.endianness)
        fail("endianness", "expected \"little\" or \"big\", got " + describe(*endian));
    }
  }
  if (const Json *file = member(v, "", "kernel_file", true))
    inst.kernelFile = string(*file, "kernel_file").value_or("");
  if (const Json *local = member(v, "", "local_size", false))
    inst.localSize = dims(*local, "local_size", 1);
  if (const Json *global = member(v, "", "global_size", true))
    inst.globalSize = dims(*global, "global_size", 1).value_or(Dims{});
  if (const Json *offset = member(v, "", "global_offset", false))
    inst.globalOffset = dims(*offset, "global_offset", 0);
  if (const Json *flags = member(v, "", "compiler_flags", false))
    inst.compilerFlags = string(*flags, "compiler_flags");
  if (const Json *entry = member(v, "", "entry_point", true))
    inst.entryPoint = string(*entry, "entry_point").value_or("");
  if (const Json *args = member(v, "", "kernel_arguments", false)) {
    if (!args->is_array()) {
      fail("kernel_arguments", "expected an array of kernel arguments, got " + describe(*args));
    } else {
      inst.kernelArguments.emplace();
      for (std::size_t i = 0; i < args->size(); ++i)
        if (auto arg = argument((*args)[i], at("kernel_arguments", i)))
          inst.kernelArguments->push_back(std::move(*arg));
    }
  }
  if (const Json *calls = member(v, "", "host_api_calls", false)) {
    if (!calls->is_array()) {
      fail("host_api_calls", "expected an array of host API calls, got " + describe(*calls));
    } else {
      inst.hostApiCalls.emplace();
      for (std::size_t i = 0; i < calls->size(); ++i)
        if (auto call = hostApiCall((*calls)[i], at("host_api_calls", i)))
          inst.hostApiCalls->push_back(std::move(*call));
    }
  }
  if (!m_ok)
    return std::nullopt;
  return inst;
}

} // namespace clcapture::format::reader
