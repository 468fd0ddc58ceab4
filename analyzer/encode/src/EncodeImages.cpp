//===- EncodeImages.cpp - read_image and write_image -===//

#include "ThreadEncoderImpl.h"
#include "clcapture/encode/PixelOffsets.h"

#include <llvm/IR/Constants.h>

namespace clcapture::encode {

namespace {

/// The properties of the sampler `v` when they are known: a constant one (`const sampler_t s = CLK_… |
/// CLK_…`, which clang makes a call of __translate_sampler_initializer with the bits of opencl-c-base.h) or
/// a sampler argument the capture describes.
std::optional<format::SamplerFacts> samplerOf(const EncodingState &s, const llvm::Value *v) {
  v = v->stripPointerCasts();
  if (auto it = s.samplers.find(v); it != s.samplers.end())
    return it->second;
  const auto *call = llvm::dyn_cast<llvm::CallBase>(v);
  const llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
  if (!callee || callee->getName() != "__translate_sampler_initializer" || call->arg_size() != 1)
    return std::nullopt;
  const auto *bits = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(0));
  if (!bits)
    return std::nullopt;
  std::uint64_t b = bits->getZExtValue();
  static constexpr format::SamplerAddressing kModes[] = {
      format::SamplerAddressing::None, format::SamplerAddressing::ClampToEdge,
      format::SamplerAddressing::Clamp, format::SamplerAddressing::Repeat,
      format::SamplerAddressing::MirroredRepeat};
  if (((b >> 1) & 7) > 4)
    return std::nullopt;
  format::SamplerFacts f;
  f.normalizedCoords = b & 1;
  f.addressing = kModes[(b >> 1) & 7];
  f.filter = (b & 0x20) ? format::SamplerFilter::Linear : format::SamplerFilter::Nearest;
  return f;
}

} // namespace

/// The captured extents answer get_image_width, get_image_height, get_image_depth, get_image_array_size and
/// get_image_dim (OpenCL 1.2 §6.12.14.5) exactly: they are the launch's image's (clGetImageInfo). The
/// channel queries, which the capture does not record, stay open.
std::optional<SymValue> ThreadEncoder::imageQuery(llvm::CallBase &call, const std::string &name) {
  auto image = call.arg_size() >= 1 ? pointer(call.getArgOperand(0)) : std::nullopt;
  if (!image || !image->object.isBitVectorValue())
    return std::nullopt;
  auto facts = m_s.images.find(std::stoull(image->object.getBitVectorValue(10)));
  if (facts == m_s.images.end())
    return std::nullopt;
  const format::ImageFacts &f = facts->second;
  bool array = f.type == "image1d_array" || f.type == "image2d_array";
  std::vector<std::uint64_t> lanes;
  if (name == "get_image_width")
    lanes = {f.width};
  else if (name == "get_image_height" && f.height)
    lanes = {f.height};
  else if (name == "get_image_depth" && f.type == "image3d")
    lanes = {f.depth};
  else if (name == "get_image_array_size" && array)
    lanes = {f.arraySize};
  else if (name == "get_image_dim" && f.type == "image3d")
    lanes = {f.width, f.height, f.depth, 0}; // int4: (width, height, depth, 0)
  else if (name == "get_image_dim" && (f.type == "image2d" || f.type == "image2d_array"))
    lanes = {f.width, f.height};
  else
    return std::nullopt;
  llvm::Type *type = call.getType();
  unsigned count = type->isVectorTy() ? llvm::cast<llvm::FixedVectorType>(type)->getNumElements() : 1;
  unsigned bits = type->getScalarSizeInBits();
  if (count != lanes.size() || bits == 0 || bits > 64)
    return std::nullopt;
  cvc5::Term term;
  for (std::size_t i = 0; i < lanes.size(); ++i) { // lane 0 in the low bits, as the encoder's vectors
    cvc5::Term lane = m_tf.constant(bits, lanes[i]);
    term = i == 0 ? lane : m_tf.op(cvc5::Kind::BITVECTOR_CONCAT, {lane, term});
  }
  return SymValue{term, image->how};
}

/// read_image*/write_image* (OpenCL 1.2 §6.12.14): the image is a memory object whose "bytes" are pixels,
/// one unit each, addressed by the coordinates packed into 64 bits (PixelOffsets.h). A write is exact; a read
/// through a sampler may clamp or wrap its coordinates, so the pixel it reads is open (a race through it is
/// `unknown`, never a false witness); a read without a sampler reads its coordinates. The values read are
/// open.
///
/// Bounds (docs/semantics.md row 37i): a write's coordinates, a read's without a sampler, and a read's
/// through a sampler with CLK_ADDRESS_NONE must lie inside the image (§6.12.14.1, Table 6.23; §6.12.14.2-3:
/// out of range the behaviour is undefined): the access keeps its integer coordinates for the bounds query.
/// A clamping, repeating or mirroring sampler keeps any coordinate inside. A sampler the encoder cannot
/// follow, or float coordinates read through a non-clamping one, leave the question open (`unknown`).
format::Status ThreadEncoder::encodeImageAccess(llvm::CallBase &call, bool write) {
  auto image = call.arg_size() >= 2 ? pointer(call.getArgOperand(0)) : std::nullopt;
  if (!image)
    return format::fail("an image the encoder cannot follow at " + placeOf(&call));
  bool sampled = !write && call.arg_size() >= 3;
  llvm::Value *coordArg = call.getArgOperand(sampled ? 2 : 1);
  auto coord = value(coordArg);
  SymPointer at = *image;
  at.space = MemorySpace::Global;
  Exactness how = image->how;
  llvm::Type *ct = coordArg->getType();
  bool integerCoords = ct->isIntOrIntVectorTy();
  unsigned coordinateLanes = 0; // 0: the pixel is open, not packed
  if (!coord || sampled || !integerCoords) {
    at.offset = m_tf.fresh(m_tf.bv(64), name("pixel"));
    how = how & Exactness{sampled ? "the pixel a sampler reads at " + placeOf(&call)
                                  : "the image coordinates at " + placeOf(&call)};
  } else {
    coordinateLanes = ct->isVectorTy() ? llvm::cast<llvm::FixedVectorType>(ct)->getNumElements() : 1;
    unsigned bits = coord->term.getSort().getBitVectorSize() / coordinateLanes;
    unsigned laneBits = pixelLaneBits(coordinateLanes);
    cvc5::Term packed = m_tf.constant(64, 0);
    for (unsigned i = 0; i < pixelLanes(coordinateLanes); ++i) {
      cvc5::Term c = m_tf.resize(m_tf.extract(coord->term, (i + 1) * bits - 1, i * bits), 64, false);
      if (laneBits < 64)
        c = m_tf.op(cvc5::Kind::BITVECTOR_AND, {c, m_tf.constant(64, (1ull << laneBits) - 1)});
      packed = m_tf.op(cvc5::Kind::BITVECTOR_OR,
                       {packed, m_tf.op(cvc5::Kind::BITVECTOR_SHL, {c, m_tf.constant(64, laneBits * i)})});
    }
    at.offset = packed;
    how = how & coord->how;
  }
  at.how = how;
  SymValue stored;
  if (write)
    stored = storedValue(*call.getArgOperand(call.arg_size() - 1), "a pixel value");
  recordAccess(call, at, m_tf.constant(64, 1), {}, !write, write, false, 1, write ? &stored : nullptr);
  if (write)
    noteSlicedValue(call, *call.getArgOperand(call.arg_size() - 1));
  unsigned id = m_s.siteFor(&call);
  if (m_thread == 0 && m_s.options.memorySafety)
    m_s.records[0][id].indexVariables = indexVariables({coordArg});
  AccessSite &site = m_s.sites[id];
  site.image = true;
  site.imageCoordinates = coordinateLanes;
  // Whether the coordinates must lie inside the image, and if so whether they are known.
  std::optional<format::SamplerFacts> sampler;
  if (sampled)
    sampler = samplerOf(m_s, call.getArgOperand(1));
  bool clamped = sampler && sampler->addressing != format::SamplerAddressing::None;
  if (sampled && !sampler)
    site.imageBoundsOpen = "the sampler at " + placeOf(&call) + ", whose addressing mode is not known";
  else if (!clamped && (!coord || !integerCoords))
    site.imageBoundsOpen = std::string(integerCoords ? "the image coordinates" : "float image coordinates") +
                           " at " + placeOf(&call) +
                           (sampled ? ", read through a sampler that does not clamp" : "");
  else if (!clamped) {
    AccessRecord &r = m_s.records[m_thread][id];
    unsigned lanes = ct->isVectorTy() ? llvm::cast<llvm::FixedVectorType>(ct)->getNumElements() : 1;
    unsigned bits = coord->term.getSort().getBitVectorSize() / lanes;
    r.pixel.clear();
    for (unsigned i = 0; i < lanes && i < 3; ++i)
      r.pixel.push_back(m_tf.extract(coord->term, (i + 1) * bits - 1, i * bits));
    r.pixelHow = image->how & coord->how; // not the packed offset's: a sampled pixel is open there
  }
  if (!call.getType()->isVoidTy())
    m_values[&call] = freshValue(call.getType(), "a pixel read from an image at " + placeOf(&call));
  return {};
}

} // namespace clcapture::encode
