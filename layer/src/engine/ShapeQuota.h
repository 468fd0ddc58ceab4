//===- ShapeQuota.h - Buffer bytes for the first N launches of each shape -*- C++ -*-===//
//
// CLCAPTURE_DATA_PER_SHAPE (launcher --data-per-shape N|all). A launch's shape is what decides its
// analysis besides the buffers' bytes: the program, the kernel, the NDRange (offset, global and local
// sizes) and the values of its non-buffer arguments (scalars, __local sizes; a buffer counts by its size
// only). Launches of one shape read their buffers' bytes for the first N launches only; later ones keep
// their metadata, and the sidecar's data_skipped names the shape's first launch, whose bytes are in the
// capture. Bytes already stored and unchanged since (BufferSnapshots) are still recorded: they cost no read.
//
// Default 64: the most launches of one shape in the eight real-application runs of tests/realapps is 36
// (CLBlast's xdot test harness), so none of their captures changes, while a solver loop that launches one
// kernel 100,000 times reads its buffers 64 times instead of 100,000.
//
// Memory is bounded: at most kMaxShapes shapes are counted; a shape first seen after that is not limited
// (the byte budget still is). Guarded by the engine's lock.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/HandleMirrors.h"
#include "engine/LaunchShape.h"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

namespace clcapture::layer {

class ShapeQuota {
public:
  static constexpr std::uint64_t kDefaultPerShape = 64;
  static constexpr std::size_t kMaxShapes = 1u << 16;

  explicit ShapeQuota(std::uint64_t perShape) : m_perShape(perShape) {}

  /// Counts launch `launch` of kernel `k` with `shape`; empty when its buffers' bytes may be read, else the
  /// reason for the sidecar (naming the shape's first launch).
  std::optional<std::string> admit(const KernelInfo &k, const LaunchShape &shape,
                                   const HandleMirrors &mirrors, std::uint64_t launch);

  /// The shape's key: exposed for tests.
  static std::string shapeKey(const KernelInfo &k, const LaunchShape &shape, const HandleMirrors &mirrors);

private:
  struct Count {
    std::uint64_t first = 0;
    std::uint64_t launches = 0;
  };
  std::uint64_t m_perShape;
  std::unordered_map<std::string, Count> m_shapes;
};

} // namespace clcapture::layer
