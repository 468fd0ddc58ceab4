// Scalar codec: docs/contract.md §3's examples, both byte orders, and the decoder's rejections.
#include "clcapture/format/ScalarCodec.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>

using namespace clcapture::format;

namespace {
template <typename T> std::string encodeLittle(const T &v) {
  return encodeScalar(&v, sizeof v, Endianness::Little);
}
} // namespace

TEST_CASE("scalar: SPEC example int 1", "[codec]") {
  // x86 is little-endian: the host's bytes are the device's bytes here.
  int one = 1;
  CHECK(encodeLittle(one) == "0x00000001");
}

TEST_CASE("scalar: SPEC example float pi", "[codec]") {
  float pi = 3.14159265f;
  CHECK(encodeLittle(pi) == "0x40490FDB");
}

TEST_CASE("scalar: SPEC example struct on a little-endian device", "[codec]") {
  struct {
    std::int32_t a = 2;
    std::int32_t b = 4;
  } s;
  CHECK(encodeLittle(s) == "0x0000000400000002");
}

TEST_CASE("scalar: big-endian bytes are read most significant first", "[codec]") {
  const std::uint8_t bytes[] = {0x00, 0x00, 0x00, 0x01};
  CHECK(encodeScalar(bytes, 4, Endianness::Big) == "0x00000001");
  CHECK(encodeScalar(bytes, 4, Endianness::Little) == "0x01000000");
  const std::uint8_t pair[] = {0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x04};
  CHECK(encodeScalar(pair, 8, Endianness::Big) == "0x0000000200000004");
}

TEST_CASE("scalar: upper-case digits, two per byte", "[codec]") {
  const std::uint8_t bytes[] = {0xab, 0xcd};
  CHECK(encodeScalar(bytes, 2, Endianness::Big) == "0xABCD");
  std::uint64_t big = 0xDEADBEEFCAFEF00Dull;
  CHECK(encodeLittle(big) == "0xDEADBEEFCAFEF00D");
}

TEST_CASE("scalar: decode inverts encode in both byte orders", "[codec]") {
  const std::uint8_t bytes[] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07};
  for (Endianness order : {Endianness::Little, Endianness::Big}) {
    std::string hex = encodeScalar(bytes, sizeof bytes, order);
    auto back = decodeScalar(hex, sizeof bytes, order);
    REQUIRE(back);
    CHECK(std::memcmp(back->data(), bytes, sizeof bytes) == 0);
  }
}

TEST_CASE("scalar: decode zero-extends short values, accepts lower case", "[codec]") {
  // GPUVerify's own example value "0xA208" into a 4-byte int.
  auto v = decodeScalar("0xa208", 4, Endianness::Little);
  REQUIRE(v);
  CHECK(*v == std::vector<std::uint8_t>{0x08, 0xA2, 0x00, 0x00});
  auto odd = decodeScalar("0x123", 2, Endianness::Big);
  REQUIRE(odd);
  CHECK(*odd == std::vector<std::uint8_t>{0x01, 0x23});
}

TEST_CASE("scalar: decode rejects values that do not fit or are not hex", "[codec]") {
  auto tooBig = decodeScalar("0x100", 1, Endianness::Little);
  REQUIRE_FALSE(tooBig);
  CHECK(tooBig.error() == "value 0x100 does not fit in 1 byte");
  // Leading zeros are not significant.
  CHECK(decodeScalar("0x000000FF", 1, Endianness::Little));
  auto notHex = decodeScalar("12", 4, Endianness::Little);
  REQUIRE_FALSE(notHex);
  CHECK(notHex.error() == "expected a hex string starting with 0x, got \"12\"");
  CHECK_FALSE(decodeScalar("0x", 4, Endianness::Little));
  CHECK_FALSE(decodeScalar("0xG1", 4, Endianness::Little));
}

TEST_CASE("scalar: isHexValue and digit bytes", "[codec]") {
  CHECK(isHexValue("0x0"));
  CHECK(isHexValue("0XfF"));
  CHECK_FALSE(isHexValue("0x"));
  CHECK_FALSE(isHexValue("x12"));
  CHECK_FALSE(isHexValue("0x12 "));
  CHECK(scalarDigitBytes("0x00000001") == 4);
  CHECK(scalarDigitBytes("0xA208") == 2);
  CHECK(scalarDigitBytes("0x123") == 2);
}
