//===- InstantiationKey.cpp - When two instantiations are the same launch -===//

#include "clcapture/verify/InstantiationKey.h"

#include "clcapture/format/BlobStore.h"

#include <algorithm>
#include <ctime>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <nlohmann/json.hpp>
#include <variant>
#include <vector>

namespace clcapture::verify {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

std::int64_t nanoseconds(const struct timespec &t) {
  return static_cast<std::int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

/// "<checksum>\t<rest>": the XXH3-64 of the rest, so a damaged line is recognised.
std::string withChecksum(const std::string &rest) {
  return format::contentHash64(rest.data(), rest.size()) + "\t" + rest;
}

} // namespace

FileHashCache::FileHashCache(fs::path store, std::int64_t racyNanoseconds)
    : m_store(std::move(store)), m_racy(racyNanoseconds) {
  std::ifstream in(*m_store);
  std::string line;
  while (std::getline(in, line)) {
    // checksum, hash, device, inode, size, modified, changed, path
    std::size_t tab = line.find('\t');
    if (tab == std::string::npos || withChecksum(line.substr(tab + 1)) != line) {
      m_dirty = true; // rewritten without the damaged line
      continue;
    }
    std::istringstream fields(line.substr(tab + 1));
    Stored s;
    std::string path;
    if (!(fields >> s.hash >> s.stamp.device >> s.stamp.inode >> s.stamp.size >> s.stamp.modified >>
          s.stamp.changed) ||
        fields.get() != '\t' || !std::getline(fields, path) || path.empty() || s.hash.size() != 32) {
      m_dirty = true;
      continue;
    }
    m_stored[path] = std::move(s);
  }
}

fs::path FileHashCache::storeFor(const fs::path &cacheFolder, const fs::path &captureDir) {
  std::error_code ec;
  fs::path canonical = fs::canonical(captureDir, ec);
  std::string name = (ec ? fs::absolute(captureDir, ec) : canonical).lexically_normal().string();
  return cacheFolder / "file-hashes" / (format::contentHash64(name.data(), name.size()) + ".tsv");
}

std::string FileHashCache::hashOf(const fs::path &file) {
  std::string name = file.lexically_normal().string();
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    auto it = m_hashes.find(name);
    if (it != m_hashes.end())
      return it->second;
  }
  struct stat st {};
  bool stamped = m_store && ::stat(file.c_str(), &st) == 0;
  Stamp stamp{static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino),
              static_cast<std::uint64_t>(st.st_size), nanoseconds(st.st_mtim), nanoseconds(st.st_ctim)};
  if (stamped) {
    std::lock_guard<std::mutex> lock(m_mutex);
    auto it = m_stored.find(name);
    if (it != m_stored.end() && it->second.stamp == stamp) {
      ++m_reused;
      m_hashes.emplace(name, it->second.hash);
      return it->second.hash;
    }
  }
  // One read into a buffer of the file's size: data files run to hundreds of MB, and a stringstream
  // copied each of them three times (16 % of verifying Boost.Compute's monte_carlo capture was memmove).
  std::string hash = "unreadable:" + name;
  std::error_code ec;
  auto size = fs::file_size(file, ec);
  std::ifstream in(file, std::ios::binary);
  bool read = false;
  if (!ec && in) {
    std::vector<char> bytes(static_cast<std::size_t>(size));
    in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (static_cast<std::uintmax_t>(in.gcount()) == size && in.peek() == std::ifstream::traits_type::eof()) {
      hash = format::contentHash128(bytes.data(), bytes.size());
      read = true;
    }
  }
  std::lock_guard<std::mutex> lock(m_mutex);
  m_hashes.emplace(name, hash);
  struct timespec now {};
  ::clock_gettime(CLOCK_REALTIME, &now);
  if (stamped && read && stamp.size == size &&
      nanoseconds(now) - std::max(stamp.modified, stamp.changed) >= m_racy) {
    m_stored[name] = Stored{stamp, hash};
    m_dirty = true;
  }
  return hash;
}

void FileHashCache::save() {
  std::lock_guard<std::mutex> lock(m_mutex);
  if (!m_store || !m_dirty)
    return;
  std::string text;
  for (const auto &[path, s] : m_stored) {
    if (path.find('\n') != std::string::npos)
      continue;
    std::ostringstream rest;
    rest << s.hash << ' ' << s.stamp.device << ' ' << s.stamp.inode << ' ' << s.stamp.size << ' '
         << s.stamp.modified << ' ' << s.stamp.changed << '\t' << path;
    text += withChecksum(rest.str()) + '\n';
  }
  std::error_code ec;
  fs::create_directories(m_store->parent_path(), ec);
  if (!ec && format::writeFileAtomically(*m_store, text.data(), text.size()))
    m_dirty = false;
}

namespace {

template <typename T> Json optionalJson(const std::optional<T> &v) {
  return v ? Json(*v) : Json(nullptr);
}

Json argumentKey(const format::KernelArgument &arg, const fs::path &captureDir, FileHashCache &hashes) {
  if (const auto *s = std::get_if<format::ScalarArgument>(&arg))
    return Json::array({"scalar", optionalJson(s->value)});
  if (const auto *a = std::get_if<format::ArrayArgument>(&arg)) {
    Json space = a->addressSpace ? Json(format::toString(*a->addressSpace)) : Json(nullptr);
    Json data = a->data ? Json(hashes.hashOf(captureDir / *a->data)) : Json(nullptr);
    return Json::array({"array", optionalJson(a->size), space, optionalJson(a->flags), data});
  }
  if (std::holds_alternative<format::ImageArgument>(arg))
    return Json::array({"image"});
  return Json::array({"sampler"});
}

Json factsKey(const format::LaunchFacts *facts) {
  if (!facts)
    return nullptr;
  Json args = Json::array();
  for (const format::ArgumentFacts &a : facts->arguments) {
    args.push_back(
        Json::array({a.index, format::toString(a.kind), optionalJson(a.name), optionalJson(a.typeName),
                     optionalJson(a.addressQualifier), optionalJson(a.memFlags),
                     a.subBuffer ? Json(a.subBuffer->origin) : Json(nullptr),
                     a.svm ? Json(a.svm->offset) : Json(nullptr), optionalJson(a.dataSkipped)}));
  }
  return Json::array({format::toString(facts->programOrigin), facts->buildOptions, facts->enqueueFunction,
                      facts->device.addressBits, format::toString(facts->device.endianness), std::move(args),
                      facts->aliases});
}

} // namespace

std::string analysisKey(const format::Instantiation &inst, const format::LaunchFacts *facts,
                        const fs::path &captureDir, FileHashCache &hashes) {
  Json key = Json::array();
  key.push_back(inst.language);
  key.push_back(inst.endianness ? Json(format::toString(*inst.endianness)) : Json(nullptr));
  key.push_back(hashes.hashOf(captureDir / inst.kernelFile));
  key.push_back(optionalJson(inst.localSize));
  key.push_back(inst.globalSize);
  // SPEC §3: an all-zero global_offset is omitted, so absent and zeros are the same launch.
  key.push_back(inst.globalOffset.value_or(format::Dims(inst.globalSize.size(), 0)));
  key.push_back(optionalJson(inst.compilerFlags));
  key.push_back(inst.entryPoint);
  if (inst.kernelArguments) {
    Json args = Json::array();
    for (const auto &arg : *inst.kernelArguments)
      args.push_back(argumentKey(arg, captureDir, hashes));
    key.push_back(std::move(args));
  } else {
    key.push_back(nullptr);
  }
  key.push_back(factsKey(facts));
  return key.dump(-1, ' ', false, Json::error_handler_t::replace);
}

} // namespace clcapture::verify
