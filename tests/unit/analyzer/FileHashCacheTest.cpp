//===- FileHashCacheTest.cpp - Data-file hashes kept across clcapture-verify runs -===//
//
// A stored hash is reused while the file's stamp (device, inode, size, times) is unchanged and never after
// a change; a damaged line of the store is ignored and the store rewritten; a file changed too recently is
// not stored; without a store nothing is kept.

#include "TestSupport.h"
#include "clcapture/format/BlobStore.h"
#include "clcapture/verify/InstantiationKey.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <thread>

using namespace clcapture;
using test::TempDir;
using verify::FileHashCache;
namespace fs = std::filesystem;

namespace {

void writeFile(const fs::path &path, const std::string &bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

std::string readText(const fs::path &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string hashOfText(const std::string &bytes) {
  return format::contentHash128(bytes.data(), bytes.size());
}

} // namespace

TEST_CASE("FileHashCache: a stored hash is reused while the file is unchanged", "[hashes]") {
  TempDir dir;
  fs::path data = dir.path() / "a.bin", store = dir.path() / "cache" / "hashes.tsv";
  writeFile(data, "first contents");
  {
    FileHashCache hashes(store, 0);
    CHECK(hashes.hashOf(data) == hashOfText("first contents"));
    CHECK(hashes.reused() == 0);
    hashes.save();
  }
  REQUIRE(fs::exists(store));
  FileHashCache again(store, 0);
  CHECK(again.hashOf(data) == hashOfText("first contents"));
  CHECK(again.reused() == 1);
}

TEST_CASE("FileHashCache: a changed file is hashed again, even with the same size", "[hashes]") {
  TempDir dir;
  fs::path data = dir.path() / "a.bin", store = dir.path() / "hashes.tsv";
  writeFile(data, "AAAA");
  {
    FileHashCache hashes(store, 0);
    hashes.hashOf(data);
    hashes.save();
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(20)); // a new modification time
  writeFile(data, "BBBB");
  FileHashCache again(store, 0);
  CHECK(again.hashOf(data) == hashOfText("BBBB"));
  CHECK(again.reused() == 0);
}

TEST_CASE("FileHashCache: a damaged line is ignored and the store rewritten", "[hashes]") {
  TempDir dir;
  fs::path data = dir.path() / "a.bin", store = dir.path() / "hashes.tsv";
  writeFile(data, "contents");
  {
    FileHashCache hashes(store, 0);
    hashes.hashOf(data);
    hashes.save();
  }
  // Flip the stored hash's first digit: the line's checksum no longer matches, so it is not trusted.
  std::string text = readText(store);
  std::size_t tab = text.find('\t');
  REQUIRE(tab != std::string::npos);
  text[tab + 1] = text[tab + 1] == '0' ? '1' : '0';
  writeFile(store, text);
  {
    FileHashCache damaged(store, 0);
    CHECK(damaged.hashOf(data) == hashOfText("contents"));
    CHECK(damaged.reused() == 0);
    damaged.save();
  }
  FileHashCache repaired(store, 0);
  CHECK(repaired.hashOf(data) == hashOfText("contents"));
  CHECK(repaired.reused() == 1);
}

TEST_CASE("FileHashCache: a file changed within the racy window is not stored", "[hashes]") {
  TempDir dir;
  fs::path data = dir.path() / "a.bin", store = dir.path() / "hashes.tsv";
  writeFile(data, "just written");
  {
    FileHashCache hashes(store); // the default window: 2 s
    hashes.hashOf(data);
    hashes.save();
  }
  FileHashCache again(store, 0);
  CHECK(again.hashOf(data) == hashOfText("just written"));
  CHECK(again.reused() == 0);
}

TEST_CASE("FileHashCache: without a store nothing outlives the object", "[hashes]") {
  TempDir dir;
  fs::path data = dir.path() / "a.bin";
  writeFile(data, "x");
  FileHashCache hashes;
  CHECK(hashes.hashOf(data) == hashOfText("x"));
  hashes.save();
  CHECK(hashes.reused() == 0);
  CHECK(fs::is_empty(dir.path()) == false); // only a.bin
  CHECK(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()) == 1);
}

TEST_CASE("FileHashCache: one store per capture folder under the cache folder", "[hashes]") {
  TempDir dir;
  fs::create_directories(dir.path() / "one");
  fs::create_directories(dir.path() / "two");
  fs::path a = FileHashCache::storeFor(dir.path() / "cache", dir.path() / "one");
  fs::path b = FileHashCache::storeFor(dir.path() / "cache", dir.path() / "two");
  CHECK(a != b);
  CHECK(a.parent_path() == dir.path() / "cache" / "file-hashes");
  CHECK(FileHashCache::storeFor(dir.path() / "cache", dir.path() / "one" / ".." / "one") == a);
}
