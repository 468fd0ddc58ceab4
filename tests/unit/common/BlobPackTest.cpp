// Pack files of small blobs: records appended and read back, a pack cut at every byte, damaged records.
#include "clcapture/format/BlobPack.h"

#include "TestSupport.h"
#include "clcapture/format/BlobStore.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <set>
#include <unistd.h>
#include <xxhash.h>

using namespace clcapture::format;
using clcapture::test::readFile;
using clcapture::test::TempDir;
using clcapture::test::writeFile;

namespace {

/// Blobs of different sizes (0 bytes included) and contents.
std::vector<std::string> someBlobs() {
  std::vector<std::string> blobs;
  for (std::size_t size :
       {std::size_t{5}, std::size_t{0}, std::size_t{1024}, std::size_t{1}, std::size_t{77}}) {
    std::string b(size, '\0');
    for (std::size_t i = 0; i < size; ++i)
      b[i] = static_cast<char>((i * 31 + size) & 0xff);
    blobs.push_back(b);
  }
  return blobs;
}

std::string hashOf(const std::string &bytes) {
  return contentHash128(bytes.data(), bytes.size());
}

/// A pack holding `blobs` in order, and the offset at which each record ends.
std::string packOf(const std::vector<std::string> &blobs, std::vector<std::size_t> &ends) {
  std::string pack = packHeader();
  for (const std::string &b : blobs) {
    pack += packRecord(b.data(), b.size());
    ends.push_back(pack.size());
  }
  return pack;
}

} // namespace

TEST_CASE("pack: records appended by the writer are read back with their hashes", "[pack]") {
  TempDir dir;
  std::vector<std::string> blobs = someBlobs();
  BlobPackWriter writer(dir.path());
  for (const std::string &b : blobs)
    REQUIRE(writer.append(b.data(), b.size()));
  REQUIRE(writer.currentPack().parent_path() == dir.path());
  CHECK(writer.currentPack().filename().string().rfind("pack-" + std::to_string(::getpid()) + "-0", 0) == 0);
  std::uint64_t expected = kPackHeaderBytes;
  for (const std::string &b : blobs)
    expected += kPackRecordOverhead + b.size();
  CHECK(writer.bytesWritten() == expected);
  CHECK(std::filesystem::file_size(writer.currentPack()) == expected);

  auto scan = scanBlobPackFile(writer.currentPack());
  REQUIRE(scan);
  CHECK(scan->warnings.empty());
  CHECK_FALSE(scan->cut);
  CHECK(scan->validBytes == expected);
  REQUIRE(scan->blobs.size() == blobs.size());
  for (std::size_t i = 0; i < blobs.size(); ++i) {
    CHECK(scan->blobs[i].hash == hashOf(blobs[i]));
    CHECK(dataBlobNameForHash(scan->blobs[i].hash) == dataBlobName(blobs[i].data(), blobs[i].size()));
    auto bytes = readPackedBlob(writer.currentPack(), scan->blobs[i]);
    REQUIRE(bytes);
    CHECK(*bytes == blobs[i]);
  }
  // What the writer appended is exactly the documented layout.
  std::vector<std::size_t> ends;
  CHECK(readFile(writer.currentPack()) == packOf(blobs, ends));
}

TEST_CASE("pack: a pack cut at any byte recovers every complete record before the cut", "[pack][crash]") {
  std::vector<std::string> blobs = someBlobs();
  std::vector<std::size_t> ends;
  const std::string pack = packOf(blobs, ends);
  for (std::size_t cut = 0; cut <= pack.size(); ++cut) {
    PackScan scan = scanBlobPack(std::string_view(pack).substr(0, cut));
    std::size_t complete = 0;
    while (complete < ends.size() && ends[complete] <= cut)
      ++complete;
    INFO("cut at byte " << cut << " of " << pack.size());
    REQUIRE(scan.blobs.size() == complete);
    for (std::size_t i = 0; i < complete; ++i) {
      REQUIRE(scan.blobs[i].hash == hashOf(blobs[i]));
      REQUIRE(pack.substr(scan.blobs[i].offset, scan.blobs[i].size) == blobs[i]);
    }
    // A cut is what a kill mid-append leaves: not a damaged pack, so no warning.
    REQUIRE(scan.warnings.empty());
    bool atBoundary = cut == 0 || cut == kPackHeaderBytes || (complete > 0 && ends[complete - 1] == cut);
    REQUIRE(scan.cut == !atBoundary);
    REQUIRE(scan.validBytes ==
            (complete > 0 ? ends[complete - 1] : (cut >= kPackHeaderBytes ? kPackHeaderBytes : 0)));
  }
}

TEST_CASE("pack: a record whose checksum does not match is not trusted", "[pack][corrupt]") {
  std::vector<std::string> blobs = someBlobs();
  std::vector<std::size_t> ends;
  const std::string pack = packOf(blobs, ends);

  SECTION("a damaged byte inside a blob: that record alone is skipped, the framing goes on") {
    std::string damaged = pack;
    damaged[ends[1] + kPackRecordHeadBytes + 100] ^= 0x01; // inside blob 2 (1024 bytes)
    PackScan scan = scanBlobPack(damaged);
    REQUIRE(scan.blobs.size() == blobs.size() - 1);
    CHECK(scan.blobs[0].hash == hashOf(blobs[0]));
    CHECK(scan.blobs[1].hash == hashOf(blobs[1]));
    CHECK(scan.blobs[2].hash == hashOf(blobs[3]));
    CHECK(scan.blobs[3].hash == hashOf(blobs[4]));
    REQUIRE(scan.warnings.size() == 1);
    CHECK(scan.warnings[0] == "offset " + std::to_string(ends[1]) + ": record of blob " + hashOf(blobs[2]) +
                                  " skipped: its checksum does not match");
  }
  SECTION("a damaged stored checksum: the same") {
    std::string damaged = pack;
    damaged[ends[2] - 1] ^= 0x40;
    PackScan scan = scanBlobPack(damaged);
    CHECK(scan.blobs.size() == blobs.size() - 1);
    REQUIRE(scan.warnings.size() == 1);
    CHECK(scan.warnings[0].find("skipped: its checksum does not match") != std::string::npos);
  }
  SECTION("a damaged size field: no record follows where it points, so the scan stops there") {
    std::string damaged = pack;
    damaged[ends[1] + 20] ^= 0x02; // size 1024 → 1026: still inside the file
    PackScan scan = scanBlobPack(damaged);
    CHECK(scan.blobs.size() == 2);
    CHECK(scan.validBytes == ends[1]);
    REQUIRE(scan.warnings.size() == 1);
    CHECK(scan.warnings[0].find("no intact record follows it; the bytes after it are ignored") !=
          std::string::npos);
  }
  SECTION("a damaged hash: the checksum catches it, the record is skipped") {
    std::string damaged = pack;
    damaged[ends[0] + 4] ^= 0x10; // the hash of blob 1
    PackScan scan = scanBlobPack(damaged);
    CHECK(scan.blobs.size() == blobs.size() - 1);
    for (const PackedBlob &b : scan.blobs)
      CHECK(b.hash != hashOf(blobs[1]));
  }
  SECTION("a record with a matching checksum over bytes that do not have its hash is not trusted") {
    // Framed and summed correctly, but naming another blob's hash: it must never answer for that name.
    std::string forged = packRecord(blobs[0].data(), blobs[0].size());
    std::string other = hashOf(blobs[4]);
    for (std::size_t i = 0; i < 16; ++i)
      forged[4 + i] = static_cast<char>(std::stoi(other.substr(2 * i, 2), nullptr, 16));
    // Re-sum it so that only the content hash is wrong.
    std::uint64_t sum = XXH3_64bits(forged.data(), forged.size() - 8);
    for (std::size_t i = 0; i < 8; ++i)
      forged[forged.size() - 8 + i] = static_cast<char>((sum >> (8 * i)) & 0xff);
    PackScan scan = scanBlobPack(packHeader() + forged + packRecord(blobs[3].data(), blobs[3].size()));
    REQUIRE(scan.blobs.size() == 1);
    CHECK(scan.blobs[0].hash == hashOf(blobs[3]));
    REQUIRE(scan.warnings.size() == 1);
    CHECK(scan.warnings[0].find("skipped: its bytes do not have the content hash it names") !=
          std::string::npos);
  }
  SECTION("garbage after the records stops the scan with a warning") {
    PackScan scan = scanBlobPack(pack + std::string(64, '\0'));
    CHECK(scan.blobs.size() == blobs.size());
    REQUIRE(scan.warnings.size() == 1);
    CHECK(scan.warnings[0] == "offset " + std::to_string(pack.size()) +
                                  ": no record starts here (damaged pack); the bytes after it are ignored");
  }
  SECTION("not a pack") {
    PackScan scan = scanBlobPack(std::string("PK\x03\x04 something else entirely"));
    CHECK(scan.blobs.empty());
    REQUIRE(scan.warnings.size() == 1);
    CHECK(scan.warnings[0] == "not a clcapture pack (no CLCPACK header); ignored");
  }
}

TEST_CASE("pack: the writer rolls over to a new pack and never appends to one it did not create", "[pack]") {
  TempDir dir;
  // A pack of an earlier run under the name this process would pick first.
  clcapture::test::writeFile(dir / ("pack-" + std::to_string(::getpid()) + "-0.pack"), "not ours");
  BlobPackWriter writer(dir.path(), /*rollOverBytes=*/kPackHeaderBytes + 2 * (kPackRecordOverhead + 100));
  std::vector<std::string> blobs;
  std::set<std::filesystem::path> packs;
  for (int i = 0; i < 5; ++i) {
    blobs.emplace_back(100, static_cast<char>('a' + i));
    REQUIRE(writer.append(blobs.back().data(), blobs.back().size()));
    packs.insert(writer.currentPack());
  }
  CHECK(readFile(dir / ("pack-" + std::to_string(::getpid()) + "-0.pack")) == "not ours");
  CHECK(packs.size() == 3); // 2 + 2 + 1 records
  std::size_t found = 0;
  for (const auto &p : packs) {
    auto scan = scanBlobPackFile(p);
    REQUIRE(scan);
    CHECK(scan->warnings.empty());
    CHECK(scan->blobs.size() <= 2);
    found += scan->blobs.size();
  }
  CHECK(found == blobs.size());
}

TEST_CASE("pack: a pack that cannot be created is an error naming it", "[pack]") {
  BlobPackWriter writer("/nonexistent/clcapture/data");
  Status s = writer.append("abc", 3);
  REQUIRE_FALSE(s);
  CHECK(s.error().rfind("cannot create /nonexistent/clcapture/data/pack-", 0) == 0);
}

TEST_CASE("pack: a follower learns other processes' records once each is complete, never its own", "[pack]") {
  TempDir dir;
  std::filesystem::create_directories(dir / "data");
  std::string a = "first blob", b(3000, 'b');
  // Another process's pack, as its writer leaves it: the header, one record, then a second record cut short.
  std::string record = packRecord(b.data(), b.size());
  std::string other = packHeader() + packRecord(a.data(), a.size()) + record.substr(0, record.size() - 9);
  writeFile(dir / "data" / "pack-99999-0.pack", other);
  writeFile(dir / "data" / ("pack-" + std::to_string(::getpid()) + "-0.pack"),
            packHeader() + packRecord(b.data(), b.size())); // ours: not followed
  std::set<std::string> seen;
  PackFollower follower(dir / "data", "pack-" + std::to_string(::getpid()) + "-");
  auto poll = [&] {
    follower.poll([&](std::uint64_t high, std::uint64_t low) {
      char hex[33];
      std::snprintf(hex, sizeof hex, "%016llx%016llx", static_cast<unsigned long long>(high),
                    static_cast<unsigned long long>(low));
      CHECK(seen.insert(hex).second); // each record once
    });
  };
  poll();
  CHECK(seen == std::set<std::string>{contentHash128(a.data(), a.size())});
  writeFile(dir / "data" / "pack-99999-0.pack", packHeader() + packRecord(a.data(), a.size()) + record);
  poll();
  CHECK(seen ==
        std::set<std::string>{contentHash128(a.data(), a.size()), contentHash128(b.data(), b.size())});
}
