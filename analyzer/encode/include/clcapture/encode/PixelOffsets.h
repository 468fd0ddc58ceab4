//===- PixelOffsets.h - Image pixels as offsets of one memory object -*- C++ -*-===//
//
// An image access (read_image*/write_image*, EncodeImages.cpp) is an access of one unit at an offset that
// packs the pixel's integer coordinates, lane i shifted by i × pixelLaneBits(lanes), so that two pixels
// share an offset only when they are one pixel. The bits per lane depend on how many coordinates there
// are: one coordinate (image1d_t, image1d_buffer_t, whose width may reach 2^28 pixels on PoCL) keeps all 64
// bits; two (image2d_t) 32 bits each, as wide as the int coordinates themselves; three (image3d_t,
// image2d_array_t) 21 bits each, more than any device's 3D image or array dimension.
// The checker reads a witness's pixel back with pixelIndex().
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace clcapture::encode {

/// Coordinates beyond the third (the unused w of an int4) are not part of the pixel.
constexpr unsigned pixelLanes(unsigned coordinateLanes) {
  return std::min(std::max(coordinateLanes, 1u), 3u);
}

/// The bits each coordinate occupies in a pixel's offset.
constexpr unsigned pixelLaneBits(unsigned coordinateLanes) {
  unsigned lanes = pixelLanes(coordinateLanes);
  return lanes == 1 ? 64 : lanes == 2 ? 32 : 21;
}

/// The pixel at `offset`, outermost coordinate first ({x}, {y, x} or {z, y, x}), as reports print indices.
inline std::vector<std::uint64_t> pixelIndex(std::uint64_t offset, unsigned coordinateLanes) {
  unsigned lanes = pixelLanes(coordinateLanes), bits = pixelLaneBits(coordinateLanes);
  std::uint64_t mask = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  std::vector<std::uint64_t> index;
  for (unsigned i = lanes; i-- > 0;)
    index.push_back((offset >> (bits * i)) & mask);
  return index;
}

} // namespace clcapture::encode
