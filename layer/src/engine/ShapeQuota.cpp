//===- ShapeQuota.cpp - Buffer bytes for the first N launches of each shape -===//

#include "engine/ShapeQuota.h"

#include "clcapture/format/BlobStore.h"
#include "engine/LaunchShape.h"

#include <cstring>

namespace clcapture::layer {

namespace {

template <typename T> void put(std::string &out, const T &value) {
  out.append(reinterpret_cast<const char *>(&value), sizeof value);
}

void putSizes(std::string &out, const std::vector<std::uint64_t> &sizes) {
  put(out, static_cast<std::uint64_t>(sizes.size()));
  for (std::uint64_t s : sizes)
    put(out, s);
}

} // namespace

std::string ShapeQuota::shapeKey(const KernelInfo &k, const LaunchShape &shape,
                                 const HandleMirrors &mirrors) {
  std::string raw;
  put(raw, k.program ? k.program->id : 0);
  raw += k.name;
  raw += '\0';
  putSizes(raw, shape.globalOffset);
  putSizes(raw, shape.globalSize);
  putSizes(raw, shape.localSize);
  for (const ArgValue &v : k.args) {
    if (v.svm) {
      raw += 'p';
      continue;
    }
    cl_mem mem = nullptr;
    if (v.bytes.size() == sizeof(cl_mem))
      std::memcpy(&mem, v.bytes.data(), sizeof mem);
    auto it = mem ? mirrors.mems.find(mem) : mirrors.mems.end();
    if (it != mirrors.mems.end()) {
      raw += 'b'; // which buffer does not matter, its bytes are what N limits
      put(raw, it->second.size);
      continue;
    }
    raw += v.set ? 'v' : 'u';
    put(raw, static_cast<std::uint64_t>(v.size));
    raw.append(reinterpret_cast<const char *>(v.bytes.data()), v.bytes.size());
  }
  return format::contentHash128(raw.data(), raw.size());
}

std::optional<std::string> ShapeQuota::admit(const KernelInfo &k, const LaunchShape &shape,
                                             const HandleMirrors &mirrors, std::uint64_t launch) {
  if (m_perShape == UINT64_MAX)
    return std::nullopt;
  std::string key = shapeKey(k, shape, mirrors);
  auto it = m_shapes.find(key);
  if (it == m_shapes.end()) {
    if (m_shapes.size() >= kMaxShapes)
      return std::nullopt;
    it = m_shapes.emplace(std::move(key), Count{launch, 0}).first;
  }
  Count &c = it->second;
  if (c.launches++ < m_perShape)
    return std::nullopt;
  return "launch " + std::to_string(c.first) +
         " has the same shape (program, kernel, NDRange, scalar values), " + "and its first " +
         std::to_string(m_perShape) + " launches were captured with bytes (--data-per-shape " +
         std::to_string(m_perShape) + ")";
}

} // namespace clcapture::layer
