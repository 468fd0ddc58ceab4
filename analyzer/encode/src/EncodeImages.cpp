//===- EncodeImages.cpp - read_image and write_image -===//

#include "ThreadEncoderImpl.h"
#include "clcapture/encode/PixelOffsets.h"

namespace clcapture::encode {

/// read_image*/write_image* (OpenCL 1.2 §6.12.14): the image is a memory object whose "bytes" are pixels,
/// one unit each, addressed by the coordinates packed into 64 bits (PixelOffsets.h). A write is exact; a read
/// through a sampler may clamp or wrap its coordinates, so the pixel it reads is open (a race through it is
/// `unknown`, never a false witness); a read without a sampler reads its coordinates. The values read are
/// open.
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
  AccessSite &site = m_s.sites[m_s.siteFor(&call)];
  site.image = true;
  site.imageCoordinates = coordinateLanes;
  if (!call.getType()->isVoidTy())
    m_values[&call] = freshValue(call.getType(), "a pixel read from an image at " + placeOf(&call));
  return {};
}

} // namespace clcapture::encode
