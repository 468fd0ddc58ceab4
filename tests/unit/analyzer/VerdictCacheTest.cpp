//===- VerdictCacheTest.cpp - clcapture-verify's verdict cache with a fake analysis -===//
//
// Hit, miss after a change to the source, the flags, the analysis's identity or --strict, a corrupt entry
// (ignored and rewritten), the time-limit rule, --no-cache and dumps (no cache), and the size bound.

#include "clcapture/verify/VerdictCache.h"

#include "FakeAnalyzer.h"
#include "TestSupport.h"
#include "clcapture/format/CaptureWriter.h"
#include "clcapture/verify/VerifyDriver.h"
#include "clcapture/verify/VerifyOptions.h"

#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace clcapture;
using report::InstantiationResult;
using report::Verdict;
using test::FakeAnalyzer;
using test::TempDir;
using Json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

const char *kKernel = "__kernel void k(__global int *a, int n) { a[get_global_id(0)] = n; }\n";

format::Instantiation launch(const std::string &scalar, std::optional<std::string> flags = std::nullopt) {
  format::Instantiation inst;
  inst.endianness = format::Endianness::Little;
  inst.kernelFile = "kernels/k.cl";
  inst.localSize = format::Dims{8};
  inst.globalSize = {16};
  inst.entryPoint = "k";
  if (flags)
    inst.compilerFlags = *flags;
  format::ArrayArgument a;
  a.size = 16;
  a.addressSpace = format::AddressSpace::Global;
  a.data = "data/d16.bin";
  inst.kernelArguments = std::vector<format::KernelArgument>{a, format::ScalarArgument{scalar}};
  return inst;
}

/// A race with every field set, and a divergence (accesses without an access kind).
std::vector<report::Finding> findings() {
  report::Finding race;
  race.conflict = report::Conflict::ReadWrite;
  race.memory = format::AddressSpace::Local;
  race.array = "tmp";
  race.index = {3, 1};
  race.bytes = {12, 15};
  race.accesses[0] = {report::AccessKind::Read,
                      {{{1, 2, 3}}, {{1, 0, 0}}, {{0, 2, 3}}},
                      {"kernels/k.cl", 1, 44},
                      "a[i] = n;"};
  race.accesses[1] = {
      report::AccessKind::Write, {{{5, 0, 0}}, {{5, 0, 0}}, {{0, 0, 0}}}, {"kernels/k.cl", 1, 50}, "x"};
  race.message = "possible read-write race on tmp[3][1]";
  report::Finding divergence;
  divergence.kind = report::FindingKind::BarrierDivergence;
  divergence.barrier = {"kernels/k.cl", 7, 3};
  divergence.accesses[0].location = {"kernels/k.cl", 7, 3};
  divergence.accesses[1].workItem.localId = {9, 0, 0};
  return {race, divergence};
}

struct Folder {
  TempDir dir;
  TempDir cache;
  explicit Folder(const std::vector<format::Instantiation> &insts, const std::string &kernel = kKernel) {
    test::writeFile(dir / "kernels/k.cl", kernel);
    test::writeFile(dir / "data/d16.bin", std::string(16, '\1'));
    REQUIRE(format::writeCapturesFile(dir / "captures.json", insts));
  }
  void rewrite(const std::vector<format::Instantiation> &insts, const std::string &kernel = kKernel) {
    test::writeFile(dir / "kernels/k.cl", kernel);
    REQUIRE(format::writeCapturesFile(dir / "captures.json", insts));
  }
  verify::VerifyOptions options() const {
    verify::VerifyOptions o;
    o.captures = dir / "captures.json";
    o.format = verify::ReportFormat::Json;
    o.jobs = 1;
    o.timeoutSeconds = 30;
    o.cacheDir = cache / "verdicts";
    return o;
  }
  std::vector<fs::path> entries() const {
    std::vector<fs::path> out;
    std::error_code ec;
    for (auto &e : fs::recursive_directory_iterator(cache / "verdicts", ec))
      if (e.is_regular_file())
        out.push_back(e.path());
    return out;
  }
};

/// The report without the times, which differ between runs.
Json reportOf(const verify::VerifyOptions &options, pipeline::InstantiationAnalyzer &analyzer,
              int *exit = nullptr) {
  std::ostringstream out, err;
  int code = verify::runVerify(options, analyzer, out, err);
  if (exit)
    *exit = code;
  Json j = Json::parse(out.str());
  for (Json &r : j["results"]) {
    r.erase("seconds");
    r.erase("peak_memory_mib"); // a cost, like seconds: absent for a result read from the cache
  }
  j["summary"].erase("seconds_by_kernel");
  return j;
}

/// A cache entry without the analysis's cost (its seconds, which differ between runs).
Json withoutCost(const std::string &entryText) {
  Json entry = Json::parse(entryText);
  Json result = Json::parse(entry["result"].get<std::string>());
  result.erase("seconds");
  entry["result"] = result;
  return entry;
}

/// An analysis that runs out of time.
InstantiationResult timesOut(const pipeline::AnalysisRequest &) {
  InstantiationResult r;
  r.verdict = Verdict::Unknown;
  r.errorKind = report::ErrorKind::Timeout;
  r.reason = "timed out";
  return r;
}

InstantiationResult racy(const pipeline::AnalysisRequest &) {
  InstantiationResult r;
  r.verdict = Verdict::Defects;
  r.findings = findings();
  return r;
}

} // namespace

TEST_CASE("verdict cache: a result survives the round trip through its stored form", "[cache]") {
  InstantiationResult r;
  r.entryPoint = "k";
  r.kernelFile = "kernels/k.cl";
  r.verdict = Verdict::Unknown;
  r.errorKind = report::ErrorKind::Timeout;
  r.reason = "timed out after 30 s";
  r.findings = findings();
  // A witness's open values: the uncaptured scalars it chose and the work-group size.
  r.findings[1].values = {{"stride", "0"}, {"scale", "(int2)(1, -2)"}};
  r.findings[1].localSize = std::array<std::uint64_t, 3>{16, 1, 1};
  std::string stored = verify::resultToJson(r);
  auto back = verify::resultFromJson(stored);
  REQUIRE(back);
  CHECK(verify::resultToJson(*back) == stored);
  CHECK(back->findings.size() == 2);
  CHECK(back->findings[0].values.empty());
  CHECK_FALSE(back->findings[0].localSize.has_value());
  CHECK(back->findings[1].values ==
        std::vector<report::WitnessValue>{{"stride", "0"}, {"scale", "(int2)(1, -2)"}});
  CHECK(back->findings[1].localSize == std::array<std::uint64_t, 3>{16, 1, 1});
  CHECK(back->findings[0].accesses[0].workItem.groupId == std::array<std::uint64_t, 3>{0, 2, 3});
  CHECK(back->findings[0].index == std::vector<std::uint64_t>{3, 1});
  CHECK_FALSE(back->findings[1].accesses[0].access.has_value());
  CHECK(back->errorKind == report::ErrorKind::Timeout);
  // A memory-safety finding: its kind, offset (negative before the start), size and the memory's bytes.
  report::Finding outside;
  outside.kind = report::FindingKind::OutOfBounds;
  outside.array = "tmp";
  outside.offset = -4;
  outside.size = 4;
  outside.extent = 256;
  outside.withinObject = true;
  r.findings = {outside};
  r.unsizedMemory = {"scratch"};
  auto unsafe = verify::resultFromJson(verify::resultToJson(r));
  REQUIRE(unsafe);
  CHECK(unsafe->findings[0].kind == report::FindingKind::OutOfBounds);
  CHECK(unsafe->findings[0].offset == -4);
  CHECK(unsafe->findings[0].size == 4);
  CHECK(unsafe->findings[0].extent == 256);
  CHECK(unsafe->findings[0].withinObject);
  CHECK(unsafe->unsizedMemory == std::vector<std::string>{"scratch"});
  CHECK(unsafe->findings[0].accessMode.empty());
  // An access-mode finding keeps its kind and the flag that forbids it.
  report::Finding misuse = outside;
  misuse.kind = report::FindingKind::AccessMode;
  misuse.withinObject = false;
  misuse.offset = 8;
  misuse.accessMode = "CL_MEM_READ_ONLY";
  r.findings = {misuse};
  auto mode = verify::resultFromJson(verify::resultToJson(r));
  REQUIRE(mode);
  CHECK(mode->findings[0].kind == report::FindingKind::AccessMode);
  CHECK(mode->findings[0].accessMode == "CL_MEM_READ_ONLY");
  CHECK(mode->findings[0].offset == 8);
  for (const char *bad : {"", "{}", "[1]", "{\"verdict\": \"maybe\"}"})
    CHECK_FALSE(verify::resultFromJson(bad));
  Json wrong = Json::parse(stored);
  wrong["findings"][0]["conflict"] = "read-read";
  CHECK_FALSE(verify::resultFromJson(wrong.dump()));
}

TEST_CASE("verdict cache: the second run analyses nothing and reports the same", "[cache]") {
  Folder f({launch("0x00000001"), launch("0x00000002")});
  FakeAnalyzer fake(racy);
  fake.setIdentity("fake 1");
  int first = 0, second = 0;
  Json a = reportOf(f.options(), fake, &first);
  // The two launches differ only in a value, but the first is not proven (racy): no parametric attempt,
  // each alone.
  CHECK(fake.calls() == 2);
  CHECK(f.entries().size() == 2);
  Json b = reportOf(f.options(), fake, &second);
  CHECK(fake.calls() == 2);
  CHECK(a == b);
  CHECK(first == second);
  CHECK(b["results"][1]["findings"][0]["accesses"][0]["work_item"]["group_id"] == Json::array({0, 2, 3}));
}

TEST_CASE(
    "verdict cache: a change to the source, the flags, a value, the analysis, --strict or --checks misses",
    "[cache]") {
  Folder f({launch("0x00000001")});
  FakeAnalyzer fake(racy);
  fake.setIdentity("fake 1");
  reportOf(f.options(), fake);
  REQUIRE(fake.calls() == 1);
  f.rewrite({launch("0x00000001")}, std::string(kKernel) + "// changed\n");
  reportOf(f.options(), fake);
  CHECK(fake.calls() == 2);
  f.rewrite({launch("0x00000001", "-DX=1")}, std::string(kKernel) + "// changed\n");
  reportOf(f.options(), fake);
  CHECK(fake.calls() == 3);
  f.rewrite({launch("0x00000003", "-DX=1")}, std::string(kKernel) + "// changed\n");
  reportOf(f.options(), fake);
  CHECK(fake.calls() == 4);
  FakeAnalyzer newer(racy);
  newer.setIdentity("fake 2");
  reportOf(f.options(), newer);
  CHECK(newer.calls() == 1);
  auto strict = f.options();
  strict.strict = true;
  reportOf(strict, newer);
  CHECK(newer.calls() == 2);
  reportOf(strict, newer);
  CHECK(newer.calls() == 2); // and that one hits again
  auto bounds = strict;      // --checks: another question, another answer
  bounds.checkBounds = false;
  reportOf(bounds, newer);
  CHECK(newer.calls() == 3);
}

TEST_CASE("verdict cache: the same source under another file name is reported under its own name",
          "[cache]") {
  // Two captures of one kernel, kernels/k.cl and kernels/renamed.cl, sharing a cache: the second is answered
  // from the first's entry, and its reason and locations must name its own file.
  auto unknown = [](const pipeline::AnalysisRequest &request) {
    InstantiationResult r = racy(request);
    r.verdict = Verdict::Unknown;
    r.reason = "possible race between kernels/k.cl:1:44 and kernels/k.cl:1:50, depending on a value read "
               "from global memory at kernels/k.cl:1";
    return r;
  };
  Folder first({launch("0x00000001")});
  FakeAnalyzer fake(unknown);
  fake.setIdentity("fake 1");
  Json a = reportOf(first.options(), fake);
  REQUIRE(fake.calls() == 1);
  CHECK(a["results"][0]["reason"].get<std::string>().find("kernels/k.cl:1:44") != std::string::npos);
  TempDir other;
  format::Instantiation renamed = launch("0x00000001");
  renamed.kernelFile = "kernels/renamed.cl";
  test::writeFile(other / "kernels/renamed.cl", kKernel);
  test::writeFile(other / "data/d16.bin", std::string(16, '\1'));
  REQUIRE(format::writeCapturesFile(other / "captures.json", {renamed}));
  verify::VerifyOptions options = first.options();
  options.captures = other / "captures.json";
  Json b = reportOf(options, fake);
  CHECK(fake.calls() == 1); // from the cache
  std::string reason = b["results"][0]["reason"].get<std::string>();
  CHECK(reason.find("kernels/k.cl") == std::string::npos);
  CHECK(reason == "possible race between kernels/renamed.cl:1:44 and kernels/renamed.cl:1:50, depending on a "
                  "value read from global memory at kernels/renamed.cl:1");
  CHECK(b["results"][0]["findings"][0]["accesses"][0]["location"]["file"] == "kernels/renamed.cl");
}

TEST_CASE("verdict cache: a corrupt entry is ignored and rewritten, never trusted", "[cache]") {
  Folder f({launch("0x00000001")});
  FakeAnalyzer fake(racy);
  fake.setIdentity("fake 1");
  Json clean = reportOf(f.options(), fake);
  auto entries = f.entries();
  REQUIRE(entries.size() == 1);
  std::string good = test::readFile(entries[0]);
  Json entry = Json::parse(good);
  Json result = Json::parse(entry["result"].get<std::string>());
  result["verdict"] = "verified";
  result["findings"] = Json::array();
  // Garbage, a cut-short file, and a well-formed entry for another key: none is used.
  Json otherKey = entry;
  otherKey["key"] = "something else";
  otherKey["result"] = result.dump();
  std::size_t calls = 1;
  for (const std::string &bad : {std::string("not json"), good.substr(0, good.size() / 2), otherKey.dump()}) {
    test::writeFile(entries[0], bad);
    CHECK(reportOf(f.options(), fake) == clean);
    CHECK(fake.calls() == ++calls);
    CHECK(withoutCost(test::readFile(entries[0])) == withoutCost(good));
  }
}

TEST_CASE("verdict cache: a time-limited result is reused only under a limit no larger", "[cache]") {
  Folder f({launch("0x00000001")});
  FakeAnalyzer fake(timesOut);
  fake.setIdentity("fake 1");
  auto options = f.options();
  options.timeoutSeconds = 10;
  reportOf(options, fake);
  CHECK(fake.calls() == 1);
  options.timeoutSeconds = 5;
  reportOf(options, fake);
  CHECK(fake.calls() == 1);
  options.timeoutSeconds = 10;
  reportOf(options, fake);
  CHECK(fake.calls() == 1);
  options.timeoutSeconds = 0; // no limit: try again
  reportOf(options, fake);
  CHECK(fake.calls() == 2);
}

TEST_CASE("verdict cache: off with --no-cache, while dumping, and for an analysis without identity",
          "[cache]") {
  Folder f({launch("0x00000001")});
  FakeAnalyzer anonymous(racy);
  anonymous.setIdentity("");
  reportOf(f.options(), anonymous);
  reportOf(f.options(), anonymous);
  CHECK(anonymous.calls() == 2);
  CHECK(f.entries().empty());
  FakeAnalyzer fake(racy);
  fake.setIdentity("fake 1");
  auto options = f.options();
  options.dumpIrDir = f.cache / "ir";
  reportOf(options, fake);
  reportOf(options, fake);
  CHECK(fake.calls() == 2);
  CHECK(f.entries().empty());
  options = f.options();
  options.cacheDir.reset();
  reportOf(options, fake);
  CHECK(fake.calls() == 3);

  const char *noCache[] = {"clcapture-verify", "--no-cache", "captures.json"};
  std::ostringstream out, err;
  CHECK_FALSE(verify::parseCommandLine(3, noCache, out, err).options.cacheDir);
  ::setenv("XDG_CACHE_HOME", (f.cache / "xdg").c_str(), 1);
  const char *plain[] = {"clcapture-verify", "captures.json"};
  auto parsed = verify::parseCommandLine(2, plain, out, err).options.cacheDir;
  ::unsetenv("XDG_CACHE_HOME");
  REQUIRE(parsed);
  CHECK(*parsed == f.cache / "xdg" / "clcapture" / "verdicts");
}

TEST_CASE("verdict cache: the folder is kept under its bound, least recently used first", "[cache]") {
  TempDir dir;
  verify::VerdictCache cache(dir / "v", "fake 1", {}, 2000);
  InstantiationResult r;
  r.verdict = Verdict::Defects;
  r.findings = findings(); // about 700 bytes an entry
  for (int i = 0; i < 10; ++i)
    cache.store("key " + std::to_string(i), false, 30, r);
  CHECK(cache.stored() == 10);
  cache.prune();
  std::uint64_t total = 0;
  std::size_t left = 0;
  for (auto &e : fs::recursive_directory_iterator(dir / "v"))
    if (e.is_regular_file()) {
      total += e.file_size();
      ++left;
    }
  CHECK(total <= 2000);
  CHECK(left >= 1);
  CHECK(left < 10);
  CHECK(cache.find("key 9", false, 30)); // the newest stays
}

TEST_CASE("verdict cache: an entry is reused only while every header it read has its hash", "[cache]") {
  TempDir dir;
  std::map<std::string, std::string> contents{{"kernels/a.h", "one"}, {"/abs/b.h", "two"}};
  verify::VerdictCache cache(dir / "v", "fake 1",
                             [&](const std::string &header) { return contents[header]; });
  InstantiationResult r;
  r.verdict = Verdict::Verified;
  r.headersRead = {"kernels/a.h", "/abs/b.h"};
  cache.store("key", false, 30, r);
  auto hit = cache.find("key", false, 30);
  REQUIRE(hit);
  CHECK(hit->verdict == Verdict::Verified);
  CHECK(hit->headersRead == r.headersRead);
  contents["/abs/b.h"] = "TWO";
  CHECK_FALSE(cache.find("key", false, 30));
  contents["/abs/b.h"] = "two";
  CHECK(cache.find("key", false, 30));

  // Without a way to check headers, an entry that read some is neither stored nor reused.
  verify::VerdictCache blind(dir / "w", "fake 1", {});
  blind.store("key", false, 30, r);
  CHECK(blind.stored() == 0);
  CHECK_FALSE(blind.find("key", false, 30));

  // A compilation error is never stored: a missing header may be there next time.
  InstantiationResult error;
  error.verdict = Verdict::Error;
  error.errorKind = report::ErrorKind::Compile;
  error.reason = "kernels/k.cl:1:10: fatal error: 'a.h' file not found";
  cache.store("broken", false, 30, error);
  CHECK_FALSE(cache.find("broken", false, 30));
}

TEST_CASE("verdict cache: cached time limits count toward giving up on a kernel, as analysed ones do",
          "[cache]") {
  Folder f({launch("0x00000001"), launch("0x00000002"), launch("0x00000003"), launch("0x00000004")});
  FakeAnalyzer fake(timesOut);
  fake.setIdentity("fake 1");
  verify::VerifyOptions options = f.options();
  options.parametric = false;
  Json first = reportOf(options, fake);
  CHECK(fake.calls() == verify::kDefaultGiveUpAfter);
  CHECK(first["summary"]["cut_short"] == 4 - verify::kDefaultGiveUpAfter);
  // Again, with the two time limits in the cache: the other two launches are cut short without analysis.
  Json second = reportOf(options, fake);
  CHECK(fake.calls() == verify::kDefaultGiveUpAfter);
  CHECK(second == first);
}

TEST_CASE("verdict cache: a crashed analysis is not kept: the next run analyses it again", "[cache]") {
  Folder f({launch("0x00000001")});
  FakeAnalyzer fake([](const pipeline::AnalysisRequest &) {
    InstantiationResult r;
    r.verdict = Verdict::Error;
    r.errorKind = report::ErrorKind::Other;
    r.reason = "internal error: the analysis crashed (signal 6, Aborted)";
    return r;
  });
  fake.setIdentity("fake crash");
  reportOf(f.options(), fake);
  CHECK(fake.calls() == 1);
  CHECK(f.entries().empty());
  reportOf(f.options(), fake);
  CHECK(fake.calls() == 2);
}
