//===- InstantiationKey.cpp - When two instantiations are the same launch -===//

#include "clcapture/verify/InstantiationKey.h"

#include "clcapture/format/BlobStore.h"
#include "clcapture/format/CaptureBlobs.h"

#include <algorithm>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string_view>
#include <sys/stat.h>
#include <type_traits>
#include <variant>
#include <vector>

namespace clcapture::verify {

namespace fs = std::filesystem;

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
  // A loose file or a record of the capture's packs (CaptureBlobs.h): the same bytes, the same hash.
  std::string hash = "unreadable:" + name;
  bool read = false;
  std::uintmax_t size = 0;
  if (auto bytes = format::readCaptureFile(file)) {
    hash = format::contentHash128(bytes->data(), bytes->size());
    size = bytes->size();
    read = true;
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

/// Appends fields to a key: strings length-prefixed, numbers decimal, each field closed by ';', so that
/// distinct field lists give distinct keys without escaping (and without a JSON tree per launch: 64,000
/// launches each built two).
class KeyWriter {
public:
  KeyWriter &text(std::string_view s) {
    m_key += std::to_string(s.size());
    m_key += ':';
    m_key += s;
    m_key += ';';
    return *this;
  }
  KeyWriter &number(std::uint64_t n) {
    m_key += std::to_string(n);
    m_key += ';';
    return *this;
  }
  KeyWriter &none() {
    m_key += "-;";
    return *this;
  }
  template <typename T> KeyWriter &optional(const std::optional<T> &v) {
    if (!v)
      return none();
    if constexpr (std::is_same_v<T, std::string>)
      return text(*v);
    else
      return number(*v);
  }
  KeyWriter &dims(const format::Dims &d) {
    m_key += '(';
    for (std::uint64_t n : d)
      number(n);
    m_key += ')';
    return *this;
  }
  KeyWriter &open(char c) {
    m_key += c;
    return *this;
  }
  std::string take() { return std::move(m_key); }

private:
  std::string m_key;
};

void argumentKey(KeyWriter &key, const format::KernelArgument &arg, const fs::path &captureDir,
                 FileHashCache &hashes, bool withValues) {
  if (const auto *s = std::get_if<format::ScalarArgument>(&arg)) {
    key.text("scalar");
    if (withValues)
      key.optional(s->value);
    else
      key.none();
  } else if (const auto *a = std::get_if<format::ArrayArgument>(&arg)) {
    // The shape (no values) leaves a global or constant buffer's size out: the race and divergence
    // analysis reads it only with the buffer's bytes (ReadOnlyTables.cpp), and a parametric group opens
    // both. A local buffer's size stays: it is the memory the work-group shares.
    bool local = a->addressSpace == format::AddressSpace::Local;
    if (withValues || local)
      key.text("array").optional(a->size);
    else
      key.text("array").none();
    if (a->addressSpace)
      key.text(format::toString(*a->addressSpace));
    else
      key.none();
    if (a->flags) {
      key.open('[');
      for (const std::string &f : *a->flags)
        key.text(f);
      key.open(']');
    } else {
      key.none();
    }
    if (a->data && withValues)
      key.text(hashes.hashOf(captureDir / *a->data));
    else
      key.none();
  } else if (std::holds_alternative<format::ImageArgument>(arg)) {
    key.text("image");
  } else {
    key.text("sampler");
  }
}

void factsKey(KeyWriter &key, const format::LaunchFacts *facts, bool withValues) {
  if (!facts) {
    key.none();
    return;
  }
  key.open('{');
  key.text(format::toString(facts->programOrigin)).text(facts->buildOptions).text(facts->enqueueFunction);
  key.number(facts->device.addressBits).text(format::toString(facts->device.endianness));
  // Whether a NULL local size may give non-uniform groups (docs/semantics.md row 2b) depends on it.
  key.optional(facts->device.nonUniformWorkGroups);
  key.open('[');
  for (const format::ArgumentFacts &a : facts->arguments) {
    key.number(a.index).text(format::toString(a.kind)).optional(a.name).optional(a.typeName);
    key.optional(a.addressQualifier).optional(a.memFlags);
    if (a.subBuffer)
      key.number(a.subBuffer->origin);
    else
      key.none();
    if (a.svm)
      key.number(a.svm->offset);
    else
      key.none();
    // An image's extents bound its coordinates; a sampler's addressing decides whether they are checked.
    if (a.image)
      key.text(a.image->type)
          .number(a.image->width)
          .number(a.image->height)
          .number(a.image->depth)
          .number(a.image->arraySize);
    else
      key.none();
    if (a.sampler)
      key.number(a.sampler->normalizedCoords)
          .text(format::toString(a.sampler->addressing))
          .text(format::toString(a.sampler->filter));
    else
      key.none();
    if (withValues) // only says why `data` is absent
      key.optional(a.dataSkipped);
    else
      key.none();
  }
  key.open(']').open('[');
  for (const std::vector<std::uint32_t> &group : facts->aliases) {
    key.open('(');
    for (std::uint32_t i : group)
      key.number(i);
    key.open(')');
  }
  key.open(']').open('}');
}

std::string instantiationKey(const format::Instantiation &inst, const format::LaunchFacts *facts,
                             const fs::path &captureDir, FileHashCache &hashes, bool withValues) {
  KeyWriter key;
  key.text(inst.language);
  if (inst.endianness)
    key.text(format::toString(*inst.endianness));
  else
    key.none();
  key.text(hashes.hashOf(captureDir / inst.kernelFile));
  if (inst.localSize)
    key.dims(*inst.localSize);
  else
    key.none();
  key.dims(inst.globalSize);
  // docs/contract.md §3: an all-zero global_offset is omitted, so absent and zeros are the same launch.
  key.dims(inst.globalOffset.value_or(format::Dims(inst.globalSize.size(), 0)));
  key.optional(inst.compilerFlags).text(inst.entryPoint);
  if (inst.kernelArguments) {
    key.open('[');
    for (const auto &arg : *inst.kernelArguments)
      argumentKey(key, arg, captureDir, hashes, withValues);
    key.open(']');
  } else {
    key.none();
  }
  factsKey(key, facts, withValues);
  return key.take();
}

} // namespace

std::string analysisKey(const format::Instantiation &inst, const format::LaunchFacts *facts,
                        const fs::path &captureDir, FileHashCache &hashes) {
  return instantiationKey(inst, facts, captureDir, hashes, true);
}

std::string shapeKey(const format::Instantiation &inst, const format::LaunchFacts *facts,
                     const fs::path &captureDir, FileHashCache &hashes) {
  return instantiationKey(inst, facts, captureDir, hashes, false);
}

} // namespace clcapture::verify
