//===- VerdictCache.cpp - Results of earlier analyses, kept on disk -===//

#include "clcapture/verify/VerdictCache.h"

#include "clcapture/format/BlobStore.h"
#include "clcapture/format/CacheFolder.h"

#include <cstdlib>
#include <elf.h>
#include <fcntl.h>
#include <fstream>
#include <link.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace clcapture::verify {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;
using namespace report;

namespace {

/// Bumped whenever the stored form of a result changes: older entries then miss.
constexpr int kEntryFormat = 2; // 2: entries list the headers read

template <typename E, std::size_t N> std::optional<E> parseEnum(const Json &j, const E (&values)[N]) {
  if (!j.is_string())
    return std::nullopt;
  for (E v : values)
    if (j.get<std::string>() == toString(v))
      return v;
  return std::nullopt;
}

constexpr Verdict kVerdicts[] = {Verdict::Verified, Verdict::Defects, Verdict::Unknown, Verdict::Error};
constexpr ErrorKind kErrorKinds[] = {ErrorKind::None, ErrorKind::Compile, ErrorKind::Timeout,
                                     ErrorKind::Other};
constexpr FindingKind kFindingKinds[] = {FindingKind::DataRace, FindingKind::BarrierDivergence,
                                         FindingKind::OutOfBounds, FindingKind::NullDereference,
                                         FindingKind::AccessMode};
constexpr FindingSeverity kSeverities[] = {FindingSeverity::Error, FindingSeverity::Warning};
constexpr Conflict kConflicts[] = {Conflict::ReadWrite,   Conflict::WriteRead,   Conflict::WriteWrite,
                                   Conflict::AtomicWrite, Conflict::WriteAtomic, Conflict::AtomicRead,
                                   Conflict::ReadAtomic};
constexpr AccessKind kAccessKinds[] = {AccessKind::Read, AccessKind::Write, AccessKind::Atomic};

Json locationJson(const SourceLocation &l) {
  return Json::array({l.file, l.line, l.column});
}

bool locationFrom(const Json &j, SourceLocation &l) {
  if (!j.is_array() || j.size() != 3 || !j[0].is_string() || !j[1].is_number_unsigned() ||
      !j[2].is_number_unsigned())
    return false;
  l.file = j[0].get<std::string>();
  l.line = j[1].get<std::uint64_t>();
  l.column = j[2].get<std::uint64_t>();
  return true;
}

bool idsFrom(const Json &j, std::array<std::uint64_t, 3> &ids) {
  if (!j.is_array() || j.size() != 3)
    return false;
  for (std::size_t d = 0; d < 3; ++d) {
    if (!j[d].is_number_unsigned())
      return false;
    ids[d] = j[d].get<std::uint64_t>();
  }
  return true;
}

std::string hexOf(const unsigned char *bytes, std::size_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  for (std::size_t i = 0; i < n; ++i) {
    s += digits[bytes[i] >> 4];
    s += digits[bytes[i] & 15];
  }
  return s;
}

int findBuildId(struct dl_phdr_info *info, size_t, void *data) {
  // The first object dl_iterate_phdr reports is the executable itself.
  auto *out = static_cast<std::string *>(data);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE)
      continue;
    const char *p = reinterpret_cast<const char *>(info->dlpi_addr + ph.p_vaddr);
    const char *end = p + ph.p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      const auto *note = reinterpret_cast<const ElfW(Nhdr) *>(p);
      const char *name = p + sizeof(ElfW(Nhdr));
      const char *desc = name + ((note->n_namesz + 3) & ~3u);
      if (desc + note->n_descsz > end)
        break;
      if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 && std::string(name, 3) == "GNU") {
        *out = hexOf(reinterpret_cast<const unsigned char *>(desc), note->n_descsz);
        return 1;
      }
      p = desc + ((note->n_descsz + 3) & ~3u);
    }
  }
  return 1;
}

} // namespace

std::string resultToJson(const InstantiationResult &r) {
  Json findings = Json::array();
  for (const Finding &f : r.findings) {
    Json accesses = Json::array();
    for (const Access &a : f.accesses)
      accesses.push_back({{"access", a.access ? Json(toString(*a.access)) : Json(nullptr)},
                          {"global_id", a.workItem.globalId},
                          {"local_id", a.workItem.localId},
                          {"group_id", a.workItem.groupId},
                          {"location", locationJson(a.location)},
                          {"source", a.source}});
    Json values = Json::array();
    for (const report::WitnessValue &v : f.values)
      values.push_back(Json::array({v.name, v.value}));
    findings.push_back({{"kind", toString(f.kind)},
                        {"severity", toString(f.severity)},
                        {"conflict", toString(f.conflict)},
                        {"benign", f.benign},
                        {"memory", format::toString(f.memory)},
                        {"array", f.array},
                        {"index", f.index},
                        {"bytes", f.bytes},
                        {"offset", f.offset},
                        {"size", f.size},
                        {"extent", f.extent},
                        {"within_object", f.withinObject},
                        {"barrier", locationJson(f.barrier)},
                        {"accesses", std::move(accesses)},
                        {"values", std::move(values)},
                        {"local_size", f.localSize ? Json(*f.localSize) : Json(nullptr)},
                        {"message", f.message}});
    if (!f.accessMode.empty())
      findings.back()["access_mode"] =
          f.accessMode; // written only where set: entries stay as small as before
    if (!f.indexVariables.empty()) {
      Json variables = Json::array();
      for (const report::WitnessValue &v : f.indexVariables)
        variables.push_back(Json::array({v.name, v.value}));
      findings.back()["index_variables"] = std::move(variables);
    }
    if (!f.pixel.empty()) {
      findings.back()["pixel"] = f.pixel;
      findings.back()["image_extent"] = f.imageExtent;
    }
  }
  Json j = {{"entry_point", r.entryPoint},
            {"kernel_file", r.kernelFile},
            {"verdict", toString(r.verdict)},
            {"error_kind", toString(r.errorKind)},
            {"reason", r.reason},
            {"findings", std::move(findings)},
            {"unsized_memory", r.unsizedMemory},
            {"seconds", r.seconds}}; // what the analysis cost: sizes a parametric group's attempt
  return j.dump();
}

std::optional<InstantiationResult> resultFromJson(const std::string &text) {
  Json j = Json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return std::nullopt;
  try {
    InstantiationResult r;
    r.entryPoint = j.at("entry_point").get<std::string>();
    r.kernelFile = j.at("kernel_file").get<std::string>();
    r.reason = j.at("reason").get<std::string>();
    auto verdict = parseEnum(j.at("verdict"), kVerdicts);
    auto errorKind = parseEnum(j.at("error_kind"), kErrorKinds);
    if (!verdict || !errorKind || !j.at("findings").is_array())
      return std::nullopt;
    r.verdict = *verdict;
    r.errorKind = *errorKind;
    r.unsizedMemory = j.at("unsized_memory").get<std::vector<std::string>>();
    if (j.contains("seconds") && j["seconds"].is_number())
      r.seconds = j["seconds"].get<double>();
    for (const Json &jf : j.at("findings")) {
      Finding f;
      auto kind = parseEnum(jf.at("kind"), kFindingKinds);
      auto severity = parseEnum(jf.at("severity"), kSeverities);
      auto conflict = parseEnum(jf.at("conflict"), kConflicts);
      std::string space = jf.at("memory").get<std::string>();
      auto memory = space == "private" ? std::optional(format::AddressSpace::Private) // a finding's only
                                       : format::parseAddressSpace(space);
      const Json &bytes = jf.at("bytes");
      const Json &accesses = jf.at("accesses");
      if (!kind || !severity || !conflict || !memory || !bytes.is_array() || bytes.size() != 2 ||
          !accesses.is_array() || accesses.size() != 2 || !locationFrom(jf.at("barrier"), f.barrier))
        return std::nullopt;
      f.kind = *kind;
      f.severity = *severity;
      f.conflict = *conflict;
      f.memory = *memory;
      f.benign = jf.at("benign").get<bool>();
      f.array = jf.at("array").get<std::string>();
      f.index = jf.at("index").get<std::vector<std::uint64_t>>();
      f.bytes = {bytes[0].get<std::uint64_t>(), bytes[1].get<std::uint64_t>()};
      f.offset = jf.at("offset").get<std::int64_t>();
      f.size = jf.at("size").get<std::uint64_t>();
      f.extent = jf.at("extent").get<std::uint64_t>();
      f.withinObject = jf.at("within_object").get<bool>();
      if (auto mode = jf.find("access_mode"); mode != jf.end() && mode->is_string())
        f.accessMode = mode->get<std::string>(); // absent from entries written before access modes
      if (auto variables = jf.find("index_variables"); variables != jf.end())
        for (const Json &v : *variables) {
          if (!v.is_array() || v.size() != 2)
            return std::nullopt;
          f.indexVariables.push_back({v[0].get<std::string>(), v[1].get<std::string>()});
        }
      if (auto pixel = jf.find("pixel"); pixel != jf.end()) {
        f.pixel = pixel->get<std::vector<std::int64_t>>();
        f.imageExtent = jf.at("image_extent").get<std::vector<std::uint64_t>>();
      }
      f.message = jf.at("message").get<std::string>();
      for (const Json &v : jf.at("values")) {
        if (!v.is_array() || v.size() != 2)
          return std::nullopt;
        f.values.push_back({v[0].get<std::string>(), v[1].get<std::string>()});
      }
      if (!jf.at("local_size").is_null()) {
        std::array<std::uint64_t, 3> size{};
        if (!idsFrom(jf.at("local_size"), size))
          return std::nullopt;
        f.localSize = size;
      }
      for (std::size_t i = 0; i < 2; ++i) {
        const Json &ja = accesses[i];
        Access &a = f.accesses[i];
        if (!ja.at("access").is_null()) {
          auto access = parseEnum(ja.at("access"), kAccessKinds);
          if (!access)
            return std::nullopt;
          a.access = *access;
        }
        if (!idsFrom(ja.at("global_id"), a.workItem.globalId) ||
            !idsFrom(ja.at("local_id"), a.workItem.localId) ||
            !idsFrom(ja.at("group_id"), a.workItem.groupId) || !locationFrom(ja.at("location"), a.location))
          return std::nullopt;
        a.source = ja.at("source").get<std::string>();
      }
      r.findings.push_back(std::move(f));
    }
    return r;
  } catch (const Json::exception &) {
    return std::nullopt;
  }
}

std::optional<fs::path> defaultCacheFolder() {
  const char *xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && *xdg == '/')
    return fs::path(xdg) / "clcapture" / "verdicts";
  const char *home = std::getenv("HOME");
  if (home && *home == '/')
    return fs::path(home) / ".cache" / "clcapture" / "verdicts";
  return std::nullopt;
}

std::string executableBuildId() {
  std::string id;
  dl_iterate_phdr(findBuildId, &id);
  return id;
}

VerdictCache::VerdictCache(fs::path folder, std::string identity, HeaderHash headerHash,
                           std::uint64_t maxBytes)
    : m_folder(std::move(folder)), m_identity(std::move(identity)), m_headerHash(std::move(headerHash)),
      m_maxBytes(maxBytes) {}

std::string VerdictCache::fullKey(const std::string &analysisKey, bool strict) const {
  return Json::array({kEntryFormat, m_identity, strict, analysisKey}).dump();
}

fs::path VerdictCache::entryPath(const std::string &key) const {
  std::string hash = format::contentHash128(key.data(), key.size());
  return m_folder / hash.substr(0, 2) / (hash.substr(2) + ".json");
}

std::optional<InstantiationResult> VerdictCache::find(const std::string &analysisKey, bool strict,
                                                      double timeoutSeconds) {
  std::string key = fullKey(analysisKey, strict);
  fs::path path = entryPath(key);
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  Json entry = Json::parse(text.str(), nullptr, false);
  if (entry.is_discarded() || !entry.is_object() || !entry.contains("key") || entry["key"] != key ||
      !entry.contains("result") || !entry["result"].is_string() || !entry.contains("timeout") ||
      !entry["timeout"].is_number())
    return std::nullopt; // corrupt or another key: analysed again and rewritten
  if (!entry.contains("headers") || !entry["headers"].is_array())
    return std::nullopt;
  std::vector<std::string> headers;
  for (const Json &header : entry["headers"]) {
    // [name, hash of its contents when the entry was stored]
    if (!header.is_array() || header.size() != 2 || !header[0].is_string() || !header[1].is_string())
      return std::nullopt;
    if (!m_headerHash || m_headerHash(header[0].get<std::string>()) != header[1].get<std::string>())
      return std::nullopt; // a header changed (or cannot be checked): analysed again
    headers.push_back(header[0].get<std::string>());
  }
  auto result = resultFromJson(entry["result"].get<std::string>());
  if (!result)
    return std::nullopt;
  result->headersRead = std::move(headers);
  if (result->errorKind == ErrorKind::Timeout) {
    // Ran out of time under limit L: reuse only under a limit no larger than L (0 is no limit).
    double ranOutAt = entry["timeout"].get<double>();
    if (timeoutSeconds <= 0 || timeoutSeconds > ranOutAt)
      return std::nullopt;
  }
  // Least recently used: a hit refreshes the entry's time.
  ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
  ++m_hits;
  return result;
}

void VerdictCache::store(const std::string &analysisKey, bool strict, double timeoutSeconds,
                         const InstantiationResult &result) {
  if (result.errorKind == ErrorKind::Compile)
    return; // a missing header may be there next time: not known to be the same input again
  if (result.verdict == Verdict::Error && result.errorKind == ErrorKind::Other)
    return; // a crash (a solver's abort under load, a process killed from outside) may not come back
  Json headers = Json::array();
  for (const std::string &header : result.headersRead) {
    if (!m_headerHash)
      return;
    headers.push_back(Json::array({header, m_headerHash(header)}));
  }
  std::string key = fullKey(analysisKey, strict);
  fs::path path = entryPath(key);
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec)
    return;
  std::string text = Json{{"key", key},
                          {"timeout", timeoutSeconds},
                          {"headers", std::move(headers)},
                          {"result", resultToJson(result)}}
                         .dump();
  if (format::writeFileAtomically(path, text.data(), text.size()))
    ++m_stored;
}

void VerdictCache::prune() {
  if (m_stored == 0)
    return;
  format::CachePruning how;
  how.maxBytes = m_maxBytes;
  how.targetBytes = m_maxBytes * 3 / 4; // some room, so that the next run does not prune again at once
  how.recursive = true;                 // <2 hex digits>/<30 hex digits>.json
  format::pruneCacheFolder(m_folder, how);
}

} // namespace clcapture::verify
