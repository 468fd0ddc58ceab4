//===- LaunchConfig.h - The captured facts the analysis uses ----*- C++ -*-===//
//
// docs/contract.md §5: scalar values, global/local sizes and offset, buffer sizes, aliasing of arguments that
// are the same memory object, and (for buffers the launch never writes) their captured bytes. Built from one
// instantiation and its sidecar launch facts; what the capture does not say stays unconstrained (a missing
// local size means any legal work-group size, a missing value any value).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Expected.h"
#include "clcapture/format/Instantiation.h"
#include "clcapture/format/Sidecar.h"

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clcapture::model {

struct ArgumentFact {
  enum class Kind { Scalar, Buffer, Local, Image, Sampler, Unknown } kind = Kind::Unknown;
  /// Scalar: the value's bytes in the device's byte order (absent: unconstrained).
  std::optional<std::vector<std::uint8_t>> bytes;
  /// Scalar without `bytes`: the values (bytes as above) of the launches a parametric proof covers; the
  /// encoder bounds the open value by them (docs/semantics.md row 35). Empty: every value.
  std::vector<std::vector<std::uint8_t>> candidates;
  /// Buffer / local: size in bytes, when captured.
  std::optional<std::uint64_t> size;
  std::optional<format::AddressSpace> space;
  /// Buffer: the memory object it lies in (arguments with the same root may alias) and its offset there.
  /// Without a sidecar every buffer is its own root (GPUVerify's assumption: distinct arguments).
  std::uint64_t root = 0;
  std::uint64_t origin = 0;
  /// Buffer: the host passed NULL for it (the sidecar's null-buffer): the pointer is the null pointer.
  bool null = false;
  /// Buffer: its captured flags hold CL_MEM_READ_ONLY (a write in the kernel is undefined) or
  /// CL_MEM_WRITE_ONLY (a read is undefined): OpenCL 1.2 §5.2.1, Table 5.3.
  bool readOnly = false, writeOnly = false;
  /// The sidecar says this buffer overlaps another argument's (its `aliases`) without saying where: same
  /// root, origin unknown.
  bool originOpen = false;
  /// Buffer: the captured contents file (absolute path), when captured.
  std::optional<std::filesystem::path> data;
  std::string name; ///< the parameter's name, when known
  /// Image: the sidecar's facts (type and extents, imageCoordinateBounds); absent when not captured.
  std::optional<format::ImageFacts> image;
  /// Sampler: its properties, from the sidecar's `sampler`; absent when not captured.
  std::optional<format::SamplerFacts> sampler;
};

/// The bound of each integer coordinate of an image of this type (OpenCL 1.2 §6.12.14.2-3): x; then y (2D,
/// 3D) or the array index (1D array); then z (3D) or the array index (2D array). Empty for a type the sidecar
/// cannot name.
std::vector<std::uint64_t> imageCoordinateBounds(const format::ImageFacts &image);

struct LaunchConfig {
  unsigned workDim = 1;
  std::array<std::uint64_t, 3> globalSize{1, 1, 1};
  std::optional<std::array<std::uint64_t, 3>> localSize; ///< absent: any legal work-group size
  /// OpenCL 2.0 non-uniform work-groups: the global size is not a multiple of the local size in this
  /// dimension, so the last group there is smaller (get_local_size differs from get_enqueued_local_size).
  std::array<bool, 3> partialLastGroup{false, false, false};
  /// The program allows non-uniform work-groups (OpenCL 2.0 or later): a NULL local size may be any size.
  bool nonUniformAllowed = false;
  std::array<std::uint64_t, 3> globalOffset{0, 0, 0};
  format::Endianness endianness = format::Endianness::Little;
  unsigned addressBits = 64;
  std::vector<ArgumentFact> arguments;
};

/// The launch of `inst` (captures file in `captureDir`), with `facts` from the sidecar when present.
format::Expected<LaunchConfig> makeLaunchConfig(const format::Instantiation &inst,
                                                const format::LaunchFacts *facts,
                                                const std::filesystem::path &captureDir);

/// Up to this many distinct candidates, an open scalar is one of them; beyond, it lies between the least and
/// the greatest (docs/semantics.md row 35). pipeline::kOpenValueSetMax says the same to the driver.
constexpr std::size_t kCandidateSetMax = 16;

/// Sets each open scalar's candidates (ArgumentFact::candidates) from the values a parametric group's
/// launches passed (as captures.json writes them, index → values); the reason when one is not an open
/// scalar of `launch` or a value does not decode.
std::optional<std::string> addCandidates(LaunchConfig &launch,
                                         const std::map<std::size_t, std::vector<std::string>> &values);

} // namespace clcapture::model
