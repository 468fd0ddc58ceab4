//===- LaunchConfig.cpp - The captured facts the analysis uses ------------===//

#include "clcapture/model/LaunchConfig.h"

#include "clcapture/format/CaptureReader.h"
#include "clcapture/format/ScalarCodec.h"

#include <algorithm>
#include <variant>

namespace clcapture::model {

namespace fmt = clcapture::format;

fmt::Expected<LaunchConfig> makeLaunchConfig(const fmt::Instantiation &inst, const fmt::LaunchFacts *facts,
                                             const std::filesystem::path &captureDir) {
  LaunchConfig c;
  if (inst.globalSize.empty() || inst.globalSize.size() > 3)
    return fmt::fail("global_size must have 1 to 3 dimensions");
  c.workDim = static_cast<unsigned>(inst.globalSize.size());
  // A device that says it cannot run non-uniform work-groups gives a NULL local size uniform ones, whatever
  // the program allows (docs/semantics.md row 2b); one that does not say may.
  c.nonUniformAllowed = fmt::allowsNonUniformWorkGroups(inst) &&
                        !(facts && facts->device.nonUniformWorkGroups == std::optional<bool>(false));
  for (unsigned d = 0; d < c.workDim; ++d)
    c.globalSize[d] = inst.globalSize[d];
  if (inst.localSize) {
    if (inst.localSize->size() != c.workDim)
      return fmt::fail("local_size and global_size have different dimensions");
    std::array<std::uint64_t, 3> local{1, 1, 1};
    for (unsigned d = 0; d < c.workDim; ++d) {
      local[d] = (*inst.localSize)[d];
      if (local[d] == 0)
        return fmt::fail("local_size is 0 in dimension " + std::to_string(d));
      if (c.globalSize[d] % local[d] != 0) {
        if (!c.nonUniformAllowed)
          return fmt::fail("local_size does not divide global_size in dimension " + std::to_string(d));
        c.partialLastGroup[d] = true;
      }
    }
    c.localSize = local;
  }
  if (inst.globalOffset)
    for (unsigned d = 0; d < c.workDim && d < inst.globalOffset->size(); ++d)
      c.globalOffset[d] = (*inst.globalOffset)[d];
  c.endianness = inst.endianness.value_or(fmt::Endianness::Little);
  if (facts && facts->device.addressBits)
    c.addressBits = facts->device.addressBits;

  std::uint64_t nextRoot =
      1u << 20; // roots of buffers without sidecar facts: distinct from memory-object ids
  if (inst.kernelArguments)
    for (std::size_t i = 0; i < inst.kernelArguments->size(); ++i) {
      const fmt::KernelArgument &arg = (*inst.kernelArguments)[i];
      const fmt::ArgumentFacts *af = facts && i < facts->arguments.size() ? &facts->arguments[i] : nullptr;
      ArgumentFact a;
      if (af && af->name)
        a.name = *af->name;
      if (const auto *s = std::get_if<fmt::ScalarArgument>(&arg)) {
        a.kind = ArgumentFact::Kind::Scalar;
        if (s->value) {
          auto bytes = fmt::decodeScalar(*s->value, fmt::scalarDigitBytes(*s->value), c.endianness);
          if (bytes)
            a.bytes = *bytes;
        }
      } else if (const auto *arr = std::get_if<fmt::ArrayArgument>(&arg)) {
        a.space = arr->addressSpace.value_or(fmt::AddressSpace::Global);
        a.kind =
            *a.space == fmt::AddressSpace::Local ? ArgumentFact::Kind::Local : ArgumentFact::Kind::Buffer;
        a.size = arr->size;
        if (arr->flags) {
          a.readOnly = std::count(arr->flags->begin(), arr->flags->end(), "CL_MEM_READ_ONLY") > 0;
          a.writeOnly = std::count(arr->flags->begin(), arr->flags->end(), "CL_MEM_WRITE_ONLY") > 0;
        }
        if (arr->data)
          a.data = captureDir / *arr->data;
        a.null = af && af->kind == fmt::ArgumentKind::NullBuffer;
        if (af && af->subBuffer) {
          a.root = af->subBuffer->parent;
          a.origin = af->subBuffer->origin;
        } else if (af && af->memObject) {
          a.root = *af->memObject;
        } else if (af && af->svm) {
          a.root = (1ull << 40) + af->svm->allocation;
          a.origin = af->svm->offset;
        } else {
          a.root = nextRoot++;
        }
      } else if (std::holds_alternative<fmt::ImageArgument>(arg)) {
        a.kind = ArgumentFact::Kind::Image;
        if (af && af->image && !imageCoordinateBounds(*af->image).empty())
          a.image = *af->image;
      } else {
        a.kind = ArgumentFact::Kind::Sampler;
        if (af && af->sampler)
          a.sampler = *af->sampler;
      }
      c.arguments.push_back(std::move(a));
    }
  // Aliasing groups (arguments whose memory overlaps) that the memory-object facts do not already put in
  // one root: one root for the group, each member's place in it open.
  if (facts)
    for (const std::vector<std::uint32_t> &group : facts->aliases) {
      std::optional<std::uint64_t> root;
      bool differ = false;
      for (std::uint32_t i : group)
        if (i < c.arguments.size() && c.arguments[i].kind == ArgumentFact::Kind::Buffer) {
          differ = differ || (root && *root != c.arguments[i].root);
          root = root ? std::min(*root, c.arguments[i].root) : c.arguments[i].root;
        }
      if (!differ)
        continue;
      for (std::uint32_t i : group)
        if (i < c.arguments.size() && c.arguments[i].kind == ArgumentFact::Kind::Buffer) {
          c.arguments[i].root = *root;
          c.arguments[i].originOpen = true;
        }
    }
  return c;
}

std::vector<std::uint64_t> imageCoordinateBounds(const fmt::ImageFacts &image) {
  if (image.type == "image1d" || image.type == "image1d_buffer")
    return {image.width};
  if (image.type == "image1d_array")
    return {image.width, image.arraySize};
  if (image.type == "image2d")
    return {image.width, image.height};
  if (image.type == "image2d_array")
    return {image.width, image.height, image.arraySize};
  if (image.type == "image3d")
    return {image.width, image.height, image.depth};
  return {};
}

std::optional<std::string> addCandidates(LaunchConfig &launch,
                                         const std::map<std::size_t, std::vector<std::string>> &values) {
  for (const auto &[index, texts] : values) {
    if (index >= launch.arguments.size() || launch.arguments[index].kind != ArgumentFact::Kind::Scalar ||
        launch.arguments[index].bytes)
      return "argument " + std::to_string(index) + " is not an open scalar, yet values bound it";
    std::vector<std::vector<std::uint8_t>> candidates;
    for (const std::string &text : texts) {
      auto bytes = fmt::decodeScalar(text, fmt::scalarDigitBytes(text), launch.endianness);
      if (!bytes)
        return "argument " + std::to_string(index) + ": " + bytes.error();
      candidates.push_back(std::move(*bytes));
    }
    launch.arguments[index].candidates = std::move(candidates);
  }
  return std::nullopt;
}

} // namespace clcapture::model
