// Content-addressed blobs: names come from xxHash of the bytes; identical bytes are stored once.
#include "clcapture/format/BlobStore.h"

#include "TestSupport.h"

#include <catch2/catch.hpp>
#include <regex>
#include <xxhash.h>

using namespace clcapture::format;
using clcapture::test::TempDir;

TEST_CASE("blobs: names are XXH3 hashes of the contents", "[blobs]") {
  const std::string bytes = "hello";
  XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
  char expected[33];
  std::snprintf(expected, sizeof expected, "%016llx%016llx", static_cast<unsigned long long>(h.high64),
                static_cast<unsigned long long>(h.low64));
  CHECK(dataBlobName(bytes.data(), bytes.size()) == std::string("data/") + expected + ".bin");
  CHECK(std::regex_match(kernelFileName("reduce", "kernel void reduce() {}"),
                         std::regex("kernels/reduce-[0-9a-f]{16}\\.cl")));
  CHECK(kernelFileName("a", "x") != kernelFileName("a", "y"));
  CHECK(kernelFileName("we/ird name", "x").rfind("kernels/we_ird_name-", 0) == 0);
  CHECK(
      std::regex_match(kernelFileName("k", "x", ".pre.cl"), std::regex("kernels/k-[0-9a-f]{16}\\.pre\\.cl")));
}

TEST_CASE("blobs: identical contents are written once", "[blobs]") {
  TempDir dir;
  std::filesystem::create_directories(dir / "data");
  const std::vector<std::uint8_t> bytes(4096, 7);
  std::string name = dataBlobName(bytes.data(), bytes.size());
  auto first = writeBlobOnce(dir.path(), name, bytes.data(), bytes.size());
  REQUIRE(first);
  CHECK(*first == true);
  auto second = writeBlobOnce(dir.path(), name, bytes.data(), bytes.size());
  REQUIRE(second);
  CHECK(*second == false);
  CHECK(std::filesystem::file_size(dir / name) == 4096);
  // No temporary files are left behind.
  std::size_t entries = 0;
  for (const auto &e : std::filesystem::directory_iterator(dir / "data")) {
    (void)e;
    ++entries;
  }
  CHECK(entries == 1);
}

TEST_CASE("blobs: a write into a missing folder fails with the path named", "[blobs]") {
  TempDir dir;
  auto r = writeBlobOnce(dir.path(), "nowhere/x.bin", "a", 1);
  REQUIRE_FALSE(r);
  CHECK(r.error().find("nowhere/x.bin.tmp-") != std::string::npos);
}

TEST_CASE("blobs: a content hash's hex digits parse back into its two halves", "[blobs]") {
  const std::string bytes = "hello";
  XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
  std::uint64_t high = 0, low = 0;
  REQUIRE(parseHash128(contentHash128(bytes.data(), bytes.size()), high, low));
  CHECK(high == h.high64);
  CHECK(low == h.low64);
  CHECK_FALSE(parseHash128("0123456789abcdef0123456789abcde", high, low));  // 31 digits
  CHECK_FALSE(parseHash128("0123456789ABCDEF0123456789abcdef", high, low)); // upper case: not a name we write
  CHECK_FALSE(parseHash128("0123456789abcdef0123456789abcdeg", high, low));
}
