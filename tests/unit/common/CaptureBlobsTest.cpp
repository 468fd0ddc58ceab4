// Resolving data/<hash>.bin: loose files first, else the folder's packs; the reader's file checks; unpack;
// the recorder's packing (de-duplication, SIGKILL).
#include "clcapture/format/CaptureBlobs.h"

#include "ErrorMessages.h"
#include "TestSupport.h"
#include "clcapture/format/BlobStore.h"
#include "clcapture/format/CaptureReader.h"
#include "clcapture/format/CaptureRecorder.h"

#include <catch2/catch.hpp>
#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

using namespace clcapture::format;
using clcapture::test::readFile;
using clcapture::test::TempDir;
using clcapture::test::writeFile;

namespace fs = std::filesystem;

namespace {

std::string errorsOf(const CaptureSet &set) {
  return clcapture::test::errorText(set.diagnostics);
}

/// DIR/data/<name>.pack holding `blobs`.
void writePack(const TempDir &dir, const std::string &name, const std::vector<std::string> &blobs) {
  std::string pack = packHeader();
  for (const std::string &b : blobs)
    pack += packRecord(b.data(), b.size());
  writeFile(dir / ("data/" + name + ".pack"), pack);
}

std::string nameOf(const std::string &bytes) {
  return dataBlobName(bytes.data(), bytes.size());
}

/// captures.json with one instantiation whose one array argument names `data` with `size`.
void writeCaptures(const TempDir &dir, const std::string &data, std::size_t size) {
  writeFile(dir / "kernels/k.cl", "kernel void k(global char *a) {}");
  writeFile(dir / "captures.json",
            R"([{"language": "OpenCL", "kernel_file": "kernels/k.cl", "global_size": [4],
      "entry_point": "k", "kernel_arguments": [{"type": "array", "size": )" +
                std::to_string(size) + R"(, "data": ")" + data + R"("}]}])");
}

SidecarHeader header() {
  SidecarHeader h;
  h.clcaptureVersion = CLCAPTURE_VERSION;
  h.process = {"/usr/bin/test-app", 1234, "2026-11-26T00:00:00Z"};
  return h;
}

/// Records one launch whose buffer holds `bytes`; returns the blob's name.
std::string recordLaunch(CaptureRecorder &rec, std::uint64_t n, const std::string &bytes) {
  auto data = rec.putData(bytes.data(), bytes.size());
  REQUIRE(data);
  auto kernel = rec.putKernelSource("k", "kernel void k(global uchar *a) { a[0] = 0; }");
  REQUIRE(kernel);
  Instantiation inst;
  inst.kernelFile = *kernel;
  inst.globalSize = Dims{1};
  inst.entryPoint = "k";
  inst.kernelArguments = std::vector<KernelArgument>{ArrayArgument{
      bytes.size(), AddressSpace::Global, std::vector<std::string>{"CL_MEM_READ_WRITE"}, *data}};
  LaunchFacts facts;
  facts.launch = n;
  facts.enqueueFunction = "clEnqueueNDRangeKernel";
  facts.kernelName = "k";
  facts.device = {"cpu", "PoCL", "OpenCL 3.0", "3.1", 64, Endianness::Little, false};
  facts.arguments = {ArgumentFacts{0, ArgumentKind::Buffer, std::string("a"), std::string("uchar*"),
                                   std::string("global"), 0, 1, std::nullopt, std::nullopt, std::nullopt}};
  REQUIRE(rec.append(inst, facts));
  return *data;
}

std::size_t countFiles(const fs::path &folder, const std::string &extension) {
  std::size_t n = 0;
  for (const auto &e : fs::directory_iterator(folder))
    n += e.path().extension() == extension;
  return n;
}

} // namespace

TEST_CASE("blobs: a packed blob is read by its data/<hash>.bin name", "[blobs][pack]") {
  TempDir dir;
  const std::string a = "first blob", b(3000, 'b');
  writePack(dir, "pack-1-0", {a, b});
  CaptureBlobs blobs(dir.path());
  CHECK(blobs.size(nameOf(a)) == a.size());
  CHECK(blobs.exists(nameOf(b)));
  auto bytes = blobs.read(nameOf(b));
  REQUIRE(bytes);
  CHECK(*bytes == b);
  // Through a full path too (the analyzer's and replay's joined paths).
  auto byPath = readCaptureFile(dir / nameOf(a));
  REQUIRE(byPath);
  CHECK(*byPath == a);
  CHECK(captureFileSize(dir / nameOf(b)) == b.size());
  CHECK(blobs.packedBlobs().size() == 2);
  CHECK(blobs.warnings().empty());
}

TEST_CASE("blobs: a loose file is preferred to a packed record", "[blobs][pack]") {
  TempDir dir;
  const std::string bytes = "same name, both places";
  writePack(dir, "pack-1-0", {bytes});
  // The loose file wins even when it differs (it is what GPUVerify would read): here it is marked.
  writeFile(dir / nameOf(bytes), "LOOSE");
  CaptureBlobs blobs(dir.path());
  CHECK(blobs.size(nameOf(bytes)) == 5u);
  auto read = blobs.read(nameOf(bytes));
  REQUIRE(read);
  CHECK(*read == "LOOSE");
  REQUIRE(blobs.packed(nameOf(bytes)));
}

TEST_CASE("blobs: a name in neither place is an error naming it", "[blobs][pack]") {
  TempDir dir;
  writePack(dir, "pack-1-0", {"x"});
  CaptureBlobs blobs(dir.path());
  const std::string missing = "data/0123456789abcdef0123456789abcdef.bin";
  CHECK_FALSE(blobs.size(missing));
  auto read = blobs.read(missing);
  REQUIRE_FALSE(read);
  CHECK(read.error() == (dir / missing).string() + ": file does not exist (neither loose nor in a pack of " +
                            (dir / "data").string() + ")");
  // Only data/<hash>.bin names are looked up in packs.
  CHECK_FALSE(blobs.exists("kernels/k.cl"));
}

TEST_CASE("blobs: packs appended after the first lookup are seen", "[blobs][pack]") {
  TempDir dir;
  writePack(dir, "pack-1-0", {"one"});
  CaptureBlobs blobs(dir.path());
  REQUIRE(blobs.exists(nameOf("one")));
  CHECK_FALSE(blobs.exists(nameOf("two")));
  writePack(dir, "pack-1-1", {"two"});
  CHECK(blobs.exists(nameOf("two")));
}

TEST_CASE("blobs: the reader's file check accepts packed blobs and names a missing one", "[blobs][reader]") {
  TempDir dir;
  const std::string bytes(16, 'q');
  writePack(dir, "pack-1-0", {bytes});

  SECTION("packed, right size") {
    writeCaptures(dir, nameOf(bytes), bytes.size());
    CaptureSet set = readCapturesFile(dir / "captures.json");
    CHECK(errorsOf(set).empty());
    CHECK(set.instantiations.size() == 1);
  }
  SECTION("packed, wrong size") {
    writeCaptures(dir, nameOf(bytes), 32);
    CaptureSet set = readCapturesFile(dir / "captures.json");
    CHECK(errorsOf(set) == (dir / "captures.json").string() +
                               ": instantiation 0: kernel_arguments[0].data: file \"" + nameOf(bytes) +
                               "\" holds 16 bytes but size is 32\n");
  }
  SECTION("in neither place") {
    const std::string missing = nameOf("not stored anywhere");
    writeCaptures(dir, missing, 19);
    CaptureSet set = readCapturesFile(dir / "captures.json");
    CHECK(errorsOf(set) == (dir / "captures.json").string() +
                               ": instantiation 0: kernel_arguments[0].data: file \"" + missing +
                               "\" does not exist in " + dir.path().string() +
                               " (neither as a file nor in a pack of data/)\n");
  }
  SECTION("a damaged record is a warning naming the pack, and its blob is missing") {
    std::string pack = readFile(dir / "data/pack-1-0.pack");
    pack[kPackHeaderBytes + kPackRecordHeadBytes + 3] ^= 0x01;
    writeFile(dir / "data/pack-1-1.pack", pack);
    fs::remove(dir / "data/pack-1-0.pack");
    writeCaptures(dir, nameOf(bytes), bytes.size());
    CaptureSet set = readCapturesFile(dir / "captures.json");
    CHECK(errorsOf(set).find("\"" + nameOf(bytes) + "\" does not exist") != std::string::npos);
    bool warned = false;
    for (const auto &d : set.diagnostics)
      warned |= d.severity == Severity::Warning && d.str() == (dir / "data/pack-1-1.pack").string() +
                                                                  ": warning: offset 12: record of blob " +
                                                                  contentHash128(bytes.data(), bytes.size()) +
                                                                  " skipped: its checksum does not match";
    CHECK(warned);
  }
}

TEST_CASE("blobs: unpack writes every packed blob loose and removes the packs", "[blobs][unpack]") {
  TempDir dir;
  std::vector<std::string> all = {"a", std::string(5000, 'b'), "", "dddd"};
  writePack(dir, "pack-1-0", {all[0], all[1]});
  writePack(dir, "pack-1-1", {all[2], all[3], all[0]}); // all[0] twice: one file
  writeFile(dir / "captures.json", "[]");
  auto written = unpackBlobs(dir.path());
  REQUIRE(written);
  CHECK(*written == 4);
  CHECK(countFiles(dir / "data", ".pack") == 0);
  CHECK(countFiles(dir / "data", ".bin") == 4);
  for (const std::string &b : all)
    CHECK(readFile(dir / nameOf(b)) == b);
  // Again: nothing left to do.
  auto again = unpackBlobs(dir.path());
  REQUIRE(again);
  CHECK(*again == 0);
  auto notCapture = unpackBlobs(dir / "nowhere");
  REQUIRE_FALSE(notCapture);
  CHECK(notCapture.error() == (dir / "nowhere").string() + ": not a capture folder (no data/ folder)");
}

TEST_CASE("recorder: packing stores each small blob once in a pack, large ones loose", "[recorder][pack]") {
  TempDir dir;
  auto rec = CaptureRecorder::create(dir / "cap", header());
  REQUIRE(rec);
  (*rec)->packSmallBlobs(true);
  const std::string small(1024, 's'), other(1024, 't'), large(kPackMaxBlobBytes + 1, 'L');
  std::string n0 = recordLaunch(**rec, 0, small);
  std::string n1 = recordLaunch(**rec, 1, small); // the same bytes: not stored again
  std::string n2 = recordLaunch(**rec, 2, other);
  std::string n3 = recordLaunch(**rec, 3, large);
  CHECK(n0 == n1);
  CHECK(n0 == nameOf(small));
  CHECK(n3 == nameOf(large));
  fs::path data = dir / "cap/data";
  CHECK(countFiles(data, ".pack") == 1);
  CHECK(countFiles(data, ".bin") == 1); // only the large blob
  CHECK(fs::exists(dir / ("cap/" + n3)));
  CaptureBlobs blobs(dir / "cap");
  CHECK(blobs.packedBlobs().size() == 2);

  Capture c = loadCapture(dir / "cap/captures.json");
  INFO(errorsOf(c.captures));
  REQUIRE_FALSE(c.hasErrors());
  REQUIRE(c.captures.instantiations.size() == 4);
  CHECK(*readCaptureFile(dir / ("cap/" + n2)) == other);
  CHECK(*readCaptureFile(dir / ("cap/" + n3)) == large);

  SECTION("a recorder reusing the folder knows the packed blobs and does not store them again") {
    rec->reset();
    auto again = CaptureRecorder::create(dir / "cap", header(), CaptureRecorder::IfExists::Replace);
    REQUIRE(again);
    (*again)->packSmallBlobs(true);
    std::uintmax_t before = 0;
    for (const auto &p : blobs.packFiles())
      before += fs::file_size(p);
    recordLaunch(**again, 0, small);
    std::uintmax_t after = 0;
    for (const auto &p : CaptureBlobs(dir / "cap").packFiles())
      after += fs::file_size(p);
    CHECK(after == before);
  }
}

TEST_CASE("recorder: SIGKILL while packing leaves every recorded launch's bytes readable",
          "[recorder][pack][crash]") {
  TempDir dir;
  constexpr std::uint64_t kLaunches = 50;
  pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    auto rec = CaptureRecorder::create(dir.path(), header());
    if (!rec)
      ::_exit(3);
    (*rec)->packSmallBlobs(true);
    for (std::uint64_t n = 0; n < kLaunches; ++n) {
      std::string bytes(100 + n, static_cast<char>(n));
      if (!(*rec)->putData(bytes.data(), bytes.size()))
        ::_exit(5);
      recordLaunch(**rec, n, bytes);
    }
    ::kill(::getpid(), SIGKILL);
    ::_exit(4);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFSIGNALED(status));
  Capture c = loadCapture(dir / "captures.json");
  INFO(errorsOf(c.captures));
  REQUIRE_FALSE(c.hasErrors());
  REQUIRE(c.captures.instantiations.size() == kLaunches);
  CHECK(countFiles(dir / "data", ".bin") == 0);
  for (std::uint64_t n = 0; n < kLaunches; ++n) {
    const auto &a = std::get<ArrayArgument>((*c.captures.instantiations[n].kernelArguments)[0]);
    auto bytes = readCaptureFile(dir / *a.data);
    REQUIRE(bytes);
    CHECK(*bytes == std::string(100 + n, static_cast<char>(n)));
  }
}

TEST_CASE("recorder: what packing remembers is bounded, and what it forgets is stored again",
          "[recorder][pack]") {
  TempDir dir;
  auto rec = CaptureRecorder::create(dir / "cap", header());
  REQUIRE(rec);
  (*rec)->packSmallBlobs(true);
  auto packBytes = [&] {
    std::uintmax_t total = 0;
    for (const auto &p : CaptureBlobs(dir / "cap").packFiles())
      total += fs::file_size(p);
    return total;
  };
  auto blob = [](std::size_t i) { return "blob " + std::to_string(i); };
  // kRememberedBlobs distinct blobs fill the memory; the next one starts a new generation.
  for (std::size_t i = 0; i <= CaptureRecorder::kRememberedBlobs; ++i)
    REQUIRE((*rec)->putData(blob(i).data(), blob(i).size()));
  std::uintmax_t before = packBytes();
  const std::string recent = blob(CaptureRecorder::kRememberedBlobs);
  REQUIRE((*rec)->putData(recent.data(), recent.size()));
  CHECK(packBytes() == before); // remembered: not appended again
  const std::string old = blob(0);
  auto name = (*rec)->putData(old.data(), old.size());
  REQUIRE(name);
  CHECK(packBytes() == before + kPackRecordOverhead + old.size()); // forgotten: appended once more
  auto read = CaptureBlobs(dir / "cap").read(*name);
  REQUIRE(read);
  CHECK(*read == old);
}
