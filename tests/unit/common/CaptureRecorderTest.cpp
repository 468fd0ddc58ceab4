// The incremental capture writer: folder layout, de-duplication, threads, and SIGKILL.
#include "clcapture/format/CaptureRecorder.h"

#include "TestSupport.h"
#include "clcapture/format/CaptureReader.h"
#include "clcapture/format/ScalarCodec.h"

#include <catch2/catch.hpp>
#include <csignal>
#include <set>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace clcapture::format;
using clcapture::test::TempDir;

namespace {

SidecarHeader header() {
  SidecarHeader h;
  h.clcaptureVersion = CLCAPTURE_VERSION;
  h.process = {"/usr/bin/test-app", 1234, "2026-11-22T00:00:00Z"};
  return h;
}

/// Records launch `n` of kernel `k` with a 64-byte buffer whose contents depend on `n % distinct`.
std::uint64_t recordLaunch(CaptureRecorder &rec, std::uint64_t n, int distinct = 1000000) {
  std::vector<std::uint8_t> bytes(64, static_cast<std::uint8_t>(n % static_cast<std::uint64_t>(distinct)));
  auto data = rec.putData(bytes.data(), bytes.size());
  REQUIRE(data);
  auto kernel = rec.putKernelSource("k", "kernel void k(global uchar *a, int n) { a[n] = 0; }");
  REQUIRE(kernel);
  Instantiation inst;
  inst.endianness = Endianness::Little;
  inst.kernelFile = *kernel;
  inst.globalSize = Dims{64};
  inst.localSize = Dims{16};
  inst.entryPoint = "k";
  std::uint32_t value = static_cast<std::uint32_t>(n);
  inst.kernelArguments = std::vector<KernelArgument>{
      ArrayArgument{64, AddressSpace::Global, std::vector<std::string>{"CL_MEM_READ_WRITE"}, *data},
      ScalarArgument{encodeScalar(&value, 4, Endianness::Little)}};
  LaunchFacts facts;
  facts.launch = n;
  facts.enqueueFunction = "clEnqueueNDRangeKernel";
  facts.kernelName = "k";
  facts.device = {"cpu", "PoCL", "OpenCL 3.0", "3.1", 64, Endianness::Little, false};
  facts.arguments = {ArgumentFacts{0, ArgumentKind::Buffer, std::string("a"), std::string("uchar*"),
                                   std::string("global"), 0, 1, std::nullopt, std::nullopt, std::nullopt},
                     ArgumentFacts{1, ArgumentKind::Scalar, std::string("n"), std::string("int"),
                                   std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                                   std::nullopt}};
  auto index = rec.append(inst, facts);
  REQUIRE(index);
  return *index;
}

std::string allDiagnostics(const Capture &c) {
  std::string s;
  for (const auto &d : c.diagnostics)
    s += d.str() + "\n";
  return s;
}

} // namespace

TEST_CASE("recorder: a capture folder that loads back with its facts", "[recorder]") {
  TempDir dir;
  auto rec = CaptureRecorder::create(dir / "cap", header());
  REQUIRE(rec);
  for (std::uint64_t n = 0; n < 4; ++n)
    CHECK(recordLaunch(**rec, n, 2) == n);
  LaunchFacts il;
  il.launch = 4;
  il.kernelName = "from_spirv";
  il.programOrigin = ProgramOrigin::Il;
  il.enqueueFunction = "clEnqueueNDRangeKernel";
  il.device = {"cpu", "PoCL", "OpenCL 3.0", "3.1", 64, Endianness::Little, false};
  REQUIRE((*rec)->appendNotCaptured(il, "program built from IL has no source"));

  Capture c = loadCapture(dir / "cap/captures.json");
  INFO(allDiagnostics(c));
  REQUIRE_FALSE(c.hasErrors());
  CHECK(c.diagnostics.empty());
  REQUIRE(c.captures.instantiations.size() == 4);
  REQUIRE(c.sidecar);
  CHECK(c.sidecar->header == header());
  CHECK(c.sidecar->launches.size() == 5);
  for (std::size_t k = 0; k < 4; ++k) {
    REQUIRE(c.factsFor(k));
    CHECK(c.factsFor(k)->launch == k);
    CHECK(c.factsFor(k)->instantiation == k);
  }
  CHECK(c.sidecar->launches[4].notCapturedReason == "program built from IL has no source");
  // Two distinct buffer contents, one kernel source: stored once each.
  auto count = [](const std::filesystem::path &p) {
    return std::distance(std::filesystem::directory_iterator(p), std::filesystem::directory_iterator());
  };
  CHECK(count(dir / "cap/data") == 2);
  CHECK(count(dir / "cap/kernels") == 1);
  CHECK(std::get<ScalarArgument>(c.captures.instantiations[3].kernelArguments->at(1)).value == "0x00000003");
}

TEST_CASE("recorder: refuses to overwrite an earlier capture unless asked", "[recorder]") {
  TempDir dir;
  REQUIRE(CaptureRecorder::create(dir.path(), header()));
  auto again = CaptureRecorder::create(dir.path(), header());
  REQUIRE_FALSE(again);
  CHECK(again.error() ==
        (dir / "captures.json").string() + " already exists; refusing to overwrite an earlier capture");
  CHECK(CaptureRecorder::create(dir.path(), header(), CaptureRecorder::IfExists::Replace));
}

TEST_CASE("recorder: an invalid instantiation is refused and nothing is written", "[recorder]") {
  TempDir dir;
  auto rec = CaptureRecorder::create(dir.path(), header());
  REQUIRE(rec);
  Instantiation inst;
  inst.kernelFile = "../outside.cl";
  inst.globalSize = Dims{64};
  inst.entryPoint = "k";
  auto r = (*rec)->append(inst, LaunchFacts{});
  REQUIRE_FALSE(r);
  CHECK(r.error() ==
        "refusing to record an invalid instantiation: captures.json: instantiation 0: kernel_file: "
        "path \"../outside.cl\" escapes the capture folder (\"..\" component)");
  CHECK(loadCapture(dir / "captures.json").captures.recordCount == 0);
  CHECK(recordLaunch(**rec, 0) == 0); // the index was not used up
}

TEST_CASE("recorder: appends from many threads get distinct indices", "[recorder][threads]") {
  TempDir dir;
  auto rec = CaptureRecorder::create(dir.path(), header());
  REQUIRE(rec);
  constexpr int kThreads = 4, kEach = 50;
  std::vector<std::thread> threads;
  std::mutex resultsMutex;
  std::set<std::uint64_t> indices;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        // Catch2 assertions are not thread-safe: record plainly and check afterwards.
        std::vector<std::uint8_t> bytes(8, static_cast<std::uint8_t>(t));
        auto data = (*rec)->putData(bytes.data(), bytes.size());
        auto kernel = (*rec)->putKernelSource("k", "kernel void k() {}");
        Instantiation inst;
        inst.kernelFile = kernel ? *kernel : "";
        inst.globalSize = Dims{1};
        inst.entryPoint = "k";
        LaunchFacts facts;
        facts.launch = static_cast<std::uint64_t>(t * kEach + i);
        facts.kernelName = "k";
        facts.device.addressBits = 64;
        auto index = (*rec)->append(inst, facts);
        std::lock_guard<std::mutex> lock(resultsMutex);
        if (data && index)
          indices.insert(*index);
      }
    });
  for (auto &t : threads)
    t.join();
  CHECK(indices.size() == kThreads * kEach);
  Capture c = loadCapture(dir / "captures.json");
  INFO(allDiagnostics(c));
  CHECK_FALSE(c.hasErrors());
  CHECK(c.captures.instantiations.size() == kThreads * kEach);
  for (std::size_t k = 0; k < c.captures.instantiations.size(); ++k)
    REQUIRE(c.factsFor(k));
}

TEST_CASE("recorder: SIGKILL after N launches leaves N readable instantiations", "[recorder][crash]") {
  TempDir dir;
  constexpr std::uint64_t kLaunches = 7;
  pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // The child records, then dies the hardest way there is: no destructors, no flush, no atexit.
    auto rec = CaptureRecorder::create(dir.path(), header());
    if (!rec)
      ::_exit(3);
    for (std::uint64_t n = 0; n < kLaunches; ++n)
      recordLaunch(**rec, n);
    ::kill(::getpid(), SIGKILL);
    ::_exit(4);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGKILL);
  Capture c = loadCapture(dir / "captures.json");
  INFO(allDiagnostics(c));
  REQUIRE_FALSE(c.hasErrors());
  CHECK(c.captures.instantiations.size() == kLaunches);
  CHECK(c.sidecar->launches.size() == kLaunches);
}

TEST_CASE("recorder: killed between the sidecar entry and the record", "[recorder][crash]") {
  TempDir dir;
  {
    auto rec = CaptureRecorder::create(dir.path(), header());
    REQUIRE(rec);
    recordLaunch(**rec, 0);
    recordLaunch(**rec, 1);
  }
  // Simulate the kill: cut captures.json inside its last record; the sidecar still lists launch 1.
  auto path = dir / "captures.json";
  std::string text = clcapture::test::readFile(path);
  clcapture::test::writeFile(path, text.substr(0, text.size() - 20));
  Capture c = loadCapture(path);
  INFO(allDiagnostics(c));
  REQUIRE_FALSE(c.hasErrors());
  CHECK(c.captures.truncated);
  CHECK(c.captures.instantiations.size() == 1);
  bool warned = false;
  for (const auto &d : c.diagnostics)
    warned |= d.str() == (dir / "captures.meta.json").string() +
                             ": warning: launches[1].instantiation: instantiation 1 was not recorded in "
                             "captures.json (the application stopped first); ignored";
  CHECK(warned);
}

TEST_CASE("capture parts: processes of one run join a folder, another run's is refused", "[parts]") {
  TempDir dir;
  auto joined = joinCaptureRun(dir / "cap", "run-1");
  REQUIRE(joined);
  CHECK(*joined);
  CHECK(*joinCaptureRun(dir / "cap", "run-1"));
  CHECK_FALSE(*joinCaptureRun(dir / "cap", "run-2"));
  CHECK(holdsOtherRun(dir / "cap", "run-2"));
  CHECK_FALSE(holdsOtherRun(dir / "cap", "run-1"));
  CHECK_FALSE(holdsOtherRun(dir / "nothing-here", "run-2"));
  // A capture written before run.id existed belongs to no run of ours.
  auto old = CaptureRecorder::create(dir / "old", header());
  REQUIRE(old);
  CHECK_FALSE(*joinCaptureRun(dir / "old", "run-1"));
}

TEST_CASE("capture parts: names, the manifest, and one capture numbered across its parts", "[parts]") {
  CHECK(capturePartName(42, 0) == "captures.json");
  CHECK(capturePartName(42, 1) == "captures-42.json");
  CHECK(capturePartName(42, 2) == "captures-42-1.json");
  CHECK(isCapturePartName("captures.json"));
  CHECK(isCapturePartName("captures-42-1.json"));
  CHECK_FALSE(isCapturePartName("captures.meta.json"));
  CHECK_FALSE(isCapturePartName("captures-42.meta.json"));
  CHECK_FALSE(isCapturePartName("captures-x.json"));

  TempDir dir;
  SidecarHeader first = header(), second = header();
  second.process.pid = 77;
  auto a = CaptureRecorder::createPart(dir / "cap", first, 1234);
  auto b = CaptureRecorder::createPart(dir / "cap", second, 77);
  auto c = CaptureRecorder::createPart(dir / "cap", second, 77); // the same pid again: a name of its own
  REQUIRE(a);
  REQUIRE(b);
  REQUIRE(c);
  CHECK(a.value()->partName() == "captures.json");
  CHECK(b.value()->partName() == "captures-77.json");
  CHECK(c.value()->partName() == "captures-77-1.json");
  // b started before a in the manifest's order; c has no line (written before the manifest, say).
  ProcessFacts pb{"/bin/b", 77, "2026-11-28T00:00:00Z", {"b", "--x"}, {}, {}, 1};
  ProcessFacts pa{"/bin/a", 1234, "2026-11-28T00:00:01Z", {"a"}, {}, {}, 1};
  REQUIRE(appendManifestLine(dir / "cap", manifestStartLine("captures-77.json", pb)));
  REQUIRE(appendManifestLine(dir / "cap", manifestStartLine("captures.json", pa)));
  REQUIRE(appendManifestLine(dir / "cap", "not json\n"));
  REQUIRE(
      appendManifestLine(dir / "cap", manifestEndLine("captures-77.json", 77, "2026-11-28T00:00:02Z", 2)));
  recordLaunch(*a.value(), 0);
  recordLaunch(*b.value(), 0);
  recordLaunch(*b.value(), 1);
  recordLaunch(*c.value(), 0);
  auto records = readProcessManifest(dir / "cap");
  REQUIRE(records.size() == 2);
  CHECK(records[0].part == "captures-77.json");
  CHECK(records[0].pid == 77);
  CHECK(records[0].parent == std::optional<std::uint64_t>(1));
  CHECK(records[0].commandLine == std::vector<std::string>{"b", "--x"});
  CHECK(records[0].started == "2026-11-28T00:00:00Z");
  CHECK(records[0].ended == std::optional<std::string>("2026-11-28T00:00:02Z"));
  CHECK(records[0].launches == std::optional<std::uint64_t>(2));
  CHECK_FALSE(records[1].ended);
  auto parts = capturePartsOf(dir / "cap");
  REQUIRE(parts.size() == 3);
  CHECK(parts[0].filename() == "captures-77.json");
  CHECK(parts[1].filename() == "captures.json");
  CHECK(parts[2].filename() == "captures-77-1.json");

  Capture whole = loadCaptureFolder(dir / "cap");
  INFO(allDiagnostics(whole));
  REQUIRE_FALSE(whole.hasErrors());
  REQUIRE(whole.captures.instantiations.size() == 4);
  CHECK(whole.captures.indices == std::vector<std::size_t>{0, 1, 2, 3});
  REQUIRE(whole.parts.size() == 3);
  CHECK(whole.partOf(0)->capturesPath.filename() == "captures-77.json");
  CHECK(whole.partOf(1)->process->pid == 77);
  CHECK(whole.partOf(2)->capturesPath.filename() == "captures.json");
  CHECK(whole.partOf(2)->process->pid == 1234);
  CHECK(whole.partOf(3)->firstIndex == 3);
  // The sidecar's facts follow their instantiations, renumbered alike.
  for (std::size_t k = 0; k < 4; ++k) {
    REQUIRE(whole.factsFor(k));
    CHECK(whole.factsFor(k)->instantiation == std::optional<std::uint64_t>(k));
  }
  CHECK(whole.factsFor(2)->launch == 0);
  CHECK(whole.factsFor(1)->launch == 1);
}
