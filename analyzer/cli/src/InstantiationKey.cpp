//===- InstantiationKey.cpp - When two instantiations are the same launch -===//

#include "clcapture/verify/InstantiationKey.h"

#include "clcapture/format/BlobStore.h"
#include "clcapture/format/CaptureBlobs.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <variant>
#include <vector>

namespace clcapture::verify {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

std::string FileHashCache::hashOf(const fs::path &file) {
  std::string name = file.lexically_normal().string();
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    auto it = m_hashes.find(name);
    if (it != m_hashes.end())
      return it->second;
  }
  // One read into a buffer of the file's size: data files run to hundreds of MB, and a stringstream
  // copied each of them three times (16 % of verifying Boost.Compute's monte_carlo capture was memmove).
  // A loose file or a record of the capture's packs (CaptureBlobs.h): the same bytes, the same hash.
  std::string hash = "unreadable:" + name;
  if (auto bytes = format::readCaptureFile(file))
    hash = format::contentHash128(bytes->data(), bytes->size());
  std::lock_guard<std::mutex> lock(m_mutex);
  m_hashes.emplace(name, hash);
  return hash;
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
