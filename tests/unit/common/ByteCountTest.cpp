// Byte counts as the layer's controls and clcapture pack --data read them.
#include "clcapture/format/ByteCount.h"

#include <catch2/catch.hpp>

using clcapture::format::parseByteCount;

TEST_CASE("byte counts: decimal numbers with K, M or G in powers of 1024", "[bytecount]") {
  CHECK(parseByteCount("0") == 0u);
  CHECK(parseByteCount("4096") == 4096u);
  CHECK(parseByteCount("64K") == 65536u);
  CHECK(parseByteCount("64k") == 65536u);
  CHECK(parseByteCount("1M") == 1048576u);
  CHECK(parseByteCount("4G") == 4294967296u);
  CHECK(parseByteCount("18446744073709551615") == UINT64_MAX);
}

TEST_CASE("byte counts: anything else is refused, never read as a different number", "[bytecount]") {
  for (const char *bad : {"", "-1", "+5", " 5", "1.5M", "1T", "1 M", "1MB", "M", "0x10",
                          "18446744073709551616", "17179869184G"})
    CHECK_FALSE(parseByteCount(bad).has_value());
}
