//===- EncodeImages.cpp - read_image and write_image -===//

#include "ThreadEncoderImpl.h"

namespace clcapture::encode {

/// read_image*/write_image* (OpenCL 1.2 §6.12.14): the image is a memory object whose "bytes" are pixels,
/// one unit each, addressed by the coordinates packed into 64 bits (x, y, z: 21 bits each, enough for any
/// image size a device allows). A write is exact; a read through a sampler may clamp or wrap its
/// coordinates, so the pixel it reads is open (a race through it is `unknown`, never a false witness);
/// a read without a sampler reads its coordinates. The values read are open.
format::Status ThreadEncoder::encodeImageAccess(llvm::CallBase &call, bool write) {
  auto image = call.arg_size() >= 2 ? pointer(call.getArgOperand(0)) : std::nullopt;
  if (!image)
    return format::fail("an image the encoder cannot follow at " + placeOf(&call));
  bool sampled = !write && call.arg_size() >= 3;
  llvm::Value *coordArg = call.getArgOperand(sampled ? 2 : 1);
  auto coord = value(coordArg);
  SymPointer at = *image;
  at.space = Space::Global;
  Exactness how = image->how;
  llvm::Type *ct = coordArg->getType();
  bool integerCoords = ct->isIntOrIntVectorTy();
  if (!coord || sampled || !integerCoords) {
    at.offset = m_tf.fresh(m_tf.bv(64), name("pixel"));
    how = how & Exactness{sampled ? "the pixel a sampler reads at " + placeOf(&call)
                                  : "the image coordinates at " + placeOf(&call)};
  } else {
    unsigned lanes = ct->isVectorTy() ? llvm::cast<llvm::FixedVectorType>(ct)->getNumElements() : 1;
    unsigned bits = coord->term.getSort().getBitVectorSize() / lanes;
    cvc5::Term packed = m_tf.constant(64, 0);
    for (unsigned i = 0; i < std::min(lanes, 3u); ++i) {
      cvc5::Term c = m_tf.resize(m_tf.extract(coord->term, (i + 1) * bits - 1, i * bits), 64, false);
      c = m_tf.op(cvc5::Kind::BITVECTOR_AND, {c, m_tf.constant(64, (1ull << 21) - 1)});
      packed = m_tf.op(cvc5::Kind::BITVECTOR_OR,
                       {packed, m_tf.op(cvc5::Kind::BITVECTOR_SHL, {c, m_tf.constant(64, 21ull * i)})});
    }
    at.offset = packed;
    how = how & coord->how;
  }
  at.how = how;
  SymValue stored;
  if (write) {
    llvm::Value *v = call.getArgOperand(call.arg_size() - 1);
    auto sv = value(v);
    stored = sv ? *sv : freshValue(v->getType(), "a pixel value");
  }
  recordAccess(call, at, m_tf.constant(64, 1), {}, !write, write, false, 1, write ? &stored : nullptr);
  m_s.sites[m_s.siteFor(&call)].image = true;
  if (!call.getType()->isVoidTy())
    m_values[&call] = freshValue(call.getType(), "a pixel read from an image at " + placeOf(&call));
  return {};
}

} // namespace clcapture::encode
