// The program store: what goes in comes back for the same binary only, a damaged entry is never trusted,
// and the folder stays within its bound by dropping the least recently used entries.
#include "engine/ProgramStore.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

using clcapture::layer::ProgramStore;
using clcapture::layer::StoredProgram;
namespace fs = std::filesystem;

namespace {

struct TempFolder {
  fs::path path;
  TempFolder() {
    std::string pattern = (fs::temp_directory_path() / "clcapture-store-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~TempFolder() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::string readAll(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::string text(static_cast<std::size_t>(fs::file_size(p)), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  return text;
}

void writeAll(const fs::path &p, const std::string &text) {
  std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
}

} // namespace

TEST_CASE("program store: a stored source comes back for the same binary", "[layer][store]") {
  TempFolder tmp;
  ProgramStore store((tmp.path / "nested" / "programs").string());
  static const char kBinary[] = "\x7f"
                                "ELF pretend binary\0with a NUL";
  const std::string binary(kBinary, sizeof kBinary - 1);
  std::string key = ProgramStore::keyOf(binary.data(), binary.size());
  CHECK(key.size() == 32);
  CHECK_FALSE(store.get(key, binary.size())); // nothing yet

  // Sources need not be UTF-8, and may hold anything an options string or a header line could.
  StoredProgram p{"kernel void k(global int *a) { a[0] = 1; }\n\xff\n\nsource 3\n", "-DX=1 -I inc"};
  REQUIRE(store.put(key, binary.size(), p));
  auto back = store.get(key, binary.size());
  REQUIRE(back);
  CHECK(back->source == p.source);
  CHECK(back->options == p.options);
  CHECK_FALSE(store.get(key, binary.size() + 1)); // same hash, another size: not this binary
  std::string other = "another binary";
  CHECK_FALSE(store.get(ProgramStore::keyOf(other.data(), other.size()), other.size()));
  CHECK_FALSE(store.get("../../etc/passwd", 1)); // not a key
}

TEST_CASE("program store: a damaged entry is ignored", "[layer][store]") {
  TempFolder tmp;
  ProgramStore store(tmp.path.string());
  std::string binary = "binary bytes";
  std::string key = ProgramStore::keyOf(binary.data(), binary.size());
  REQUIRE(store.put(key, binary.size(), StoredProgram{"kernel void k() {}\n", ""}));
  fs::path entry = tmp.path / (key + ".prog");
  std::string good = readAll(entry);
  REQUIRE(store.get(key, binary.size()));

  SECTION("a changed byte of the source") {
    std::string bad = good;
    bad[bad.size() - 3] ^= 1;
    writeAll(entry, bad);
  }
  SECTION("truncated") {
    writeAll(entry, good.substr(0, good.size() - 1));
  }
  SECTION("too long") {
    writeAll(entry, good + "x");
  }
  SECTION("not an entry at all") {
    writeAll(entry, "{\"source\": \"kernel void k() {}\"}");
  }
  SECTION("empty") {
    writeAll(entry, "");
  }
  SECTION("an entry of another binary under this name") {
    std::string other = "other binary";
    std::string otherKey = ProgramStore::keyOf(other.data(), other.size());
    REQUIRE(store.put(otherKey, other.size(), StoredProgram{"kernel void k() {}\n", ""}));
    fs::rename(tmp.path / (otherKey + ".prog"), entry);
  }
  CHECK_FALSE(store.get(key, binary.size()));
  // Storing again replaces the damaged entry.
  REQUIRE(store.put(key, binary.size(), StoredProgram{"kernel void k() {}\n", ""}));
  CHECK(store.get(key, binary.size()));
}

TEST_CASE("program store: an unusable folder fails quietly", "[layer][store]") {
  TempFolder tmp;
  writeAll(tmp.path / "file", "not a folder");
  ProgramStore store((tmp.path / "file" / "programs").string());
  std::string binary = "b";
  std::string key = ProgramStore::keyOf(binary.data(), binary.size());
  CHECK_FALSE(store.put(key, 1, StoredProgram{"kernel void k() {}", ""}));
  CHECK_FALSE(store.get(key, 1));
}

TEST_CASE("program store: over its bound, the least recently used entries go", "[layer][store]") {
  TempFolder tmp;
  const std::string source(1000, 'x');
  ProgramStore store(tmp.path.string(), 3500); // room for three entries of ~1100 bytes
  std::vector<std::string> keys;
  auto age = fs::file_time_type::clock::now() - std::chrono::hours(10);
  for (int i = 0; i < 3; ++i) {
    std::string binary = "binary " + std::to_string(i);
    keys.push_back(ProgramStore::keyOf(binary.data(), binary.size()));
    REQUIRE(store.put(keys.back(), binary.size(), StoredProgram{source, ""}));
    // Entry i was last used i hours after the oldest.
    fs::last_write_time(tmp.path / (keys.back() + ".prog"), age + std::chrono::hours(i));
  }
  // Using entry 0 makes it the most recent: entry 1 is now the least recently used.
  REQUIRE(store.get(keys[0], std::string("binary 0").size()));
  // A stale temporary file (a writer died before its rename) is cleared too; a fresh one is left alone.
  writeAll(tmp.path / (keys[0] + ".prog.tmp-1-0"), "stale");
  fs::last_write_time(tmp.path / (keys[0] + ".prog.tmp-1-0"), age);
  writeAll(tmp.path / (keys[0] + ".prog.tmp-1-1"), "in progress");

  std::string binary = "binary 3";
  std::string key3 = ProgramStore::keyOf(binary.data(), binary.size());
  REQUIRE(store.put(key3, binary.size(), StoredProgram{source, ""}));
  CHECK(fs::exists(tmp.path / (keys[0] + ".prog")));
  CHECK_FALSE(fs::exists(tmp.path / (keys[1] + ".prog")));
  CHECK(fs::exists(tmp.path / (keys[2] + ".prog")));
  CHECK(fs::exists(tmp.path / (key3 + ".prog")));
  CHECK_FALSE(fs::exists(tmp.path / (keys[0] + ".prog.tmp-1-0")));
  CHECK(fs::exists(tmp.path / (keys[0] + ".prog.tmp-1-1")));

  // An entry larger than the whole store is not stored at all.
  CHECK_FALSE(store.put(key3, binary.size(), StoredProgram{std::string(4000, 'y'), ""}));
  CHECK(store.get(key3, binary.size())); // the earlier entry stays
}
