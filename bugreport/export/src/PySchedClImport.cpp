//===- PySchedClImport.cpp - A PySchedCL kernel specification as a capture launch -===//
//
// The reverse of PySchedClExport.cpp. A spec the export wrote carries a `clcapture` object, and then every
// extra it lacks means "absent in the capture" (no local size, no flags, …); a plain PySchedCL's spec has
// none, and the import fills in what PySchedCL itself would do (global buffers, CL_MEM_READ_ONLY for inputs,
// CL_MEM_WRITE_ONLY for outputs, CL_MEM_READ_WRITE for io buffers, a little-endian device). Values that
// are symbolic stay open (no value: clcapture-verify proves for every value), except the global work size,
// which a capture must have.
//
//===----------------------------------------------------------------------===//

#include "clcapture/export/ElementBytes.h"
#include "clcapture/export/PySchedClSpec.h"
#include "clcapture/format/BlobStore.h"
#include "clcapture/format/CapturePath.h"
#include "clcapture/format/CaptureWriter.h"
#include "clcapture/format/MemFlags.h"
#include "clcapture/format/ScalarCodec.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

namespace clcapture::exporter {

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

enum class ListKind { Input, InOut, Output, Var, Local, Other };

struct Entry {
  ListKind kind;
  std::string key; ///< e.g. "inputBuffers[1]"
  const Json *json;
  std::size_t pos;
};

std::string describe(const Json &v) {
  std::string s = v.dump();
  return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

class SpecImporter {
public:
  SpecImporter(const fs::path &specPath, const ImportOptions &options, const fs::path &outDir)
      : m_specPath(specPath), m_options(options), m_outDir(outDir) {
    m_specDir = specPath.parent_path();
    if (m_specDir.empty())
      m_specDir = ".";
  }

  format::Expected<ImportedLaunch> run();

private:
  format::Failure error(const std::string &key, const std::string &message) const {
    return format::fail(m_specPath.string() + ": " + (key.empty() ? "" : key + ": ") + message);
  }
  void note(const std::string &message) { m_result.notes.push_back(message); }

  format::Expected<std::string> requiredString(const Json &obj, const std::string &path,
                                               const char *key) const;
  format::Expected<std::vector<std::uint64_t>> sizes(const Json &v, const std::string &key, bool required,
                                                     bool allowZero, bool &open);
  format::Expected<std::string> copyFile(const std::string &relative, const fs::path &base,
                                         const std::string &key, bool kernel);
  format::Expected<bool> parseFacts();
  format::Expected<bool> collectEntries();
  format::Expected<bool> buildArguments();
  format::Expected<format::KernelArgument> array(const Entry &e, format::ArgumentFacts &facts);
  format::Expected<format::KernelArgument> scalar(const Entry &e, format::ArgumentFacts &facts);
  /// Elements × the type's size from a `size` (a number or an expression); nullopt when it stays open.
  format::Expected<std::optional<std::uint64_t>> byteSize(const Json &entry, const std::string &key,
                                                          const std::string &type);

  fs::path m_specPath, m_specDir;
  const ImportOptions &m_options;
  fs::path m_outDir;
  Json m_spec;
  const Json *m_extras = nullptr; ///< the `clcapture` object, when the export wrote one
  ImportedLaunch m_result;
  std::uint32_t m_addressBits = 64;
  format::Endianness m_order = format::Endianness::Little;
  std::optional<std::size_t> m_argumentCount;
  std::vector<Entry> m_entries;
  std::vector<std::string> m_noData, m_openSizes;
  bool m_noFacts = false;                         ///< `clcapture.launch` is null
  std::vector<format::ArgumentFacts> m_madeFacts; ///< a plain spec's, from its lists
};

format::Expected<std::string> SpecImporter::requiredString(const Json &obj, const std::string &path,
                                                           const char *key) const {
  auto it = obj.find(key);
  std::string where = path.empty() ? key : path + "." + key;
  if (it == obj.end())
    return error(where, "missing (PySchedCL's spec requires it)");
  if (!it->is_string())
    return error(where, "expected a string, got " + describe(*it));
  return it->get<std::string>();
}

/// globalWorkSize / localWorkSize / globalWorkOffset: a Python list expression (or a number, or a list).
format::Expected<std::vector<std::uint64_t>> SpecImporter::sizes(const Json &v, const std::string &key,
                                                                 bool required, bool allowZero, bool &open) {
  open = false;
  std::vector<std::int64_t> values;
  if (v.is_string()) {
    ListResult r = evaluateIntegerList(v.get<std::string>(), m_options.defines);
    if (!r.values) {
      if (required || !r.symbol)
        return error(key, describe(v) + " cannot be evaluated: " + r.why);
      open = true;
      note(key + " " + describe(v) + " cannot be evaluated (" + r.why + "): left out");
      return std::vector<std::uint64_t>{};
    }
    values = *r.values;
  } else if (v.is_number_integer()) {
    values.push_back(v.get<std::int64_t>());
  } else if (v.is_array() &&
             std::all_of(v.begin(), v.end(), [](const Json &n) { return n.is_number_integer(); })) {
    for (const Json &n : v)
      values.push_back(n.get<std::int64_t>());
  } else {
    return error(key, "expected a Python list expression such as \"[1024, 1]\", got " + describe(v));
  }
  if (values.empty() || values.size() > 3)
    return error(key, "expected 1 to 3 dimensions, got " + std::to_string(values.size()));
  std::vector<std::uint64_t> out;
  for (std::int64_t n : values) {
    if (n < 0 || (n == 0 && !allowZero))
      return error(key, "expected sizes of at least " + std::string(allowZero ? "0" : "1") + ", got " +
                            std::to_string(n));
    out.push_back(static_cast<std::uint64_t>(n));
  }
  return out;
}

/// Reads `relative` (inside `base`) and writes it into the output as a content-addressed file.
format::Expected<std::string> SpecImporter::copyFile(const std::string &relative, const fs::path &base,
                                                     const std::string &key, bool kernel) {
  if (auto problem = format::lexicalPathProblem(relative))
    return error(key, *problem);
  auto bytes = readFileBytes(base / relative);
  if (!bytes)
    return error(key, bytes.error());
  std::string name;
  if (kernel) {
    bool pre = relative.size() >= 7 && relative.compare(relative.size() - 7, 7, ".pre.cl") == 0;
    name = format::kernelFileName(m_result.instantiation.entryPoint, *bytes, pre ? ".pre.cl" : ".cl");
  } else {
    name = format::dataBlobName(bytes->data(), bytes->size());
  }
  auto written = format::writeBlobOnce(m_outDir, name, bytes->data(), bytes->size());
  if (!written)
    return error(key, written.error());
  return name;
}

/// The `clcapture` object's launch entry (the sidecar's facts) and header, or facts made from the spec.
format::Expected<bool> SpecImporter::parseFacts() {
  if (!m_extras || !m_extras->contains("launch"))
    return true; // made from the spec in buildArguments()
  const Json &launch = m_extras->at("launch");
  Json meta;
  if (m_extras->contains("meta") && m_extras->at("meta").is_object()) {
    meta = m_extras->at("meta");
  } else {
    meta = Json{{"format", "clcapture-meta"},
                {"format_version", format::kSidecarFormatVersion},
                {"clcapture_version", CLCAPTURE_VERSION},
                {"process", Json{{"executable", "clcapture-import"}, {"pid", 0}}}};
  }
  m_noFacts = launch.is_null();
  Json doc = meta;
  doc["launches"] = launch.is_null() ? Json::array() : Json::array({launch});
  if (!launch.is_null() && launch.is_object() && !launch.contains("instantiation"))
    doc["launches"][0]["instantiation"] = 0;
  format::SidecarSet set = format::parseSidecar(doc.dump(), m_specPath.string() + ": clcapture", {});
  if (set.hasErrors() || !set.sidecar) {
    std::string text;
    for (const format::Diagnostic &d : set.diagnostics)
      text += "\n  " + d.str();
    return error("clcapture", "the capture facts are invalid:" + text);
  }
  m_result.header = set.sidecar->header;
  if (!set.sidecar->launches.empty()) {
    m_result.facts = set.sidecar->launches.front();
    m_addressBits = m_result.facts->device.addressBits;
    m_order = m_result.facts->device.endianness;
  }
  return true;
}

format::Expected<bool> SpecImporter::collectEntries() {
  static const std::pair<const char *, ListKind> kLists[] = {{"inputBuffers", ListKind::Input},
                                                             {"ioBuffers", ListKind::InOut},
                                                             {"outputBuffers", ListKind::Output},
                                                             {"varArguments", ListKind::Var},
                                                             {"localArguments", ListKind::Local}};
  std::map<std::size_t, std::string> taken;
  auto add = [&](const Json &list, const std::string &name, ListKind kind) -> format::Status {
    if (!list.is_array())
      return error(name, "expected a list, got " + describe(list));
    for (std::size_t i = 0; i < list.size(); ++i) {
      std::string key = name + "[" + std::to_string(i) + "]";
      const Json &e = list[i];
      if (!e.is_object())
        return error(key, "expected an object, got " + describe(e));
      auto pos = e.find("pos");
      if (pos == e.end() || !pos->is_number_unsigned() || pos->get<std::uint64_t>() > 65535)
        return error(key + ".pos", "expected an argument position (0, 1, …)");
      auto at = static_cast<std::size_t>(pos->get<std::uint64_t>());
      auto [it, inserted] = taken.emplace(at, key);
      if (!inserted)
        return error(key + ".pos", "argument " + std::to_string(at) + " is also " + it->second);
      m_entries.push_back(Entry{kind, key, &e, at});
    }
    return {};
  };
  for (const auto &[name, kind] : kLists)
    if (m_spec.contains(name))
      if (auto s = add(m_spec.at(name), name, kind); !s)
        return format::fail(s.error());
  if (m_extras && m_extras->contains("otherArguments"))
    if (auto s = add(m_extras->at("otherArguments"), "clcapture.otherArguments", ListKind::Other); !s)
      return format::fail(s.error());

  if (m_extras && m_extras->contains("argumentCount")) {
    const Json &n = m_extras->at("argumentCount");
    if (n.is_null()) {
      if (!m_entries.empty())
        return error("clcapture.argumentCount", "null (arguments not captured) but the lists name arguments");
      return true;
    }
    if (!n.is_number_unsigned() || n.get<std::uint64_t>() > 65536)
      return error("clcapture.argumentCount", "expected a number of arguments or null, got " + describe(n));
    m_argumentCount = static_cast<std::size_t>(n.get<std::uint64_t>());
  } else {
    m_argumentCount = taken.empty() ? 0 : taken.rbegin()->first + 1;
  }
  for (std::size_t p = 0; p < *m_argumentCount; ++p)
    if (!taken.count(p))
      return error("", "argument " + std::to_string(p) + " is in none of the argument lists (a kernel's " +
                           "arguments are numbered 0 to " + std::to_string(*m_argumentCount - 1) + ")");
  if (!taken.empty() && taken.rbegin()->first >= *m_argumentCount)
    return error(taken.rbegin()->second + ".pos",
                 "beyond clcapture.argumentCount (" + std::to_string(*m_argumentCount) + ")");
  std::sort(m_entries.begin(), m_entries.end(), [](const Entry &a, const Entry &b) { return a.pos < b.pos; });
  return true;
}

format::Expected<std::optional<std::uint64_t>>
SpecImporter::byteSize(const Json &entry, const std::string &key, const std::string &type) {
  auto it = entry.find("size");
  if (it == entry.end())
    return error(key + ".size", "missing (PySchedCL's spec requires it)");
  std::optional<std::int64_t> elements;
  if (it->is_number_integer()) {
    elements = it->get<std::int64_t>();
  } else if (it->is_string()) {
    EvalResult r = evaluateInteger(it->get<std::string>(), m_options.defines);
    if (!r.value) {
      if (!r.symbol)
        return error(key + ".size", describe(*it) + " cannot be evaluated: " + r.why);
      m_openSizes.push_back(key + " (" + describe(*it) + ": " + r.why + ")");
      return std::optional<std::uint64_t>{};
    }
    elements = r.value;
  } else {
    return error(key + ".size", "expected a number of elements or an expression, got " + describe(*it));
  }
  if (*elements < 0)
    return error(key + ".size", "expected a number of elements, got " + std::to_string(*elements));
  auto t = lookupClType(type, m_addressBits);
  if (!t) {
    m_openSizes.push_back(key + " (its type \"" + type + "\" has no size clcapture knows)");
    return std::optional<std::uint64_t>{};
  }
  std::uint64_t bytes = 0;
  if (__builtin_mul_overflow(static_cast<std::uint64_t>(*elements), static_cast<std::uint64_t>(t->size()),
                             &bytes))
    return error(key + ".size", "the size overflows 64 bits");
  return std::optional<std::uint64_t>(bytes);
}

format::Expected<format::KernelArgument> SpecImporter::array(const Entry &e, format::ArgumentFacts &facts) {
  const Json &j = *e.json;
  auto type = requiredString(j, e.key, "type");
  if (!type)
    return format::fail(type.error());
  format::ArrayArgument a;
  auto bytes = byteSize(j, e.key, *type);
  if (!bytes)
    return format::fail(bytes.error());
  a.size = *bytes;

  bool local = e.kind == ListKind::Local;
  if (local) {
    a.addressSpace = format::AddressSpace::Local;
  } else if (auto it = j.find("addressSpace"); it != j.end()) {
    auto space = it->is_string() ? format::parseAddressSpace(it->get<std::string>()) : std::nullopt;
    if (!space || *space == format::AddressSpace::Local)
      return error(e.key + ".addressSpace", "expected \"global\" or \"constant\", got " + describe(*it));
    a.addressSpace = space;
  } else if (!m_extras) {
    a.addressSpace = format::AddressSpace::Global;
  }

  if (auto it = j.find("flags"); it != j.end()) {
    if (!it->is_array())
      return error(e.key + ".flags", "expected a list of CL_MEM_* names, got " + describe(*it));
    std::vector<std::string> names;
    for (const Json &n : *it) {
      if (!n.is_string() || !format::memFlagBit(n.get<std::string>()))
        return error(e.key + ".flags", "expected CL_MEM_* names, got " + describe(n));
      names.push_back(n.get<std::string>());
    }
    a.flags = names;
  } else if (!m_extras && !local) {
    // What PySchedCL creates each list's buffers with.
    a.flags = std::vector<std::string>{e.kind == ListKind::Input    ? "CL_MEM_READ_ONLY"
                                       : e.kind == ListKind::Output ? "CL_MEM_WRITE_ONLY"
                                                                    : "CL_MEM_READ_WRITE"};
  }

  if (auto it = j.find("data"); it != j.end() && !local) {
    if (!it->is_string())
      return error(e.key + ".data", "expected a file name, got " + describe(*it));
    auto name = copyFile(it->get<std::string>(), m_specDir, e.key + ".data", false);
    if (!name)
      return format::fail(name.error());
    std::error_code ec;
    std::uintmax_t written = fs::file_size(m_outDir / *name, ec);
    if (a.size && *a.size != written)
      return error(e.key + ".data", it->get<std::string>() + " has " + std::to_string(written) +
                                        " bytes, but size × type gives " + std::to_string(*a.size));
    if (!a.size) {
      a.size = written;
      m_openSizes.pop_back(); // the data gives it
    }
    a.data = *name;
  } else if (!local) {
    m_noData.push_back(std::to_string(e.pos));
  }
  if (auto it = j.find("dataAfter"); it != j.end() && !local) {
    if (!it->is_string())
      return error(e.key + ".dataAfter", "expected a file name, got " + describe(*it));
    auto name = copyFile(it->get<std::string>(), m_specDir, e.key + ".dataAfter", false);
    if (!name)
      return format::fail(name.error());
    facts.dataAfter = *name;
  }

  facts.kind = local ? format::ArgumentKind::LocalMemory : format::ArgumentKind::Buffer;
  facts.typeName = *type + "*";
  facts.addressQualifier = a.addressSpace ? format::toString(*a.addressSpace) : "global";
  if (a.flags) {
    std::uint64_t bits = 0;
    for (const std::string &n : *a.flags)
      bits |= format::memFlagBit(n).value_or(0);
    facts.memFlags = bits;
  }
  return format::KernelArgument(a);
}

format::Expected<format::KernelArgument> SpecImporter::scalar(const Entry &e, format::ArgumentFacts &facts) {
  const Json &j = *e.json;
  auto type = requiredString(j, e.key, "type");
  if (!type)
    return format::fail(type.error());
  facts.kind = format::ArgumentKind::Scalar;
  facts.typeName = *type;
  facts.addressQualifier = "private";
  format::ScalarArgument s;
  auto it = j.find("value");
  if (it == j.end())
    return error(e.key + ".value", "missing (PySchedCL's spec requires it)");
  auto t = lookupClType(*type, m_addressBits);

  // The value's bytes (device order), or why it stays open.
  std::optional<std::vector<std::uint8_t>> bytes;
  std::string why;
  bool symbolic = false; // an expression over a name or a call: open, not an error
  auto fromNumber = [&](const NumberValue &n) {
    if (!t || t->lanes != 1) {
      why = "a number for type \"" + *type + "\", which is not a built-in scalar type";
      return;
    }
    auto bits = elementBits(n, *t, why);
    if (!bits)
      return;
    std::vector<std::uint8_t> b(t->size());
    storeUnsigned(*bits, t->size(), m_order, b.data());
    bytes = std::move(b);
  };
  if (it->is_number_integer()) {
    fromNumber(it->is_number_unsigned() ? NumberValue::unsignedInteger(it->get<std::uint64_t>())
                                        : NumberValue::integer(it->get<std::int64_t>()));
  } else if (it->is_number_float()) {
    fromNumber(NumberValue::realNumber(it->get<double>()));
  } else if (it->is_string()) {
    std::string text = it->get<std::string>();
    std::string trimmed = text;
    trimmed.erase(0, trimmed.find_first_not_of(" \t"));
    trimmed.erase(trimmed.find_last_not_of(" \t") + 1);
    if (format::isHexValue(trimmed) &&
        trimmed.find_first_not_of("0123456789abcdefABCDEFxX") == std::string::npos) {
      // The bytes of the value in the device's byte order, as captures.json writes them (docs/contract.md
      // §3).
      std::size_t size = t ? t->size() : format::scalarDigitBytes(trimmed);
      auto decoded = format::decodeScalar(trimmed, size, m_order);
      if (!decoded)
        return error(e.key + ".value", decoded.error());
      bytes = std::move(*decoded);
    } else {
      EvalResult r = evaluateInteger(trimmed, m_options.defines);
      if (r.value) {
        fromNumber(NumberValue::integer(*r.value));
      } else {
        char *end = nullptr;
        double d = std::strtod(trimmed.c_str(), &end);
        if (!trimmed.empty() && end && *end == '\0') {
          fromNumber(NumberValue::realNumber(d));
        } else {
          why = describe(*it) + " cannot be evaluated (" + r.why + ")";
          symbolic = r.symbol.has_value();
        }
      }
    }
  } else {
    return error(e.key + ".value", "expected a number or an expression, got " + describe(*it));
  }
  if (!bytes && !symbolic)
    return error(e.key + ".value", why);
  if (!bytes) {
    note(e.key + " (argument " + std::to_string(e.pos) + "): value " + why +
         "; the scalar stays open (no value)");
    return format::KernelArgument(s);
  }
  std::string value = format::encodeScalar(*bytes, m_order);
  // The capture's own spelling when it is the same value (docs/contract.md §3 allows fewer digits).
  if (auto c = j.find("captured");
      c != j.end() && c->is_string() && format::isHexValue(c->get<std::string>())) {
    auto same = format::decodeScalar(c->get<std::string>(), bytes->size(), m_order);
    if (same && *same == *bytes)
      value = c->get<std::string>();
  }
  s.value = value;
  return format::KernelArgument(s);
}

format::Expected<bool> SpecImporter::buildArguments() {
  if (!m_argumentCount)
    return true; // kernel_arguments absent
  std::vector<format::KernelArgument> args;
  std::vector<format::ArgumentFacts> facts;
  std::uint64_t memObject = 0;
  for (const Entry &e : m_entries) {
    format::ArgumentFacts f;
    f.index = static_cast<std::uint32_t>(e.pos);
    if (e.kind == ListKind::Other) {
      auto type = requiredString(*e.json, e.key, "type");
      if (!type)
        return format::fail(type.error());
      if (*type != "image" && *type != "sampler")
        return error(e.key + ".type", "expected \"image\" or \"sampler\", got \"" + *type + "\"");
      bool image = *type == "image";
      args.push_back(image ? format::KernelArgument(format::ImageArgument{})
                           : format::KernelArgument(format::SamplerArgument{}));
      f.kind = image ? format::ArgumentKind::Image : format::ArgumentKind::Sampler;
    } else if (e.kind == ListKind::Var) {
      auto arg = scalar(e, f);
      if (!arg)
        return format::fail(arg.error());
      args.push_back(std::move(*arg));
    } else {
      auto arg = array(e, f);
      if (!arg)
        return format::fail(arg.error());
      if (e.kind != ListKind::Local)
        f.memObject = memObject++;
      args.push_back(std::move(*arg));
    }
    facts.push_back(std::move(f));
  }
  m_result.instantiation.kernelArguments = std::move(args);
  if (m_result.facts) {
    // The export's facts: each data_after comes from its buffer's `dataAfter` extra.
    for (format::ArgumentFacts &a : m_result.facts->arguments)
      for (const format::ArgumentFacts &made : facts)
        if (made.index == a.index)
          a.dataAfter = made.dataAfter;
  } else if (!m_noFacts) {
    m_madeFacts = std::move(facts);
  }
  return true;
}

format::Expected<ImportedLaunch> SpecImporter::run() {
  auto text = readFileBytes(m_specPath);
  if (!text)
    return format::fail(text.error());
  m_spec = Json::parse(*text, nullptr, false);
  if (m_spec.is_discarded())
    return error("", "not valid JSON");
  if (!m_spec.is_object())
    return error("", "expected a JSON object (one kernel specification), got " + describe(m_spec));
  if (auto it = m_spec.find("clcapture"); it != m_spec.end()) {
    if (!it->is_object())
      return error("clcapture", "expected an object, got " + describe(*it));
    m_extras = &*it;
  }
  format::Instantiation &inst = m_result.instantiation;
  auto name = requiredString(m_spec, "", "name");
  if (!name)
    return format::fail(name.error());
  inst.entryPoint = *name;
  auto src = requiredString(m_spec, "", "src");
  if (!src)
    return format::fail(src.error());

  if (auto parsed = parseFacts(); !parsed)
    return format::fail(parsed.error());
  if (m_extras) {
    if (auto it = m_extras->find("language"); it != m_extras->end() && it->is_string())
      inst.language = it->get<std::string>();
    if (auto it = m_extras->find("endianness"); it != m_extras->end()) {
      auto e = it->is_string() ? format::parseEndianness(it->get<std::string>()) : std::nullopt;
      if (!e)
        return error("clcapture.endianness", "expected \"little\" or \"big\", got " + describe(*it));
      inst.endianness = e;
    }
  } else {
    inst.endianness = format::Endianness::Little;
  }
  if (inst.endianness)
    m_order = *inst.endianness;

  auto global = m_spec.find("globalWorkSize");
  if (global == m_spec.end())
    return error("globalWorkSize", "missing (PySchedCL's spec requires it)");
  bool open = false;
  auto globalSize = sizes(*global, "globalWorkSize", true, false, open);
  if (!globalSize)
    return format::fail(globalSize.error());
  inst.globalSize = *globalSize;
  if (auto it = m_spec.find("workDimension"); it != m_spec.end()) {
    if (!it->is_number_unsigned() || it->get<std::uint64_t>() != inst.globalSize.size())
      return error("workDimension", describe(*it) + " but globalWorkSize has " +
                                        std::to_string(inst.globalSize.size()) + " dimension(s)");
  }
  if (auto it = m_spec.find("localWorkSize"); it != m_spec.end()) {
    auto local = sizes(*it, "localWorkSize", false, false, open);
    if (!local)
      return format::fail(local.error());
    if (!open)
      inst.localSize = *local;
  }
  if (auto it = m_spec.find("globalWorkOffset"); it != m_spec.end()) {
    auto offset = sizes(*it, "globalWorkOffset", true, true, open);
    if (!offset)
      return format::fail(offset.error());
    inst.globalOffset = *offset;
  }
  if (auto it = m_spec.find("compilerFlags"); it != m_spec.end()) {
    if (!it->is_string())
      return error("compilerFlags", "expected a string, got " + describe(*it));
    inst.compilerFlags = it->get<std::string>();
  }
  if (m_extras) {
    if (auto it = m_extras->find("hostApiCalls"); it != m_extras->end() && it->is_array()) {
      std::vector<format::HostApiCall> calls;
      for (const Json &c : *it)
        if (c.is_object() && c.value("function_name", Json()).is_string() &&
            c.value("compilation_unit", Json()).is_string() &&
            c.value("line_number", Json()).is_number_unsigned())
          calls.push_back({c["function_name"].get<std::string>(), c["compilation_unit"].get<std::string>(),
                           c["line_number"].get<std::uint64_t>()});
      inst.hostApiCalls = std::move(calls);
    }
  }

  fs::path srcBase = m_options.srcDir ? *m_options.srcDir : m_specDir;
  auto kernel = copyFile(*src, srcBase, "src", true);
  if (!kernel)
    return format::fail(kernel.error() + " (--src-dir DIR: the sources are in DIR)");
  inst.kernelFile = *kernel;

  if (auto collected = collectEntries(); !collected)
    return format::fail(collected.error());
  if (auto built = buildArguments(); !built)
    return format::fail(built.error());

  if (!m_result.facts && !m_noFacts) {
    // A plain PySchedCL's spec: the facts PySchedCL would establish (its own buffers, no aliasing).
    format::LaunchFacts f;
    f.enqueueFunction = "clEnqueueNDRangeKernel";
    f.kernelName = inst.entryPoint;
    f.buildOptions = inst.compilerFlags.value_or("");
    f.device.name = "unknown (imported from a PySchedCL spec)";
    f.device.addressBits = m_addressBits;
    f.device.endianness = m_order;
    f.arguments = std::move(m_madeFacts);
    m_result.facts = std::move(f);
  }
  if (m_result.facts)
    m_result.facts->kernelName = inst.entryPoint;

  if (!m_noData.empty()) {
    std::string list;
    for (std::size_t i = 0; i < m_noData.size(); ++i)
      list += (i ? ", " : "") + m_noData[i];
    note("no data for buffer argument(s) " + list + ": their contents stay open");
  }
  for (const std::string &s : m_openSizes)
    note(s + ": the size stays open (not in the capture)");
  if (!m_extras && !m_spec.contains("localWorkSize"))
    note("no localWorkSize: the local size stays open (any legal work-group size)");
  return std::move(m_result);
}

} // namespace

format::Expected<ImportedLaunch> importSpec(const fs::path &specPath, const ImportOptions &options,
                                            const fs::path &outDir) {
  return SpecImporter(specPath, options, outDir).run();
}

} // namespace clcapture::exporter
