//===- SidecarConverter.cpp - captures.meta.json into the typed model ----===//

#include "SidecarConverter.h"

#include "clcapture/format/CapturePath.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace clcapture::format::reader {

void SidecarConverter::keys(const Json &obj, const std::string &path, const std::set<std::string> &known) {
  // The sidecar is clcapture's own: later versions may add keys, so unknown ones are only warnings.
  for (const auto &item : obj.items())
    if (!known.count(item.key()))
      m_r.warning(join(path, item.key()), "unknown key; ignored");
}

const Json *SidecarConverter::get(const Json &obj, const std::string &path, const char *key, bool required) {
  auto it = obj.find(key);
  if (it != obj.end())
    return &*it;
  if (required)
    fail(join(path, key), "missing required key");
  return nullptr;
}

std::string SidecarConverter::str(const Json &obj, const std::string &path, const char *key, bool required) {
  const Json *v = get(obj, path, key, required);
  if (!v)
    return {};
  if (!v->is_string()) {
    fail(join(path, key), "expected a string, got " + describe(*v));
    return {};
  }
  return v->get<std::string>();
}

std::optional<std::string> SidecarConverter::optStr(const Json &obj, const std::string &path,
                                                    const char *key) {
  if (!obj.contains(key))
    return std::nullopt;
  return str(obj, path, key);
}

std::uint64_t SidecarConverter::num(const Json &obj, const std::string &path, const char *key,
                                    bool required) {
  const Json *v = get(obj, path, key, required);
  if (!v)
    return 0;
  if (!v->is_number_unsigned()) {
    fail(join(path, key), "expected a non-negative integer, got " + describe(*v));
    return 0;
  }
  return v->get<std::uint64_t>();
}

std::optional<std::uint64_t> SidecarConverter::optNum(const Json &obj, const std::string &path,
                                                      const char *key) {
  if (!obj.contains(key) || obj.at(key).is_null())
    return std::nullopt;
  return num(obj, path, key);
}

std::optional<Dims> SidecarConverter::optDims(const Json &obj, const std::string &path, const char *key,
                                              std::uint64_t min) {
  const Json *v = get(obj, path, key, false);
  if (!v)
    return std::nullopt;
  std::string p = join(path, key);
  if (!v->is_array() || v->empty() || v->size() > 3) {
    fail(p, "expected an array of 1 to 3 integers, got " + describe(*v));
    return std::nullopt;
  }
  Dims d;
  for (std::size_t i = 0; i < v->size(); ++i) {
    const Json &n = (*v)[i];
    if (!n.is_number_unsigned() || n.get<std::uint64_t>() < min) {
      fail(at(p, i), "expected an integer from " + std::to_string(min) + " to " + std::to_string(kMaxU64) +
                         ", got " + describe(n));
      return std::nullopt;
    }
    d.push_back(n.get<std::uint64_t>());
  }
  return d;
}

bool SidecarConverter::object(const Json &v, const std::string &path) {
  if (v.is_object())
    return true;
  fail(path, "expected an object, got " + describe(v));
  return false;
}

DeviceFacts SidecarConverter::device(const Json &v, const std::string &path) {
  DeviceFacts d;
  if (!object(v, path))
    return d;
  keys(v, path,
       {"name", "vendor", "version", "driver_version", "address_bits", "endianness",
        "non_uniform_work_groups"});
  d.name = str(v, path, "name");
  d.vendor = str(v, path, "vendor");
  d.version = str(v, path, "version");
  d.driverVersion = str(v, path, "driver_version", false);
  d.addressBits = static_cast<std::uint32_t>(num(v, path, "address_bits"));
  if (d.addressBits != 32 && d.addressBits != 64)
    fail(join(path, "address_bits"), "expected 32 or 64, got " + std::to_string(d.addressBits));
  std::string e = str(v, path, "endianness");
  if (auto parsed = parseEndianness(e))
    d.endianness = *parsed;
  else
    fail(join(path, "endianness"), "expected \"little\" or \"big\", got " + inQuotes(e));
  if (auto it = v.find("non_uniform_work_groups"); it != v.end()) {
    if (it->is_boolean())
      d.nonUniformWorkGroups = it->get<bool>();
    else
      fail(join(path, "non_uniform_work_groups"), "expected true or false");
  }
  return d;
}

ArgumentFacts SidecarConverter::argument(const Json &v, const std::string &path) {
  ArgumentFacts a;
  if (!object(v, path))
    return a;
  keys(v, path,
       {"index", "kind", "name", "type_name", "address_qualifier", "mem_object", "mem_flags", "sub_buffer",
        "svm", "data_skipped", "size", "data_after", "data_after_skipped", "image", "sampler"});
  a.index = static_cast<std::uint32_t>(num(v, path, "index"));
  std::string kind = str(v, path, "kind");
  if (auto parsed = parseArgumentKind(kind))
    a.kind = *parsed;
  else
    fail(join(path, "kind"), "unknown argument kind " + inQuotes(kind));
  a.name = optStr(v, path, "name");
  a.typeName = optStr(v, path, "type_name");
  a.addressQualifier = optStr(v, path, "address_qualifier");
  a.memObject = optNum(v, path, "mem_object");
  a.memFlags = optNum(v, path, "mem_flags");
  if (const Json *sb = get(v, path, "sub_buffer", false); sb && object(*sb, join(path, "sub_buffer"))) {
    std::string p = join(path, "sub_buffer");
    a.subBuffer = SubBufferFacts{num(*sb, p, "parent"), num(*sb, p, "origin")};
  }
  if (const Json *svm = get(v, path, "svm", false); svm && object(*svm, join(path, "svm"))) {
    std::string p = join(path, "svm");
    a.svm = SvmFacts{num(*svm, p, "allocation"), num(*svm, p, "offset")};
  }
  a.dataSkipped = optStr(v, path, "data_skipped");
  a.size = optNum(v, path, "size");
  a.dataAfter = optStr(v, path, "data_after");
  if (a.dataAfter)
    if (auto problem = lexicalPathProblem(*a.dataAfter))
      fail(join(path, "data_after"), *problem);
  a.dataAfterSkipped = optStr(v, path, "data_after_skipped");
  if (const Json *image = get(v, path, "image", false); image && object(*image, join(path, "image"))) {
    std::string p = join(path, "image");
    keys(*image, p, {"type", "width", "height", "depth", "array_size"});
    ImageFacts f;
    f.type = str(*image, p, "type");
    static const std::set<std::string> kTypes{"image1d", "image1d_buffer", "image1d_array",
                                              "image2d", "image2d_array",  "image3d"};
    if (!kTypes.count(f.type))
      fail(join(p, "type"), "unknown image type " + inQuotes(f.type));
    f.width = num(*image, p, "width");
    f.height = optNum(*image, p, "height").value_or(0);
    f.depth = optNum(*image, p, "depth").value_or(0);
    f.arraySize = optNum(*image, p, "array_size").value_or(0);
    a.image = f;
  }
  if (const Json *sampler = get(v, path, "sampler", false);
      sampler && object(*sampler, join(path, "sampler"))) {
    std::string p = join(path, "sampler");
    keys(*sampler, p, {"normalized_coords", "addressing", "filter"});
    SamplerFacts f;
    if (const Json *n = get(*sampler, p, "normalized_coords"); n && !n->is_boolean())
      fail(join(p, "normalized_coords"), "expected true or false");
    else if (n)
      f.normalizedCoords = n->get<bool>();
    std::string addressing = str(*sampler, p, "addressing");
    if (auto parsed = parseSamplerAddressing(addressing))
      f.addressing = *parsed;
    else
      fail(join(p, "addressing"), "unknown addressing mode " + inQuotes(addressing));
    std::string filter = str(*sampler, p, "filter");
    if (auto parsed = parseSamplerFilter(filter))
      f.filter = *parsed;
    else
      fail(join(p, "filter"), "unknown filter mode " + inQuotes(filter));
    a.sampler = f;
  }
  return a;
}

HostCallFacts SidecarConverter::hostCall(const Json &v, const std::string &path) {
  HostCallFacts c;
  if (!object(v, path))
    return c;
  keys(v, path,
       {"function_name", "argument", "module", "module_offset", "caller", "compilation_unit", "line_number"});
  c.functionName = str(v, path, "function_name");
  if (auto argument = optNum(v, path, "argument")) {
    if (*argument > UINT32_MAX)
      fail(join(path, "argument"), "expected an argument index, got " + std::to_string(*argument));
    c.argument = static_cast<std::uint32_t>(*argument);
  }
  c.module = str(v, path, "module");
  c.moduleOffset = num(v, path, "module_offset");
  c.caller = optStr(v, path, "caller");
  c.compilationUnit = optStr(v, path, "compilation_unit");
  c.lineNumber = optNum(v, path, "line_number");
  if (c.compilationUnit.has_value() != c.lineNumber.has_value())
    fail(join(path, c.lineNumber ? "compilation_unit" : "line_number"),
         "compilation_unit and line_number come together");
  return c;
}

void SidecarConverter::aliasGroups(const Json &aliases, const std::string &p, LaunchFacts &f) {
  bool shapeOk = aliases.is_array();
  for (std::size_t i = 0; shapeOk && i < aliases.size(); ++i) {
    const Json &group = aliases[i];
    if (!group.is_array() || group.size() < 2) {
      fail(at(p, i), "expected an array of at least two argument indices, got " + describe(group));
      shapeOk = false;
      break;
    }
    std::vector<std::uint32_t> members;
    for (std::size_t k = 0; k < group.size(); ++k) {
      if (!group[k].is_number_unsigned() || group[k].get<std::uint64_t>() >= f.arguments.size()) {
        fail(at(at(p, i), k), "expected an argument index below " + std::to_string(f.arguments.size()) +
                                  ", got " + describe(group[k]));
        shapeOk = false;
        break;
      }
      members.push_back(group[k].get<std::uint32_t>());
    }
    f.aliases.push_back(std::move(members));
  }
  if (!aliases.is_array())
    fail(p, "expected an array of index groups, got " + describe(aliases));
}

LaunchFacts SidecarConverter::launch(const Json &v, const std::string &path) {
  LaunchFacts f;
  if (!object(v, path))
    return f;
  keys(v, path,
       {"launch", "instantiation", "not_captured_reason", "enqueue_function", "kernel_name", "thread",
        "queue", "program", "program_origin", "build_options", "device", "arguments", "aliases", "host_calls",
        "global_offset", "local_size"});
  f.launch = num(v, path, "launch");
  if (!get(v, path, "instantiation"))
    return f;
  f.instantiation = optNum(v, path, "instantiation");
  f.notCapturedReason = optStr(v, path, "not_captured_reason");
  if (!f.instantiation && !f.notCapturedReason)
    fail(join(path, "not_captured_reason"), "a launch without an instantiation must say why");
  f.enqueueFunction = str(v, path, "enqueue_function");
  f.kernelName = str(v, path, "kernel_name");
  f.thread = num(v, path, "thread");
  f.queue = num(v, path, "queue");
  f.program = num(v, path, "program");
  std::string origin = str(v, path, "program_origin");
  if (auto parsed = parseProgramOrigin(origin))
    f.programOrigin = *parsed;
  else
    fail(join(path, "program_origin"), "unknown program origin " + inQuotes(origin));
  f.buildOptions = str(v, path, "build_options");
  if (const Json *dev = get(v, path, "device"))
    f.device = device(*dev, join(path, "device"));
  if (const Json *args = get(v, path, "arguments")) {
    if (!args->is_array())
      fail(join(path, "arguments"), "expected an array, got " + describe(*args));
    else
      for (std::size_t i = 0; i < args->size(); ++i)
        f.arguments.push_back(argument((*args)[i], at(join(path, "arguments"), i)));
  }
  if (const Json *aliases = get(v, path, "aliases"))
    aliasGroups(*aliases, join(path, "aliases"), f);
  if (const Json *calls = get(v, path, "host_calls", false)) {
    if (!calls->is_array())
      fail(join(path, "host_calls"), "expected an array, got " + describe(*calls));
    else
      for (std::size_t i = 0; i < calls->size(); ++i)
        f.hostCalls.push_back(hostCall((*calls)[i], at(join(path, "host_calls"), i)));
  }
  f.globalOffset = optDims(v, path, "global_offset", 0);
  f.localSize = optDims(v, path, "local_size", 1);
  return f;
}

void SidecarConverter::process(const Json &proc, ProcessFacts &p) {
  keys(proc, "process",
       {"executable", "pid", "parent_pid", "started_at", "command_line", "loader", "front_end"});
  p.executable = str(proc, "process", "executable");
  p.pid = num(proc, "process", "pid");
  p.parentPid = optNum(proc, "process", "parent_pid");
  p.startedAt = str(proc, "process", "started_at", false);
  if (const Json *cmd = get(proc, "process", "command_line", false)) {
    if (!cmd->is_array())
      fail("process.command_line", "expected an array of strings, got " + describe(*cmd));
    else
      for (std::size_t i = 0; i < cmd->size(); ++i) {
        if ((*cmd)[i].is_string())
          p.commandLine.push_back((*cmd)[i].get<std::string>());
        else
          fail("process.command_line[" + std::to_string(i) + "]",
               "expected a string, got " + describe((*cmd)[i]));
      }
  }
  p.loader = optStr(proc, "process", "loader");
  p.frontEnd = optStr(proc, "process", "front_end");
}

std::optional<Sidecar> SidecarConverter::sidecar(const Json &v) {
  if (!object(v, ""))
    return std::nullopt;
  keys(v, "", {"format", "format_version", "clcapture_version", "process", "launches"});
  Sidecar s;
  std::string format = str(v, "", "format");
  if (!format.empty() && format != "clcapture-meta") {
    fail("format", "expected \"clcapture-meta\", got " + inQuotes(format));
    return std::nullopt;
  }
  std::uint64_t version = num(v, "", "format_version");
  if (version > static_cast<std::uint64_t>(kSidecarFormatVersion)) {
    fail("format_version", "version " + std::to_string(version) +
                               " was written by a newer clcapture (this one reads " +
                               std::to_string(kSidecarFormatVersion) + ")");
    return std::nullopt;
  }
  s.header.formatVersion = static_cast<int>(version);
  s.header.clcaptureVersion = str(v, "", "clcapture_version");
  if (const Json *proc = get(v, "", "process"); proc && object(*proc, "process"))
    process(*proc, s.header.process);
  if (const Json *launches = get(v, "", "launches")) {
    if (!launches->is_array()) {
      fail("launches", "expected an array, got " + describe(*launches));
    } else {
      for (std::size_t i = 0; i < launches->size() && !m_r.list().full(); ++i)
        s.launches.push_back(launch((*launches)[i], at("launches", i)));
    }
  }
  if (!m_ok)
    return std::nullopt;
  return s;
}

} // namespace clcapture::format::reader
