//===- EncodeTestSupport.h - Kernels built for the encoder's and checker's tests -*- C++ -*-===//
//
// A kernel goes through the real pipeline as pipeline/src/KernelAnalyzer.cpp runs it: compile, normalise,
// specialise to a launch set up in code, encode. The tests then ask the encoding's queries directly.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/encode/KernelEncoding.h"
#include "clcapture/model/LaunchConfig.h"
#include "clcapture/model/LaunchSpecializer.h"
#include "frontend/FrontendTestSupport.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace clcapture::test {

/// A global buffer of `size` bytes, its own memory object `root`.
inline model::ArgumentFact bufferArgument(std::uint64_t root, std::uint64_t size = 4096) {
  model::ArgumentFact fact;
  fact.kind = model::ArgumentFact::Kind::Buffer;
  fact.space = format::AddressSpace::Global;
  fact.size = size;
  fact.root = root;
  return fact;
}

/// A captured 32-bit scalar (little-endian bytes).
inline model::ArgumentFact intArgument(std::uint32_t value) {
  model::ArgumentFact fact;
  fact.kind = model::ArgumentFact::Kind::Scalar;
  fact.bytes = std::vector<std::uint8_t>{
      static_cast<std::uint8_t>(value), static_cast<std::uint8_t>(value >> 8),
      static_cast<std::uint8_t>(value >> 16), static_cast<std::uint8_t>(value >> 24)};
  return fact;
}

/// A scalar the capture does not give (any value).
inline model::ArgumentFact openArgument() {
  model::ArgumentFact fact;
  fact.kind = model::ArgumentFact::Kind::Scalar;
  return fact;
}

/// A 1-D launch of `global` work-items in groups of `local`.
inline model::LaunchConfig launch1D(std::uint64_t global, std::uint64_t local,
                                    std::vector<model::ArgumentFact> arguments) {
  model::LaunchConfig launch;
  launch.workDim = 1;
  launch.globalSize = {global, 1, 1};
  launch.localSize = std::array<std::uint64_t, 3>{local, 1, 1};
  launch.arguments = std::move(arguments);
  return launch;
}

/// A kernel compiled, normalised, specialised and encoded; the module outlives the encoding.
struct EncodedKernel {
  frontend::CompiledKernel kernel;
  std::unique_ptr<encode::KernelEncoding> encoding;
  model::LaunchConfig launch; ///< as specialised

  encode::KernelEncoding &operator*() { return *encoding; }
  encode::KernelEncoding *operator->() { return encoding.get(); }
};

inline EncodedKernel encodeKernel(const std::string &source, const model::LaunchConfig &launch,
                                  const std::string &entry = "k",
                                  const encode::EncodeOptions &options = encode::EncodeOptions{}) {
  EncodedKernel e{compileAndNormalize(kernelRequest(source, entry)), nullptr, launch};
  model::applyRequiredWorkGroupSize(e.kernel.entry(), e.launch);
  model::specializeToLaunch(e.kernel.entry(), e.launch);
  auto encoding = encode::KernelEncoding::encode(e.kernel.entry(), e.launch, options);
  INFO((encoding ? std::string() : encoding.error()));
  REQUIRE(encoding);
  e.encoding = std::move(*encoding);
  return e;
}

/// The same specialised kernel encoded again with `options` (as the pipeline does when a same-value test
/// wants stored values).
inline void encodeAgain(EncodedKernel &e, const encode::EncodeOptions &options) {
  auto encoding = encode::KernelEncoding::encode(e.kernel.entry(), e.launch, options);
  INFO((encoding ? std::string() : encoding.error()));
  REQUIRE(encoding);
  e.encoding = std::move(*encoding);
}

/// The ids of the access sites that satisfy `keep`.
inline std::vector<unsigned> sitesWhere(encode::KernelEncoding &encoding,
                                        const std::function<bool(const encode::AccessSite &)> &keep) {
  std::vector<unsigned> ids;
  for (const encode::AccessSite &site : encoding.accesses())
    if (keep(site))
      ids.push_back(site.id);
  return ids;
}

inline std::vector<unsigned> writesTo(encode::KernelEncoding &encoding, encode::MemorySpace space) {
  return sitesWhere(encoding, [&](const encode::AccessSite &s) { return s.space == space && s.writes; });
}

inline std::vector<unsigned> readsOf(encode::KernelEncoding &encoding, encode::MemorySpace space) {
  return sitesWhere(encoding,
                    [&](const encode::AccessSite &s) { return s.space == space && s.reads && !s.writes; });
}

inline bool contains(const std::vector<unsigned> &ids, unsigned id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

using Status = encode::QueryOutcome::Status;

} // namespace clcapture::test
