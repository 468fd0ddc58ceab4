//===- ScalarCodec.cpp - Argument bytes <-> GPUVerify hex values ---------===//

#include "clcapture/format/ScalarCodec.h"

#include <cstdint>

namespace clcapture::format {
namespace {

int hexDigitValue(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

} // namespace

std::string encodeScalar(const void *bytes, std::size_t size, Endianness order) {
  static const char kDigits[] = "0123456789ABCDEF";
  const auto *p = static_cast<const std::uint8_t *>(bytes);
  std::string out = "0x";
  out.reserve(2 + 2 * size);
  // The hex string is most significant byte first; on a little-endian device that is the last byte.
  for (std::size_t i = 0; i < size; ++i) {
    std::uint8_t b = order == Endianness::Little ? p[size - 1 - i] : p[i];
    out += kDigits[b >> 4];
    out += kDigits[b & 0xF];
  }
  return out;
}

bool isHexValue(std::string_view value) {
  if (value.size() < 3 || value[0] != '0' || (value[1] != 'x' && value[1] != 'X'))
    return false;
  for (std::size_t i = 2; i < value.size(); ++i)
    if (hexDigitValue(value[i]) < 0)
      return false;
  return true;
}

std::size_t scalarDigitBytes(std::string_view value) {
  std::size_t digits = value.size() >= 2 ? value.size() - 2 : 0;
  std::size_t bytes = (digits + 1) / 2;
  return bytes == 0 ? 1 : bytes;
}

Expected<std::vector<std::uint8_t>> decodeScalar(std::string_view value, std::size_t size, Endianness order) {
  if (!isHexValue(value))
    return fail("expected a hex string starting with 0x, got \"" + std::string(value) + "\"");
  std::string_view digits = value.substr(2);
  // Leading zeros never matter; what remains must fit in `size` bytes.
  std::size_t firstSignificant = digits.find_first_not_of('0');
  std::size_t significant = firstSignificant == std::string_view::npos ? 0 : digits.size() - firstSignificant;
  if (significant > 2 * size)
    return fail("value " + std::string(value) + " does not fit in " + std::to_string(size) + " byte" +
                (size == 1 ? "" : "s"));
  // Big-endian byte string, least significant byte last.
  std::vector<std::uint8_t> big(size, 0);
  std::size_t byteIndex = size;
  for (std::size_t i = digits.size(); i > 0 && byteIndex > 0;) {
    int lo = hexDigitValue(digits[--i]);
    int hi = i > 0 ? hexDigitValue(digits[--i]) : 0;
    big[--byteIndex] = static_cast<std::uint8_t>((hi << 4) | lo);
  }
  if (order == Endianness::Big)
    return big;
  return std::vector<std::uint8_t>(big.rbegin(), big.rend());
}

} // namespace clcapture::format
