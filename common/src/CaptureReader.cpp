//===- CaptureReader.cpp - Load and validate captures.json and its sidecar -===//
//
// Two passes per record: conversion (JSON types → typed model, with key paths) and validation (the seed's
// rules on the model). Validation is shared with the writer, so nothing the writer emits can fail to load.
//
//===----------------------------------------------------------------------===//

#include "clcapture/format/CaptureReader.h"

#include "clcapture/format/CaptureBlobs.h"
#include "clcapture/format/CapturePath.h"
#include "clcapture/format/GpuVerifyForm.h"
#include "clcapture/format/JsonArrayFile.h"
#include "clcapture/format/MemFlags.h"
#include "clcapture/format/ScalarCodec.h"
#include "clcapture/format/SidecarRepeats.h"

#include <fstream>
#include <functional>
#include <future>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace clcapture::format {

namespace fs = std::filesystem;

bool allowsNonUniformWorkGroups(const Instantiation &inst) {
  const std::string flags = inst.compilerFlags.value_or("");
  bool uniform = flags.find("-cl-uniform-work-group-size") != std::string::npos;
  bool cl2OrLater = false;
  for (const char *std : {"-cl-std=CL2", "-cl-std=CL3", "-cl-std=cl2", "-cl-std=cl3", "-cl-std=CLC++"})
    cl2OrLater = cl2OrLater || flags.find(std) != std::string::npos;
  return cl2OrLater && !uniform;
}
using Json = nlohmann::json;

namespace {

constexpr std::uint64_t kMaxU64 = std::numeric_limits<std::uint64_t>::max();

/// "got …" text for a JSON value: strings quoted, numbers as written, containers by kind.
std::string describe(const Json &v) {
  switch (v.type()) {
  case Json::value_t::object:
    return "an object";
  case Json::value_t::array:
    return "an array";
  case Json::value_t::null:
    return "null";
  case Json::value_t::string: {
    std::string s = v.dump(-1, ' ', false, Json::error_handler_t::replace);
    return s.size() > 60 ? s.substr(0, 57) + "...\"" : s;
  }
  default:
    return v.dump(-1, ' ', false, Json::error_handler_t::replace);
  }
}

std::string inQuotes(std::string_view s) {
  return "\"" + std::string(s) + "\"";
}

/// Line and column (1-based) of a byte offset.
std::pair<std::size_t, std::size_t> lineColumn(std::string_view text, std::size_t offset) {
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

bool isIdentifier(std::string_view s) {
  if (s.empty())
    return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    bool digit = c >= '0' && c <= '9';
    if (!(alpha || (i > 0 && digit)))
      return false;
  }
  return true;
}

/// What the file system says of each file a capture names, asked once per file however many records name
/// it (a launch-heavy capture names one kernel file 64,000 times).
struct FileFacts {
  std::optional<std::string> problem; ///< containedFileProblem
  std::optional<std::uintmax_t> size;
};
using FileChecks = std::map<std::string, FileFacts>;

/// Reports diagnostics about one file (and, when set, one record of it).
class Reporter {
public:
  Reporter(DiagnosticList &out, std::string file, const ReadOptions &options)
      : m_out(out), m_file(std::move(file)), m_options(options) {}

  void setInstantiation(std::optional<std::size_t> index) { m_instantiation = index; }
  void error(const std::string &key, std::string message) { add(Severity::Error, key, std::move(message)); }
  void warning(const std::string &key, std::string message) {
    add(Severity::Warning, key, std::move(message));
  }
  /// Unknown keys: errors in strict mode (GPUVerify's loader rejects them), otherwise warnings.
  void unknownKey(const std::string &key, const std::string &where) {
    std::string message = "unknown key " + inQuotes(key.substr(key.rfind('.') + 1)) + " in " + where;
    if (m_options.strict)
      error(key, std::move(message));
    else
      warning(key, std::move(message) + "; ignored");
  }
  const ReadOptions &options() const { return m_options; }
  const std::string &file() const { return m_file; }
  DiagnosticList &list() { return m_out; }
  /// Where file checks are remembered across records (null: not remembered).
  void setFileChecks(FileChecks *checks) { m_fileChecks = checks; }
  FileChecks *fileChecks() const { return m_fileChecks; }

private:
  void add(Severity severity, const std::string &key, std::string message) {
    Diagnostic d;
    d.severity = severity;
    d.file = m_file;
    d.instantiation = m_instantiation;
    d.keyPath = key;
    d.message = std::move(message);
    m_out.add(std::move(d));
  }

  DiagnosticList &m_out;
  std::string m_file;
  const ReadOptions &m_options;
  std::optional<std::size_t> m_instantiation;
  FileChecks *m_fileChecks = nullptr;
};

std::string join(const std::string &path, const std::string &key) {
  return path.empty() ? key : path + "." + key;
}
std::string at(const std::string &path, std::size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

//===--- conversion: JSON types into the model ---------------------------===//

/// What both converters share: errors go to the reporter and mark the conversion as failed.
class ConverterBase {
public:
  explicit ConverterBase(Reporter &r) : m_r(r) {}
  bool ok() const { return m_ok; }

protected:
  void fail(const std::string &path, std::string message) {
    m_r.error(path, std::move(message));
    m_ok = false;
  }
  Reporter &m_r;
  bool m_ok = true;
};

class Converter : public ConverterBase {
public:
  using ConverterBase::ConverterBase;

  void checkKeys(const Json &obj, const std::string &path, const std::set<std::string> &allowed,
                 const std::string &where) {
    for (const auto &item : obj.items())
      if (!allowed.count(item.key())) {
        m_r.unknownKey(join(path, item.key()), where);
        if (m_r.options().strict)
          m_ok = false;
      }
  }

  const Json *member(const Json &obj, const std::string &path, const char *key, bool required) {
    auto it = obj.find(key);
    if (it == obj.end()) {
      if (required)
        fail(join(path, key), "missing required key");
      return nullptr;
    }
    return &*it;
  }

  std::optional<std::string> string(const Json &v, const std::string &path) {
    if (!v.is_string()) {
      fail(path, "expected a string, got " + describe(v));
      return std::nullopt;
    }
    return v.get<std::string>();
  }

  std::optional<std::uint64_t> integer(const Json &v, const std::string &path, std::uint64_t min) {
    if (v.is_number_unsigned()) {
      auto n = v.get<std::uint64_t>();
      if (n >= min)
        return n;
    }
    fail(path, "expected an integer from " + std::to_string(min) + " to " + std::to_string(kMaxU64) +
                   ", got " + describe(v));
    return std::nullopt;
  }

  std::optional<Dims> dims(const Json &v, const std::string &path, std::uint64_t min) {
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

  std::optional<KernelArgument> argument(const Json &v, const std::string &path) {
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

  std::optional<HostApiCall> hostApiCall(const Json &v, const std::string &path) {
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

  std::optional<Instantiation> instantiation(const Json &v) {
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
};

//===--- validation: the seed's rules on the model -----------------------===//

void validateDims(const Instantiation &inst, Reporter &r) {
  // (OpenCL 2.0 §5.8: a global size that is not a multiple of the local size gives a smaller last group,
  // unless the program was built with -cl-uniform-work-group-size; see allowsNonUniformWorkGroups.)
  const Dims &g = inst.globalSize;
  if (g.empty() || g.size() > 3) {
    r.error("global_size", "expected 1 to 3 dimensions, got " + std::to_string(g.size()));
    return;
  }
  std::uint64_t product = 1;
  for (std::size_t i = 0; i < g.size(); ++i) {
    if (g[i] == 0) {
      r.error(at("global_size", i), "expected an integer from 1 to " + std::to_string(kMaxU64) + ", got 0");
      return;
    }
    if (product > kMaxU64 / g[i]) {
      r.error("global_size", "the total number of work-items overflows 64 bits");
      return;
    }
    product *= g[i];
  }
  if (inst.localSize) {
    const Dims &l = *inst.localSize;
    if (l.size() != g.size()) {
      r.error("local_size", "has " + std::to_string(l.size()) + " dimensions but global_size has " +
                                std::to_string(g.size()));
    } else {
      for (std::size_t i = 0; i < l.size(); ++i) {
        if (l[i] == 0) {
          r.error(at("local_size", i),
                  "expected an integer from 1 to " + std::to_string(kMaxU64) + ", got 0");
        } else if (l[i] > g[i]) {
          r.error(at("local_size", i),
                  "local size " + std::to_string(l[i]) + " exceeds global size " + std::to_string(g[i]));
        } else if (g[i] % l[i] != 0 && !r.options().allowNonUniformWorkGroups &&
                   !allowsNonUniformWorkGroups(inst)) {
          r.error(at("local_size", i), "global_size[" + std::to_string(i) + "] (" + std::to_string(g[i]) +
                                           ") is not a multiple of local_size[" + std::to_string(i) + "] (" +
                                           std::to_string(l[i]) + ")");
        }
      }
    }
  }
  if (inst.globalOffset) {
    const Dims &o = *inst.globalOffset;
    if (o.size() != g.size()) {
      r.error("global_offset", "has " + std::to_string(o.size()) + " dimensions but global_size has " +
                                   std::to_string(g.size()));
    } else {
      for (std::size_t i = 0; i < o.size(); ++i)
        if (o[i] > kMaxU64 - g[i])
          r.error(at("global_offset", i), "offset " + std::to_string(o[i]) + " plus global size " +
                                              std::to_string(g[i]) + " overflows 64 bits");
    }
  }
}

void validateFlags(const std::vector<std::string> &flags, const std::string &path, Reporter &r) {
  std::uint64_t bits = 0;
  for (std::size_t i = 0; i < flags.size(); ++i) {
    auto bit = memFlagBit(flags[i]);
    if (!bit) {
      r.error(at(path, i), "unknown memory flag " + inQuotes(flags[i]) + " (expected a CL_MEM_* name)");
      continue;
    }
    if (bits & *bit)
      r.error(at(path, i), "flag " + inQuotes(flags[i]) + " is given twice");
    bits |= *bit;
  }
  // OpenCL 3.0 API §5.2.1: these groups are mutually exclusive.
  auto count = [&](std::initializer_list<const char *> names) {
    int n = 0;
    for (const char *name : names)
      if (bits & *memFlagBit(name))
        ++n;
    return n;
  };
  if (count({"CL_MEM_READ_WRITE", "CL_MEM_WRITE_ONLY", "CL_MEM_READ_ONLY"}) > 1)
    r.error(path, "CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY and CL_MEM_READ_ONLY are mutually exclusive");
  if (count({"CL_MEM_HOST_WRITE_ONLY", "CL_MEM_HOST_READ_ONLY", "CL_MEM_HOST_NO_ACCESS"}) > 1)
    r.error(path,
            "CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY and CL_MEM_HOST_NO_ACCESS are mutually exclusive");
  if (count({"CL_MEM_USE_HOST_PTR", "CL_MEM_ALLOC_HOST_PTR"}) > 1)
    r.error(path, "CL_MEM_USE_HOST_PTR and CL_MEM_ALLOC_HOST_PTR are mutually exclusive");
  if (count({"CL_MEM_USE_HOST_PTR", "CL_MEM_COPY_HOST_PTR"}) > 1)
    r.error(path, "CL_MEM_USE_HOST_PTR and CL_MEM_COPY_HOST_PTR are mutually exclusive");
}

void validateFile(const std::string &relative, const std::string &path, const fs::path *baseDir, Reporter &r,
                  std::optional<std::uint64_t> expectedSize = std::nullopt) {
  if (auto problem = lexicalPathProblem(relative)) {
    r.error(path, *problem);
    return;
  }
  if (!baseDir || !r.options().checkFiles)
    return;
  FileFacts asked;
  FileFacts *facts = &asked;
  bool ask = true;
  if (FileChecks *checks = r.fileChecks()) {
    auto [it, inserted] = checks->try_emplace(relative);
    facts = &it->second;
    ask = inserted;
  }
  if (ask) {
    std::error_code ec;
    if (fs::symlink_status(*baseDir / relative, ec).type() == fs::file_type::not_found) {
      // Not a loose file: a blob from one of the folder's packs (CaptureBlobs.h), whose pack must lie inside.
      CaptureBlobs &blobs = CaptureBlobs::of(*baseDir);
      auto where = blobs.packed(relative);
      if (!where)
        facts->problem = "file " + inQuotes(relative) + " does not exist in " + baseDir->string() +
                         (relative.rfind("data/", 0) == 0 ? " (neither as a file nor in a pack of data/)" : "");
      else if (auto problem = blobs.packProblem(*where))
        facts->problem = *problem;
      else
        facts->size = where->blob.size;
    } else {
      facts->problem = containedFileProblem(*baseDir, relative);
      auto size = fs::file_size(*baseDir / relative, ec);
      if (!facts->problem && !ec)
        facts->size = size;
    }
  }
  if (facts->problem) {
    r.error(path, *facts->problem);
    return;
  }
  if (expectedSize && facts->size && *facts->size != *expectedSize)
    r.error(path, "file " + inQuotes(relative) + " holds " + std::to_string(*facts->size) +
                      " bytes but size is " + std::to_string(*expectedSize));
}

void validateArgument(const KernelArgument &arg, const std::string &path, const fs::path *baseDir,
                      Reporter &r) {
  if (const auto *s = std::get_if<ScalarArgument>(&arg)) {
    if (s->value && !isHexValue(*s->value))
      r.error(join(path, "value"), "expected a hex string starting with 0x, got " + inQuotes(*s->value));
    return;
  }
  const auto *a = std::get_if<ArrayArgument>(&arg);
  if (!a)
    return;
  if (a->size && *a->size == 0)
    r.error(join(path, "size"), "expected an integer from 1 to " + std::to_string(kMaxU64) + ", got 0");
  if (a->flags)
    validateFlags(*a->flags, join(path, "flags"), r);
  if (!a->data)
    return;
  if (a->addressSpace == AddressSpace::Local) {
    r.error(join(path, "data"), "a local array has no contents at launch; data must be absent");
    return;
  }
  validateFile(*a->data, join(path, "data"), baseDir, r, a->size);
}

} // namespace

namespace {

void validateInstantiation(const Instantiation &inst, std::size_t index, std::string_view displayName,
                           const ReadOptions &options, const fs::path *baseDir, DiagnosticList &out,
                           FileChecks *checks);

} // namespace

void validateInstantiation(const Instantiation &inst, std::size_t index, std::string_view displayName,
                           const ReadOptions &options, const fs::path *baseDir, DiagnosticList &out) {
  validateInstantiation(inst, index, displayName, options, baseDir, out, nullptr);
}

namespace {

void validateInstantiation(const Instantiation &inst, std::size_t index, std::string_view displayName,
                           const ReadOptions &options, const fs::path *baseDir, DiagnosticList &out,
                           FileChecks *checks) {
  Reporter r(out, std::string(displayName), options);
  r.setInstantiation(index);
  r.setFileChecks(checks);
  if (inst.language != "OpenCL")
    r.error("language", "expected \"OpenCL\", got " + inQuotes(inst.language));
  validateFile(inst.kernelFile, "kernel_file", baseDir, r);
  validateDims(inst, r);
  if (!isIdentifier(inst.entryPoint))
    r.error("entry_point", "expected a kernel name (an identifier), got " + inQuotes(inst.entryPoint));
  if (inst.kernelArguments)
    for (std::size_t i = 0; i < inst.kernelArguments->size(); ++i)
      validateArgument((*inst.kernelArguments)[i], at("kernel_arguments", i), baseDir, r);
  if (inst.hostApiCalls) {
    for (std::size_t i = 0; i < inst.hostApiCalls->size(); ++i) {
      const HostApiCall &call = (*inst.hostApiCalls)[i];
      std::string path = at("host_api_calls", i);
      if (call.functionName.empty())
        r.error(join(path, "function_name"), "must not be empty");
      if (call.compilationUnit.empty())
        r.error(join(path, "compilation_unit"), "must not be empty");
      if (call.lineNumber == 0)
        r.error(join(path, "line_number"),
                "expected an integer from 1 to " + std::to_string(kMaxU64) + ", got 0");
    }
  }
}

/// Called for each record (an element of the array at the record depth) as soon as the parser has it, in
/// file order; the record is then dropped from the tree, so a file of 64,000 launches is never held as one
/// tree (issue 13). `restart` is called before the text is parsed again (a cut-short file is parsed a
/// second time, up to its last complete record): the records seen so far are to be forgotten.
struct RecordStream {
  std::function<void(Json &record)> record;
  std::function<void()> restart;
  /// The sidecar's records are the elements of its `launches` array; captures.json's, of the top array.
  std::string underKey;
};

/// Parses `text`, recovering a cut-short file when allowed. Returns nullopt after reporting a fatal error.
/// With `stream`, the records are handed to it instead of being kept in the returned tree.
std::optional<Json> parseJsonText(std::string_view text, int recordDepth, Reporter &r,
                                  const ReadOptions &options, bool &truncated, RecordStream *stream = nullptr) {
  truncated = false;
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    if (options.recoverTruncated) {
      // The process died before the file's first write completed: nothing was recorded.
      truncated = true;
      r.warning("", "file is empty (the application stopped before anything was recorded)");
      return std::nullopt;
    }
    r.error("", "file is empty");
    return std::nullopt;
  }
  // nlohmann's depths: the top value is 0, its keys and elements 1, and so on; a record is a value at
  // recordDepth (under `underKey` when there is one).
  std::string key;
  bool inRecords = false; // inside the array that holds the records
  Json::parser_callback_t callback = [&](int depth, Json::parse_event_t event, Json &parsed) {
    if (depth == recordDepth - 1) {
      if (event == Json::parse_event_t::key)
        key = parsed.get<std::string>();
      else if (event == Json::parse_event_t::array_start)
        inRecords = stream->underKey.empty() || key == stream->underKey;
      else if (event == Json::parse_event_t::array_end)
        inRecords = false;
      return true;
    }
    bool whole = event == Json::parse_event_t::object_end || event == Json::parse_event_t::array_end ||
                 event == Json::parse_event_t::value;
    if (depth != recordDepth || !whole || !inRecords)
      return true;
    stream->record(parsed);
    return false;
  };
  auto parse = [&](std::string_view json) {
    key.clear();
    inRecords = false;
    return stream ? Json::parse(json.begin(), json.end(), callback) : Json::parse(json.begin(), json.end());
  };
  try {
    return parse(text);
  } catch (const Json::parse_error &e) {
    bool atEnd = e.byte >= text.size();
    if (atEnd && options.recoverTruncated) {
      if (auto recovered = recoverTruncatedJson(text, recordDepth)) {
        try {
          if (stream)
            stream->restart();
          Json j = parse(recovered->text);
          truncated = true;
          r.warning("", "file ends mid-record (the application was killed while writing); recovered the " +
                            std::to_string(recovered->records) + " complete record" +
                            (recovered->records == 1 ? "" : "s") + " before byte " +
                            std::to_string(recovered->cutOffset));
          return j;
        } catch (const Json::exception &) {
          // Fall through: not merely truncated.
        }
      }
    }
    if (stream)
      stream->restart();
    auto [line, column] = lineColumn(text, e.byte == 0 ? 0 : e.byte - 1);
    Diagnostic d;
    d.file = r.file();
    d.line = line;
    d.column = column;
    std::string what = e.what();
    // nlohmann's text is "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error …".
    auto colon = what.find(": ");
    d.message = "invalid JSON: " + (colon == std::string::npos ? what : what.substr(colon + 2));
    r.list().add(std::move(d));
    return std::nullopt;
  } catch (const Json::exception &e) {
    if (stream)
      stream->restart();
    // e.g. out_of_range.406: a number too large even for a double. nlohmann gives no position here.
    std::string what = e.what();
    auto bracket = what.find("] ");
    r.error("", "invalid JSON: " + (bracket == std::string::npos ? what : what.substr(bracket + 2)));
    return std::nullopt;
  }
}

std::optional<std::string> readWholeFile(const fs::path &path, std::string &error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::error_code ec;
    error = fs::exists(path, ec) ? "cannot read the file" : "file does not exist";
    return std::nullopt;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

} // namespace

bool CaptureSet::hasErrors() const {
  return containsErrors(diagnostics);
}

std::string CaptureSet::diagnosticsText() const {
  std::string s;
  for (const auto &d : diagnostics)
    s += d.str() + '\n';
  return s;
}

CaptureSet parseCaptures(std::string_view text, std::string_view displayName, const ReadOptions &options,
                         const fs::path *baseDir) {
  CaptureSet set;
  DiagnosticList list(options.maxErrors);
  Reporter r(list, std::string(displayName), options);
  // Records are converted as the parser completes them; their diagnostics wait in `records` until the
  // parse is over, so that the file's own problems (a cut) come first and a failed parse leaves none.
  DiagnosticList records(options.maxErrors);
  Reporter recordReporter(records, std::string(displayName), options);
  std::size_t count = 0;
  FileChecks checks;
  RecordStream stream;
  stream.record = [&](Json &record) {
    std::size_t i = count++;
    if (records.full())
      return;
    recordReporter.setInstantiation(i);
    Converter convert(recordReporter);
    auto inst = convert.instantiation(record);
    if (!inst)
      return;
    std::size_t before = records.errorCount();
    validateInstantiation(*inst, i, displayName, options, baseDir, records, &checks);
    if (records.errorCount() != before)
      return;
    set.instantiations.push_back(std::move(*inst));
    set.indices.push_back(i);
  };
  stream.restart = [&] {
    count = 0;
    records = DiagnosticList(options.maxErrors);
    set.instantiations.clear();
    set.indices.clear();
  };
  if (auto json = parseJsonText(text, 1, r, options, set.truncated, &stream)) {
    if (!json->is_array()) {
      stream.restart();
      r.error("", "expected an array of kernel instantiations, got " + describe(*json));
    } else {
      set.recordCount = count;
    }
  }
  for (Diagnostic &d : records.take())
    list.add(std::move(d));
  // Damaged pack records (BlobPack.h): a blob they held is reported missing above; say why.
  if (baseDir && options.checkFiles)
    for (const auto &[pack, message] : CaptureBlobs::of(*baseDir).warnings())
      list.add(Diagnostic{Severity::Warning, pack.string(), {}, {}, {}, {}, message});
  set.diagnostics = list.take();
  return set;
}

CaptureSet readCapturesFile(const fs::path &path, const ReadOptions &options) {
  std::string error;
  auto text = readWholeFile(path, error);
  if (!text) {
    CaptureSet set;
    set.diagnostics.push_back(Diagnostic{Severity::Error, path.string(), {}, {}, {}, {}, error});
    return set;
  }
  fs::path base = path.parent_path().empty() ? fs::path(".") : path.parent_path();
  return parseCaptures(*text, path.string(), options, &base);
}

//===--- sidecar ---------------------------------------------------------===//

namespace {

class SidecarConverter : public ConverterBase {
public:
  using ConverterBase::ConverterBase;

  void keys(const Json &obj, const std::string &path, const std::set<std::string> &known) {
    // The sidecar is clcapture's own: later versions may add keys, so unknown ones are only warnings.
    for (const auto &item : obj.items())
      if (!known.count(item.key()))
        m_r.warning(join(path, item.key()), "unknown key; ignored");
  }

  const Json *get(const Json &obj, const std::string &path, const char *key, bool required = true) {
    auto it = obj.find(key);
    if (it != obj.end())
      return &*it;
    if (required)
      fail(join(path, key), "missing required key");
    return nullptr;
  }

  std::string str(const Json &obj, const std::string &path, const char *key, bool required = true) {
    const Json *v = get(obj, path, key, required);
    if (!v)
      return {};
    if (!v->is_string()) {
      fail(join(path, key), "expected a string, got " + describe(*v));
      return {};
    }
    return v->get<std::string>();
  }

  std::optional<std::string> optStr(const Json &obj, const std::string &path, const char *key) {
    if (!obj.contains(key))
      return std::nullopt;
    return str(obj, path, key);
  }

  std::uint64_t num(const Json &obj, const std::string &path, const char *key, bool required = true) {
    const Json *v = get(obj, path, key, required);
    if (!v)
      return 0;
    if (!v->is_number_unsigned()) {
      fail(join(path, key), "expected a non-negative integer, got " + describe(*v));
      return 0;
    }
    return v->get<std::uint64_t>();
  }

  std::optional<std::uint64_t> optNum(const Json &obj, const std::string &path, const char *key) {
    if (!obj.contains(key) || obj.at(key).is_null())
      return std::nullopt;
    return num(obj, path, key);
  }

  /// An array of 1 to 3 integers from `min`, or nullopt when the key is absent (or after an error).
  std::optional<Dims> optDims(const Json &obj, const std::string &path, const char *key, std::uint64_t min) {
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

  bool object(const Json &v, const std::string &path) {
    if (v.is_object())
      return true;
    fail(path, "expected an object, got " + describe(v));
    return false;
  }

  DeviceFacts device(const Json &v, const std::string &path) {
    DeviceFacts d;
    if (!object(v, path))
      return d;
    keys(v, path, {"name", "vendor", "version", "driver_version", "address_bits", "endianness"});
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
    return d;
  }

  ArgumentFacts argument(const Json &v, const std::string &path) {
    ArgumentFacts a;
    if (!object(v, path))
      return a;
    keys(v, path,
         {"index", "kind", "name", "type_name", "address_qualifier", "mem_object", "mem_flags", "sub_buffer",
          "svm", "data_skipped", "size", "data_after", "data_after_skipped"});
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
    return a;
  }

  HostCallFacts hostCall(const Json &v, const std::string &path) {
    HostCallFacts c;
    if (!object(v, path))
      return c;
    keys(v, path,
         {"function_name", "argument", "module", "module_offset", "caller", "compilation_unit",
          "line_number"});
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

  LaunchFacts launch(const Json &v, const std::string &path) {
    LaunchFacts f;
    if (!object(v, path))
      return f;
    keys(v, path,
         {"launch", "instantiation", "not_captured_reason", "enqueue_function", "kernel_name", "thread",
          "queue", "program", "program_origin", "build_options", "device", "arguments", "aliases",
          "host_calls", "global_offset", "local_size"});
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
    if (const Json *aliases = get(v, path, "aliases")) {
      std::string p = join(path, "aliases");
      bool shapeOk = aliases->is_array();
      for (std::size_t i = 0; shapeOk && i < aliases->size(); ++i) {
        const Json &group = (*aliases)[i];
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
      if (!aliases->is_array())
        fail(p, "expected an array of index groups, got " + describe(*aliases));
    }
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

  std::optional<Sidecar> sidecar(const Json &v) {
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
    if (const Json *proc = get(v, "", "process"); proc && object(*proc, "process")) {
      keys(*proc, "process", {"executable", "pid", "started_at", "command_line", "loader", "front_end"});
      s.header.process.executable = str(*proc, "process", "executable");
      s.header.process.pid = num(*proc, "process", "pid");
      s.header.process.startedAt = str(*proc, "process", "started_at", false);
      if (const Json *cmd = get(*proc, "process", "command_line", false)) {
        if (!cmd->is_array())
          fail("process.command_line", "expected an array of strings, got " + describe(*cmd));
        else
          for (std::size_t i = 0; i < cmd->size(); ++i) {
            if ((*cmd)[i].is_string())
              s.header.process.commandLine.push_back((*cmd)[i].get<std::string>());
            else
              fail("process.command_line[" + std::to_string(i) + "]",
                   "expected a string, got " + describe((*cmd)[i]));
          }
      }
      s.header.process.loader = optStr(*proc, "process", "loader");
      s.header.process.frontEnd = optStr(*proc, "process", "front_end");
    }
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
};

} // namespace

bool SidecarSet::hasErrors() const {
  return containsErrors(diagnostics);
}

SidecarSet parseSidecar(std::string_view text, std::string_view displayName, const ReadOptions &options) {
  SidecarSet set;
  DiagnosticList list(options.maxErrors);
  Reporter r(list, std::string(displayName), options);
  // Launch entries are expanded (repeats) and converted as the parser completes them: a launch-heavy
  // capture's sidecar is small on disk but would expand to a tree of every launch's facts.
  DiagnosticList records(options.maxErrors);
  Reporter recordReporter(records, std::string(displayName), options);
  std::optional<SidecarConverter> launchConverter(std::in_place, recordReporter);
  std::optional<RepeatExpander> expander(std::in_place);
  std::vector<LaunchFacts> launches;
  std::size_t count = 0;
  RecordStream stream;
  stream.underKey = "launches";
  // Each slot's facts as converted last: a repeat that changes only the numbers is a copy with new numbers
  // (64,000 launches of a loop are then never expanded and converted one by one).
  std::map<std::uint64_t, LaunchFacts> slotFacts;
  stream.record = [&](Json &entry) {
    std::size_t i = count++;
    if (records.full())
      return;
    if (auto slot = expander->renumber(entry)) {
      if (auto known = slotFacts.find(*slot); known != slotFacts.end()) {
        LaunchFacts &f = known->second;
        f.launch = entry["launch"].get<std::uint64_t>();
        if (f.instantiation)
          f.instantiation = entry["instantiation"].get<std::uint64_t>();
        launches.push_back(f);
        return;
      }
    }
    std::vector<RepeatProblem> problems;
    auto slot = expander->expand(entry, i, problems);
    for (const RepeatProblem &p : problems)
      recordReporter.error(p.path, p.message);
    std::size_t errors = records.errorCount();
    launches.push_back(launchConverter->launch(entry, at("launches", i)));
    if (slot && problems.empty() && records.errorCount() == errors)
      slotFacts[*slot] = launches.back();
    else if (slot)
      slotFacts.erase(*slot);
  };
  stream.restart = [&] {
    count = 0;
    slotFacts.clear();
    records = DiagnosticList(options.maxErrors);
    launchConverter.emplace(recordReporter);
    expander.emplace();
    launches.clear();
  };
  if (auto json = parseJsonText(text, 2, r, options, set.truncated, &stream)) {
    SidecarConverter convert(r);
    set.sidecar = convert.sidecar(*json);
    if (set.sidecar && launchConverter->ok())
      set.sidecar->launches = std::move(launches);
    else
      set.sidecar.reset();
  }
  for (Diagnostic &d : records.take())
    list.add(std::move(d));
  set.diagnostics = list.take();
  return set;
}

SidecarSet readSidecarFile(const fs::path &path, const ReadOptions &options) {
  std::string error;
  auto text = readWholeFile(path, error);
  if (!text) {
    SidecarSet set;
    set.diagnostics.push_back(Diagnostic{Severity::Error, path.string(), {}, {}, {}, {}, error});
    return set;
  }
  return parseSidecar(*text, path.string(), options);
}

//===--- a whole capture folder ------------------------------------------===//

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

  // Cross-check: each instantiation has at most one launch, and names match.
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
  auto cross = list.take();
  c.diagnostics.insert(c.diagnostics.end(), cross.begin(), cross.end());
  return c;
}

} // namespace clcapture::format
