//===- ScalarCodec.h - Argument bytes <-> GPUVerify hex values --*- C++ -*-===//
//
// docs/contract.md §3: a scalar argument's `value` is its bytes read as one integer in the device's byte
// order, written "0x" followed by 2×size upper-case hex digits. `int 1` → "0x00000001"; on a little-endian
// device `struct {int a=2; int b=4;}` → "0x0000000400000002".
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Expected.h"
#include "clcapture/format/Instantiation.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace clcapture::format {

/// Encodes `size` bytes (device order) as "0x" + 2×size upper-case hex digits.
std::string encodeScalar(const void *bytes, std::size_t size, Endianness order);
inline std::string encodeScalar(const std::vector<std::uint8_t> &bytes, Endianness order) {
  return encodeScalar(bytes.data(), bytes.size(), order);
}

/// True for "0x" followed by at least one hex digit (either case), as GPUVerify's format requires.
bool isHexValue(std::string_view value);

/// Decodes a value into exactly `size` bytes in device order. Fewer digits than 2×size are zero-extended;
/// a value whose significant digits do not fit in `size` bytes is an error.
Expected<std::vector<std::uint8_t>> decodeScalar(std::string_view value, std::size_t size, Endianness order);

/// The minimal number of bytes the value needs (at least 1): "0x0000000400000002" → 8 (digits are counted,
/// leading zeros included, rounded up to whole bytes), so that the writer's output decodes to its own size.
std::size_t scalarDigitBytes(std::string_view value);

} // namespace clcapture::format
