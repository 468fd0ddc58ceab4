// A cache folder under a size bound: least recently used entries out first (CacheFolder.h).
#include "clcapture/format/CacheFolder.h"

#include "TestSupport.h"

#include <catch2/catch.hpp>

using namespace clcapture::format;
using clcapture::test::TempDir;
using clcapture::test::writeFile;
namespace fs = std::filesystem;

namespace {

/// A file of `bytes` bytes used `age` ago.
void entry(const fs::path &path, std::size_t bytes, std::chrono::seconds age) {
  writeFile(path, std::string(bytes, 'x'));
  fs::last_write_time(path, fs::file_time_type::clock::now() - age);
}

} // namespace

TEST_CASE("cache folder: the least recently used go first, down to the target", "[cache-folder]") {
  TempDir dir;
  entry(dir / "a.prog", 100, std::chrono::seconds(40));
  entry(dir / "b.prog", 100, std::chrono::seconds(30));
  entry(dir / "c.prog", 100, std::chrono::seconds(20));
  entry(dir / "d.prog", 100, std::chrono::seconds(10));
  CachePruning how;
  how.maxBytes = 350;
  how.targetBytes = 200;
  PruneOutcome out = pruneCacheFolder(dir.path(), how);
  CHECK(out.overBound);
  CHECK(out.removed == 2);
  CHECK(out.bytesLeft == 200);
  CHECK_FALSE(fs::exists(dir / "a.prog"));
  CHECK_FALSE(fs::exists(dir / "b.prog"));
  CHECK(fs::exists(dir / "c.prog"));
  CHECK(fs::exists(dir / "d.prog"));
  // Within the bound: nothing happens.
  out = pruneCacheFolder(dir.path(), how);
  CHECK_FALSE(out.overBound);
  CHECK(out.removed == 0);
  CHECK(out.bytesLeft == 200);
}

TEST_CASE("cache folder: suffix, kept entry, stale temporaries, subfolders", "[cache-folder]") {
  TempDir dir;
  entry(dir / "old.prog", 100, std::chrono::seconds(50));
  entry(dir / "new.prog", 100, std::chrono::seconds(40)); // kept although older than mid.prog
  entry(dir / "mid.prog", 100, std::chrono::seconds(30));
  entry(dir / "notes.txt", 1000, std::chrono::seconds(60));         // not an entry
  entry(dir / "x.prog.tmp-1-0", 1000, std::chrono::hours(2));       // a dead writer's
  entry(dir / "y.prog.tmp-2-0", 1000, std::chrono::seconds(1));     // a live writer's
  entry(dir / "sub" / "deep.prog", 100, std::chrono::seconds(100)); // not read without `recursive`
  CachePruning how;
  how.maxBytes = 150;
  how.targetBytes = 150;
  how.suffix = ".prog";
  how.keep = "new.prog";
  how.staleTemporaries = std::chrono::hours(1);
  PruneOutcome out = pruneCacheFolder(dir.path(), how);
  CHECK(out.removed == 2);
  CHECK(out.bytesLeft == 100);
  CHECK(fs::exists(dir / "new.prog"));
  CHECK_FALSE(fs::exists(dir / "old.prog"));
  CHECK_FALSE(fs::exists(dir / "mid.prog"));
  CHECK(fs::exists(dir / "notes.txt"));
  CHECK_FALSE(fs::exists(dir / "x.prog.tmp-1-0"));
  CHECK(fs::exists(dir / "y.prog.tmp-2-0"));
  CHECK(fs::exists(dir / "sub" / "deep.prog"));

  CachePruning all;
  all.maxBytes = 1000;
  all.targetBytes = 0;
  all.recursive = true;
  out = pruneCacheFolder(dir.path(), all); // every file counts: 100 + 1000 + 1000 + 100
  CHECK(out.overBound);
  CHECK(out.removed == 4);
  CHECK(fs::is_empty(dir / "sub"));
}

TEST_CASE("cache folder: a missing folder is an empty cache", "[cache-folder]") {
  TempDir dir;
  CachePruning how;
  PruneOutcome out = pruneCacheFolder(dir / "none", how);
  CHECK_FALSE(out.overBound);
  CHECK(out.bytesLeft == 0);
}
