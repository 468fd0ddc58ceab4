//===- VerifyDriverTest.cpp - clcapture-verify's driver with a fake analysis -===//
//
// Capture folders are written with common/'s writer into temporary folders; the analysis is FakeAnalyzer.

#include "clcapture/verify/VerifyDriver.h"

#include "FakeAnalyzer.h"
#include "TestSupport.h"
#include "clcapture/format/CaptureWriter.h"
#include "clcapture/verify/ExitCode.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

using namespace clcapture;
using format::Instantiation;
using report::InstantiationResult;
using report::Verdict;
using test::FakeAnalyzer;
using test::TempDir;
using Json = nlohmann::json;

namespace {

const char *kKernel = "__kernel void k(__global int *a, int n) { a[get_global_id(0)] = n; }\n";

/// k(a, n) on 16 work-items in groups of 8, `a` holding data/d16.bin.
Instantiation launch(const std::string &scalar = "0x00000001", const std::string &kernelFile = "kernels/k.cl",
                     const std::string &data = "data/d16.bin") {
  Instantiation inst;
  inst.endianness = format::Endianness::Little;
  inst.kernelFile = kernelFile;
  inst.localSize = format::Dims{8};
  inst.globalSize = {16};
  inst.entryPoint = "k";
  format::ArrayArgument a;
  a.size = 16;
  a.addressSpace = format::AddressSpace::Global;
  a.data = data;
  inst.kernelArguments = std::vector<format::KernelArgument>{a, format::ScalarArgument{scalar}};
  return inst;
}

/// A capture folder holding `insts`, kernels/k.cl (+ kernels/k-copy.cl, same bytes) and two 16-byte data
/// files that differ.
struct CaptureFolder {
  TempDir dir;
  explicit CaptureFolder(const std::vector<Instantiation> &insts,
                         const std::optional<format::Sidecar> &sidecar = std::nullopt) {
    test::writeFile(dir / "kernels/k.cl", kKernel);
    test::writeFile(dir / "kernels/k-copy.cl", kKernel);
    test::writeFile(dir / "data/d16.bin", std::string(16, '\1'));
    test::writeFile(dir / "data/e16.bin", std::string(16, '\2'));
    test::writeFile(dir / "data/f32.bin", std::string(32, '\3'));
    REQUIRE(format::writeCapturesFile(dir / "captures.json", insts));
    if (sidecar)
      REQUIRE(format::writeSidecarFile(dir / "captures.meta.json", *sidecar));
  }
  verify::VerifyOptions options(verify::ReportFormat format = verify::ReportFormat::Json) const {
    verify::VerifyOptions o;
    o.captures = dir / "captures.json";
    o.format = format;
    o.jobs = 1;
    o.parametric = false; // the parametric tests below turn it on
    return o;
  }
};

struct Outcome {
  int exitCode;
  std::string out, err;
  Json json() const { return Json::parse(out); }
};

Outcome run(const verify::VerifyOptions &options, pipeline::InstantiationAnalyzer &analyzer) {
  std::ostringstream out, err;
  int code = verify::runVerify(options, analyzer, out, err);
  return {code, out.str(), err.str()};
}

/// clcapture-verify over `capture` with parametric proofs on `jobs` threads.
Outcome runGrouped(const CaptureFolder &capture, pipeline::InstantiationAnalyzer &analyzer,
                   unsigned jobs = 1) {
  verify::VerifyOptions options = capture.options();
  options.parametric = true;
  options.jobs = jobs;
  return run(options, analyzer);
}

InstantiationResult verdict(Verdict v, std::string reason = {},
                            report::ErrorKind kind = report::ErrorKind::None) {
  InstantiationResult r;
  r.verdict = v;
  r.reason = std::move(reason);
  r.errorKind = kind;
  return r;
}

report::Finding raceAt(const std::string &file, std::uint64_t line, bool benign = false) {
  report::Finding f;
  f.conflict = report::Conflict::WriteWrite;
  f.benign = benign;
  f.array = "a";
  f.index = {line};
  f.bytes = {4 * line, 4 * line + 3};
  f.accesses[0].access = report::AccessKind::Write;
  f.accesses[0].location = {file, 1, 40};
  f.accesses[1].access = report::AccessKind::Write;
  f.accesses[1].location = {file, line, 40};
  f.accesses[1].workItem.globalId = {1, 0, 0};
  return f;
}

/// The scalar argument's value of the analysed instantiation, as a number.
std::uint64_t scalarOf(const pipeline::AnalysisRequest &r) {
  const auto &args = *r.instantiation->kernelArguments;
  return std::stoull(*std::get<format::ScalarArgument>(args[1]).value, nullptr, 16);
}

/// A concrete launch's analysis "costs" 10 s (the driver takes an analysis's own figure when it is larger
/// than its clock's: no test depends on how fast this machine is).
InstantiationResult costing10s(InstantiationResult r) {
  r.seconds = 10;
  return r;
}

/// Whether the analysed instantiation is a parametric group's (its scalar left open).
bool opened(const pipeline::AnalysisRequest &r) {
  return !std::get<format::ScalarArgument>((*r.instantiation->kernelArguments)[1]).value;
}

} // namespace

TEST_CASE("identical instantiations are analysed once and the result copied", "[dedupe]") {
  Instantiation withOffset = launch();
  withOffset.globalOffset =
      format::Dims{0}; // an all-zero offset is the same launch as none (docs/contract.md §3)
  CaptureFolder capture(
      {launch(), withOffset, launch("0x00000001", "kernels/k-copy.cl"), launch("0x00000002")});
  FakeAnalyzer analyzer([](const pipeline::AnalysisRequest &r) {
    InstantiationResult result;
    result.verdict = Verdict::Verified;
    result.findings = {raceAt(r.instantiation->kernelFile, 2)};
    return result;
  });
  Outcome o = run(capture.options(), analyzer);
  CHECK(o.exitCode == verify::kExitNotAllVerified);
  CHECK(analyzer.indices() == std::vector<std::size_t>{0, 3});
  Json report = o.json();
  REQUIRE(report["results"].size() == 4);
  CHECK(report["results"][0].contains("same_as") == false);
  CHECK(report["results"][1]["same_as"] == 0);
  CHECK(report["results"][2]["same_as"] == 0);
  CHECK(report["results"][3].contains("same_as") == false);
  // The copy keeps its own index and kernel file, also in its findings' locations.
  CHECK(report["results"][2]["index"] == 2);
  CHECK(report["results"][2]["kernel_file"] == "kernels/k-copy.cl");
  CHECK(report["results"][2]["findings"][0]["accesses"][1]["location"]["file"] == "kernels/k-copy.cl");
  CHECK(report["results"][2]["verdict"] == "defects");
  CHECK(report["results"][2]["seconds"] == 0.0);

  capture.options(verify::ReportFormat::Text);
  FakeAnalyzer again;
  Outcome text = run(capture.options(verify::ReportFormat::Text), again);
  CHECK_THAT(text.out, Catch::Contains("instantiation 1: k in "));
  CHECK_THAT(text.out, Catch::Contains("verified (same as #0)\n"));
}

TEST_CASE("instantiations that differ in anything the analysis reads are analysed separately", "[dedupe]") {
  Instantiation otherSize = launch();
  otherSize.globalSize = {32};
  Instantiation noLocal = launch();
  noLocal.localSize.reset();
  Instantiation flags = launch();
  flags.compilerFlags = "-DN=2";
  Instantiation entry = launch();
  entry.entryPoint = "k2";
  CaptureFolder capture({launch(), launch("0x00000001", "kernels/k.cl", "data/e16.bin"), otherSize, noLocal,
                         flags, entry, launch("0x00000003")});
  FakeAnalyzer analyzer;
  Outcome o = run(capture.options(), analyzer);
  CHECK(o.exitCode == verify::kExitVerified);
  CHECK(analyzer.calls() == 7);
}

TEST_CASE("the sidecar's aliasing facts keep otherwise identical launches apart", "[dedupe]") {
  format::Sidecar sidecar;
  sidecar.header.clcaptureVersion = "0.1.0";
  sidecar.header.process = {"/bin/app", 1, "2026-01-01T00:00:00Z"};
  for (std::uint64_t i = 0; i < 3; ++i) {
    format::LaunchFacts f;
    f.launch = i;
    f.instantiation = i;
    f.enqueueFunction = "clEnqueueNDRangeKernel";
    f.kernelName = "k";
    f.queue = i; // launch identity: does not matter
    f.device = {"cpu", "PoCL", "OpenCL 3.0", "3.1", 64, format::Endianness::Little, false};
    f.arguments = {format::ArgumentFacts{0, format::ArgumentKind::Buffer, std::string("a"),
                                         std::string("int*"), std::string("global"), 10 + i, 1, std::nullopt,
                                         std::nullopt, std::nullopt},
                   format::ArgumentFacts{1, format::ArgumentKind::Scalar, std::string("n"),
                                         std::string("int"), std::nullopt, std::nullopt, std::nullopt,
                                         std::nullopt, std::nullopt, std::nullopt}};
    if (i == 2)
      f.aliases = {{0, 1}}; // the fact differs; whether it makes sense is the analysis's business
    sidecar.launches.push_back(f);
  }
  CaptureFolder capture({launch(), launch(), launch()}, sidecar);
  FakeAnalyzer analyzer;
  Outcome o = run(capture.options(), analyzer);
  INFO(o.err);
  CHECK(o.exitCode == verify::kExitVerified);
  CHECK(analyzer.indices() == std::vector<std::size_t>{0, 2});
  for (const auto &seen : analyzer.requests())
    CHECK(seen.hasFacts);
}

TEST_CASE("only: selected instantiations are analysed, an index that does not exist is a command-line error",
          "[only]") {
  CaptureFolder capture({launch("0x00000001"), launch("0x00000002"), launch("0x00000003")});
  FakeAnalyzer analyzer;
  auto options = capture.options();
  options.only = {2, 0, 2};
  Outcome o = run(options, analyzer);
  CHECK(o.exitCode == verify::kExitVerified);
  CHECK(analyzer.indices() == std::vector<std::size_t>{0, 2});
  Json report = o.json();
  REQUIRE(report["results"].size() == 2);
  CHECK(report["results"][0]["index"] == 0);
  CHECK(report["results"][1]["index"] == 2);

  FakeAnalyzer untouched;
  options.only = {1, 3};
  Outcome bad = run(options, untouched);
  CHECK(bad.exitCode == verify::kExitCommandLine);
  CHECK(bad.out.empty());
  CHECK_THAT(bad.err, Catch::Contains("--only: no instantiation 3 in "));
  CHECK_THAT(bad.err, Catch::Contains("(it has 3, numbered 0 to 2)"));
  CHECK(untouched.calls() == 0);
}

TEST_CASE("jobs: -j 4 gives the same report as -j 1", "[jobs]") {
  std::vector<Instantiation> insts;
  for (int i = 0; i < 12; ++i)
    insts.push_back(launch("0x0000000" + std::string(1, "0123456789ABCDEF"[i])));
  insts.push_back(launch("0x00000003")); // a duplicate of #3
  CaptureFolder capture(insts);
  auto script = [](const pipeline::AnalysisRequest &r) {
    std::uint64_t n = scalarOf(r);
    // Finishing out of order: later instantiations are quicker.
    std::this_thread::sleep_for(std::chrono::milliseconds(2 * (12 - static_cast<int>(n))));
    InstantiationResult result;
    result.verdict = n % 4 == 3 ? Verdict::Unknown : Verdict::Verified;
    result.reason = n % 4 == 3 ? "bound reached" : "";
    if (n % 3 == 0) // findings in a scrambled order
      result.findings = {raceAt(r.instantiation->kernelFile, 5 + n),
                         raceAt(r.instantiation->kernelFile, 2, true),
                         raceAt(r.instantiation->kernelFile, 3 + n % 2)};
    return result;
  };
  for (auto format : {verify::ReportFormat::Text, verify::ReportFormat::Sarif, verify::ReportFormat::Json}) {
    FakeAnalyzer serial(script), parallel(script);
    auto options = capture.options(format);
    options.jobs = 1;
    Outcome one = run(options, serial);
    options.jobs = 4;
    Outcome four = run(options, parallel);
    CHECK(one.exitCode == four.exitCode);
    CHECK(serial.calls() == 12);
    CHECK(parallel.calls() == 12);
    CHECK(serial.maxInFlight() == 1);
    CHECK(parallel.maxInFlight() > 1);
    if (format == verify::ReportFormat::Json) {
      Json a = one.json(), b = four.json();
      for (auto *j : {&a, &b}) {
        for (auto &r : (*j)["results"])
          r["seconds"] = 0;
        (*j)["summary"].erase("seconds_by_kernel");
      }
      CHECK(a == b);
    } else {
      CHECK(one.out == four.out);
    }
  }
}

TEST_CASE("a timeout: the request carries the limit, the result is unknown, the exit status 7", "[timeout]") {
  CaptureFolder capture({launch("0x00000001"), launch("0x00000002")});
  FakeAnalyzer analyzer([](const pipeline::AnalysisRequest &r) {
    if (scalarOf(r) == 2)
      return verdict(Verdict::Unknown, "timed out after 2.5 s", report::ErrorKind::Timeout);
    return verdict(Verdict::Verified);
  });
  auto options = capture.options();
  options.timeoutSeconds = 2.5;
  Outcome o = run(options, analyzer);
  CHECK(o.exitCode == verify::kExitTimeout);
  Json report = o.json();
  CHECK(report["results"][1]["verdict"] == "unknown");
  CHECK(report["results"][1]["reason"] == "timed out after 2.5 s");
  for (const auto &seen : analyzer.requests()) {
    CHECK(seen.options.timeoutSeconds == 2.5);
    CHECK(seen.hasDeadline);
  }

  FakeAnalyzer unlimited;
  options.timeoutSeconds = 0;
  (void)run(options, unlimited);
  for (const auto &seen : unlimited.requests())
    CHECK_FALSE(seen.hasDeadline);
}

TEST_CASE("exit status: a compile error wins over a timeout, which wins over defects", "[exit]") {
  CaptureFolder capture(
      {launch("0x00000001"), launch("0x00000002"), launch("0x00000003"), launch("0x00000004")});
  auto script = [](const pipeline::AnalysisRequest &r) {
    switch (scalarOf(r)) {
    case 1:
      return verdict(Verdict::Verified);
    case 2: {
      InstantiationResult result = verdict(Verdict::Verified);
      result.findings = {raceAt("kernels/k.cl", 2)};
      return result;
    }
    case 3:
      return verdict(Verdict::Unknown, "timed out", report::ErrorKind::Timeout);
    default:
      return verdict(Verdict::Error, "kernels/k.cl:1:1: error: x", report::ErrorKind::Compile);
    }
  };
  auto options = capture.options();
  FakeAnalyzer all(script);
  CHECK(run(options, all).exitCode == verify::kExitCompileError);
  options.only = {0, 1, 2};
  FakeAnalyzer noCompile(script);
  CHECK(run(options, noCompile).exitCode == verify::kExitTimeout);
  options.only = {0, 1};
  FakeAnalyzer defects(script);
  CHECK(run(options, defects).exitCode == verify::kExitNotAllVerified);
  options.only = {0};
  FakeAnalyzer verified(script);
  CHECK(run(options, verified).exitCode == verify::kExitVerified);
}

TEST_CASE("exitCodeFor: verdicts and kinds", "[exit]") {
  auto r = [](Verdict v, report::ErrorKind k = report::ErrorKind::None) {
    InstantiationResult x;
    x.verdict = v;
    x.errorKind = k;
    return x;
  };
  using K = report::ErrorKind;
  CHECK(verify::exitCodeFor({}) == 0);
  CHECK(verify::exitCodeFor({r(Verdict::Verified), r(Verdict::Verified)}) == 0);
  CHECK(verify::exitCodeFor({r(Verdict::Verified), r(Verdict::Unknown)}) == 6);
  CHECK(verify::exitCodeFor({r(Verdict::Defects)}) == 6);
  CHECK(verify::exitCodeFor({r(Verdict::Error, K::Other)}) == 6);
  CHECK(verify::exitCodeFor({r(Verdict::Defects), r(Verdict::Unknown, K::Timeout)}) == 7);
  CHECK(verify::exitCodeFor({r(Verdict::Unknown, K::Timeout), r(Verdict::Error, K::Compile)}) == 2);
  CHECK(verify::exitCodeFor({r(Verdict::Error, K::Other), r(Verdict::Error, K::Compile)}) == 2);
}

TEST_CASE("an exception escaping the analysis becomes an error verdict", "[errors]") {
  CaptureFolder capture({launch("0x00000001"), launch("0x00000002")});
  FakeAnalyzer analyzer([](const pipeline::AnalysisRequest &r) -> InstantiationResult {
    if (scalarOf(r) == 2)
      throw std::runtime_error("boom");
    return verdict(Verdict::Verified);
  });
  Outcome o = run(capture.options(), analyzer);
  CHECK(o.exitCode == verify::kExitNotAllVerified);
  Json report = o.json();
  CHECK(report["results"][0]["verdict"] == "verified");
  CHECK(report["results"][1]["verdict"] == "error");
  CHECK(report["results"][1]["reason"] == "internal error: boom");
}

TEST_CASE("an invalid capture exits 10 with the reader's diagnostics and analyses nothing", "[capture]") {
  TempDir dir;
  test::writeFile(dir / "captures.json", "[{\"language\": \"OpenCL\" \"entry_point\": \"k\"}]");
  verify::VerifyOptions options;
  options.captures = dir / "captures.json";
  FakeAnalyzer analyzer;
  Outcome o = run(options, analyzer);
  CHECK(o.exitCode == verify::kExitCaptureInvalid);
  CHECK(o.out.empty());
  CHECK(analyzer.calls() == 0);
  CHECK_THAT(o.err, Catch::Contains("captures.json:1:"));
  CHECK_THAT(o.err, Catch::Contains("invalid JSON"));

  CaptureFolder missingData({launch("0x00000001", "kernels/k.cl", "data/none.bin")});
  Outcome missing = run(missingData.options(), analyzer);
  CHECK(missing.exitCode == verify::kExitCaptureInvalid);
  CHECK_THAT(missing.err,
             Catch::Contains("instantiation 0: kernel_arguments[0].data: file \"data/none.bin\" does "
                             "not exist"));
  CHECK(analyzer.calls() == 0);
}

TEST_CASE("benign races alone exit 0, under --strict they are defects", "[strict]") {
  CaptureFolder capture({launch()});
  auto script = [](const pipeline::AnalysisRequest &r) {
    InstantiationResult result = verdict(Verdict::Verified);
    result.findings = {raceAt(r.instantiation->kernelFile, 2, true)};
    return result;
  };
  FakeAnalyzer lenient(script), strict(script);
  Outcome plain = run(capture.options(), lenient);
  CHECK(plain.exitCode == verify::kExitVerified);
  CHECK(plain.json()["results"][0]["findings"][0]["severity"] == "warning");
  auto options = capture.options();
  options.strict = true;
  Outcome o = run(options, strict);
  CHECK(o.exitCode == verify::kExitNotAllVerified);
  CHECK(o.json()["strict"] == true);
  CHECK(o.json()["results"][0]["verdict"] == "defects");
  CHECK(strict.requests()[0].options.strict);
}

TEST_CASE("output: the report goes to the --output file and the summary to stderr", "[output]") {
  CaptureFolder capture({launch()});
  TempDir out;
  auto options = capture.options(verify::ReportFormat::Sarif);
  options.output = out / "report.sarif";
  FakeAnalyzer analyzer;
  Outcome o = run(options, analyzer);
  CHECK(o.exitCode == 0);
  CHECK(o.out.empty());
  CHECK_THAT(o.err,
             Catch::Contains("clcapture-verify: 1 instantiation: 1 verified, 0 defects, 0 unknown, 0 error"));
  Json sarif = Json::parse(test::readFile(out / "report.sarif"));
  CHECK(sarif["version"] == "2.1.0");
}

TEST_CASE("dump folders are created and handed to the analysis", "[dump]") {
  CaptureFolder capture({launch()});
  TempDir dumps;
  auto options = capture.options();
  options.dumpIrDir = dumps / "ir/nested";
  options.dumpSmt2Dir = dumps / "smt2";
  FakeAnalyzer analyzer;
  CHECK(run(options, analyzer).exitCode == 0);
  CHECK(std::filesystem::is_directory(dumps / "ir/nested"));
  CHECK(std::filesystem::is_directory(dumps / "smt2"));
  auto seen = analyzer.requests().at(0);
  CHECK(seen.options.dumpIrDir == dumps / "ir/nested");
  CHECK(seen.options.dumpSmt2Dir == dumps / "smt2");
  CHECK(seen.kernelSourcePath == capture.dir / "kernels/k.cl");
  CHECK(pipeline::dumpPath("d", 3, "my.kernel", ".race-1.smt2") ==
        std::filesystem::path("d/3-my_kernel.race-1.smt2"));

  test::writeFile(dumps / "file", "x");
  options.dumpIrDir = dumps / "file/sub";
  FakeAnalyzer untouched;
  Outcome bad = run(options, untouched);
  CHECK(bad.exitCode == verify::kExitCommandLine);
  CHECK_THAT(bad.err, Catch::Contains("--dump-ir: cannot create folder"));
  CHECK(untouched.calls() == 0);
}

TEST_CASE("progress: on a terminal a line rewritten in place, only for several analyses", "[progress]") {
  CaptureFolder capture(
      {launch("0x00000001"), launch("0x00000002"), launch("0x00000003"), launch("0x00000004")});
  auto options = capture.options(verify::ReportFormat::Text);
  options.progress = true;
  options.progressOnTerminal = true;
  FakeAnalyzer analyzer;
  Outcome o = run(options, analyzer);
  CHECK_THAT(o.err,
             Catch::Contains("\rclcapture-verify: 4 of 4 launches done (4 verified, 0 defects, 0 unknown, "
                             "0 error)"));
  CHECK(o.out.find('\r') == std::string::npos);
  options.only = {0, 1};
  FakeAnalyzer few;
  CHECK(run(options, few).err.find("launches done") == std::string::npos);
  options.only.clear();
  options.progress = false; // --quiet
  FakeAnalyzer quiet;
  CHECK(run(options, quiet).err.find("launches done") == std::string::npos);
}

/// A stream whose text can be awaited from another thread.
class WatchedStream : public std::streambuf {
public:
  /// Waits (up to a minute: a machine under any load prints long before) until the text contains `what`.
  bool waitFor(const std::string &what) {
    std::unique_lock<std::mutex> lock(m_mutex);
    return m_changed.wait_for(lock, std::chrono::minutes(1),
                              [&] { return m_text.find(what) != std::string::npos; });
  }
  std::string text() {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_text;
  }

protected:
  int overflow(int c) override {
    if (c != EOF) {
      std::lock_guard<std::mutex> lock(m_mutex);
      m_text += static_cast<char>(c);
    }
    m_changed.notify_all();
    return c;
  }
  std::streamsize xsputn(const char *s, std::streamsize n) override {
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      m_text.append(s, static_cast<std::size_t>(n));
    }
    m_changed.notify_all();
    return n;
  }

private:
  std::mutex m_mutex;
  std::condition_variable m_changed;
  std::string m_text;
};

TEST_CASE("progress: elsewhere a whole line at each interval, naming the longest analysis running",
          "[progress]") {
  CaptureFolder capture({launch("0x00000001"), launch("0x00000002")});
  auto options = capture.options(verify::ReportFormat::Json);
  options.progress = true;
  options.progressOnTerminal = false;
  options.progressIntervalSeconds = 0.001;
  WatchedStream watched;
  std::ostream err(&watched);
  bool seen = false;
  // The second analysis waits until a periodic line has shown it running: no clock decides the outcome.
  FakeAnalyzer analyzer([&](const pipeline::AnalysisRequest &r) {
    if (r.index == 1)
      seen = watched.waitFor("1 of 2 launches done (1 verified, 0 defects, 0 unknown, 0 error); 1 running, "
                             "the longest k (kernels/k.cl) for");
    return verdict(Verdict::Verified);
  });
  std::ostringstream out;
  CHECK(verify::runVerify(options, analyzer, out, err) == verify::kExitVerified);
  CHECK(seen);
  std::string text = watched.text();
  CHECK(text.find('\r') == std::string::npos);
  CHECK_THAT(text, Catch::Contains("launches done (1 verified, 0 defects, 0 unknown, 0 error); 1 running"));
}

TEST_CASE("an empty capture: nothing to analyse, exit 0, a warning", "[capture]") {
  CaptureFolder capture({});
  FakeAnalyzer analyzer;
  Outcome o = run(capture.options(verify::ReportFormat::Text), analyzer);
  CHECK(o.exitCode == 0);
  CHECK(o.out == "clcapture-verify: 0 instantiations: 0 verified, 0 defects, 0 unknown, 0 error\n");
  CHECK_THAT(o.err, Catch::Contains("holds no instantiation"));
}

TEST_CASE("parametric: launches that differ only in values are proven once with those values open",
          "[parametric]") {
  CaptureFolder capture({launch("0x00000001"), launch("0x00000002", "kernels/k.cl", "data/e16.bin"),
                         launch("0x00000003"), launch("0x00000001")});
  std::vector<bool> openScalar, openData;
  std::vector<double> limits;
  std::vector<std::map<std::size_t, std::vector<std::string>>> bounds;
  FakeAnalyzer analyzer([&](const pipeline::AnalysisRequest &r) {
    const auto &args = *r.instantiation->kernelArguments;
    openScalar.push_back(!std::get<format::ScalarArgument>(args[1]).value);
    openData.push_back(!std::get<format::ArrayArgument>(args[0]).data);
    limits.push_back(r.options.timeoutSeconds);
    bounds.push_back(r.openValues);
    return costing10s(verdict(Verdict::Verified));
  });
  Outcome o = runGrouped(capture, analyzer);
  CHECK(o.exitCode == verify::kExitVerified);
  // The group's first launch alone (its own result, and the cost that sizes the attempt), then the group's
  // proof, which covers the other two distinct launches and the copy.
  REQUIRE(analyzer.calls() == 2);
  CHECK(openScalar == std::vector<bool>{false, true});
  CHECK(openData == std::vector<bool>{false, true});
  // The proof covers the values the launches passed, not every value (docs/semantics.md row 35).
  using Bounds = std::map<std::size_t, std::vector<std::string>>;
  CHECK(bounds == std::vector<Bounds>{{}, {{1, {"0x00000001", "0x00000002", "0x00000003"}}}});
  // The attempt's budget: a tenth of the two other launches' estimated 10 s each.
  CHECK(limits == std::vector<double>{verify::kDefaultTimeoutSeconds, 2.0});
  Json report = o.json();
  REQUIRE(report["results"].size() == 4);
  for (const Json &r : report["results"]) {
    CHECK(r["verdict"] == "verified");
    CHECK(r["parametric"]["opened"] == "`argument 1` (its 3 captured values) and the bytes of `argument 0`");
    CHECK(r["parametric"]["launches"] == 4);
  }
  CHECK(report["results"][3]["same_as"] == 0);
  Outcome text = run(
      [&] {
        verify::VerifyOptions t = capture.options(verify::ReportFormat::Text);
        t.parametric = true;
        return t;
      }(),
      analyzer);
  CHECK_THAT(text.out, Catch::Contains(
                           "verified (for every value of `argument 1` (its 3 captured values) and the bytes "
                           "of `argument 0`: one proof for 4 launches)"));
}

TEST_CASE("parametric: launches whose global buffers differ in size are one group, the size opened with "
          "the bytes",
          "[parametric]") {
  Instantiation wide = launch("0x00000002", "kernels/k.cl", "data/f32.bin");
  std::get<format::ArrayArgument>((*wide.kernelArguments)[0]).size = 32;
  CaptureFolder capture({launch("0x00000001"), wide, launch("0x00000003")});
  std::vector<bool> sized;
  FakeAnalyzer analyzer([&](const pipeline::AnalysisRequest &r) {
    sized.push_back(std::get<format::ArrayArgument>((*r.instantiation->kernelArguments)[0]).size.has_value());
    return costing10s(verdict(Verdict::Verified));
  });
  Outcome o = runGrouped(capture, analyzer);
  CHECK(o.exitCode == verify::kExitVerified);
  REQUIRE(analyzer.calls() == 2);
  CHECK(sized == std::vector<bool>{true, false});
  for (const Json &r : o.json()["results"])
    CHECK(r["parametric"]["opened"] == "`argument 1` (its 3 captured values) and the size and bytes of "
                                       "`argument 0`");
}

TEST_CASE("parametric: a cached proof stands only for the values that bounded it", "[parametric]") {
  TempDir cache;
  std::size_t groupCalls = 0;
  FakeAnalyzer analyzer([&](const pipeline::AnalysisRequest &r) {
    if (!opened(r))
      return costing10s(verdict(Verdict::Verified));
    ++groupCalls;
    return verdict(Verdict::Verified);
  });
  analyzer.setIdentity("fake analysis 1");
  auto runOn = [&](const std::vector<std::string> &values) {
    std::vector<Instantiation> insts;
    for (const std::string &v : values)
      insts.push_back(launch(v));
    CaptureFolder capture(insts);
    verify::VerifyOptions options = capture.options();
    options.parametric = true;
    options.cacheDir = cache.path();
    CHECK(run(options, analyzer).exitCode == verify::kExitVerified);
  };
  runOn({"0x00000001", "0x00000002", "0x00000003"});
  CHECK(groupCalls == 1);
  runOn({"0x00000001", "0x00000002", "0x00000003"}); // the same values: the proof from the cache
  CHECK(groupCalls == 1);
  runOn({"0x00000001", "0x00000002", "0x00000000"}); // another value: proven again, never reused
  CHECK(groupCalls == 2);
}

TEST_CASE("parametric: a proof that fails falls back to each launch's own analysis and witness",
          "[parametric]") {
  CaptureFolder capture({launch("0x00000001"), launch("0x00000002"), launch("0x00000003")});
  // Races only for n = 2, so the open analysis finds a race (for some n) and each launch is analysed alone.
  FakeAnalyzer analyzer([](const pipeline::AnalysisRequest &r) {
    if (opened(r) || scalarOf(r) == 2) {
      InstantiationResult result = verdict(Verdict::Defects);
      result.findings = {raceAt(r.instantiation->kernelFile, 2)};
      return costing10s(result);
    }
    return costing10s(verdict(Verdict::Verified));
  });
  verify::VerifyOptions options = capture.options();
  options.parametric = true;
  Outcome o = run(options, analyzer);
  CHECK(o.exitCode == verify::kExitNotAllVerified);
  CHECK(analyzer.calls() == 4); // 0 alone, the group once, then 1 and 2 alone
  Json report = o.json();
  CHECK(report["results"][0]["verdict"] == "verified");
  CHECK(report["results"][1]["verdict"] == "defects");
  CHECK(report["results"][2]["verdict"] == "verified");
  for (const Json &r : report["results"])
    CHECK_FALSE(r.contains("parametric"));
}

TEST_CASE("parametric: an unknown or a benign finding is no proof, and --no-parametric analyses each alone",
          "[parametric]") {
  CaptureFolder capture({launch("0x00000001"), launch("0x00000002"), launch("0x00000003")});
  for (bool benign : {false, true}) {
    FakeAnalyzer analyzer([&](const pipeline::AnalysisRequest &r) {
      if (!opened(r))
        return costing10s(verdict(Verdict::Verified));
      if (!benign)
        return verdict(Verdict::Unknown, "bound reached");
      InstantiationResult result = verdict(Verdict::Verified);
      result.findings = {raceAt(r.instantiation->kernelFile, 2, /*benign=*/true)};
      return result;
    });
    verify::VerifyOptions options = capture.options();
    options.parametric = true;
    Outcome o = run(options, analyzer);
    CHECK(analyzer.calls() == 4);
    for (const Json &r : o.json()["results"]) {
      CHECK(r["verdict"] == "verified");
      CHECK_FALSE(r.contains("parametric"));
    }
  }
  FakeAnalyzer alone;
  run(capture.options(), alone);
  CHECK(alone.calls() == 3);
}

TEST_CASE("parametric: the group's attempt stops at its own budget, then the members are analysed alone",
          "[parametric]") {
  CaptureFolder capture({launch("0x00000001"), launch("0x00000002"), launch("0x00000003"),
                         launch("0x00000004"), launch("0x00000005")});
  std::vector<double> attemptLimits;
  FakeAnalyzer analyzer([&](const pipeline::AnalysisRequest &r) {
    if (!opened(r))
      return costing10s(verdict(Verdict::Verified));
    attemptLimits.push_back(r.options.timeoutSeconds);
    return verdict(Verdict::Unknown, "timed out after 3 queries", report::ErrorKind::Timeout); // at its limit
  });
  verify::VerifyOptions options = capture.options();
  options.parametric = true;
  options.timeoutSeconds = 12;
  Outcome o = run(options, analyzer);
  CHECK(o.exitCode == verify::kExitVerified);
  // A tenth of the four other members' 10 s each is 4 s; a quarter of --timeout (3 s) is less.
  CHECK(attemptLimits == std::vector<double>{3.0});
  CHECK(analyzer.calls() == 6); // the first alone, the attempt, the four others alone
  for (const Json &r : o.json()["results"]) {
    CHECK(r["verdict"] == "verified");
    CHECK_FALSE(r.contains("parametric"));
  }
  // An attempt whose budget would be under the minimum is not made at all.
  options.minGroupBudgetSeconds = 5;
  attemptLimits.clear();
  FakeAnalyzer cheap([&](const pipeline::AnalysisRequest &r) {
    if (opened(r))
      attemptLimits.push_back(r.options.timeoutSeconds);
    return costing10s(verdict(Verdict::Verified));
  });
  run(options, cheap);
  CHECK(attemptLimits.empty());
  CHECK(cheap.calls() == 5);
}

TEST_CASE(
    "run budget: a kernel whose launches run into the limit gives up, the report counts those cut short",
    "[budget]") {
  CaptureFolder capture({launch("0x00000001"), launch("0x00000002"), launch("0x00000003"),
                         launch("0x00000004"), launch("0x00000005")});
  auto timesOut = [](const pipeline::AnalysisRequest &) {
    return verdict(Verdict::Unknown, "timed out after 2 queries", report::ErrorKind::Timeout);
  };
  FakeAnalyzer analyzer(timesOut);
  verify::VerifyOptions options = capture.options();
  Outcome o = run(options, analyzer);
  CHECK(o.exitCode == verify::kExitTimeout);
  CHECK(analyzer.calls() == verify::kDefaultGiveUpAfter);
  Json report = o.json();
  CHECK(report["summary"]["unknown"] == 5);
  CHECK(report["summary"]["cut_short"] == 5 - verify::kDefaultGiveUpAfter);
  CHECK(report["results"][4]["reason"] ==
        "not analysed: 2 earlier launches of k (kernels/k.cl) ran into the 300 s "
        "limit (--give-up-after=0 analyses every launch)");
  Outcome text = run(capture.options(verify::ReportFormat::Text), analyzer);
  CHECK_THAT(text.out,
             Catch::Contains("0 verified, 0 defects, 5 unknown, 0 error (3 unknown cut short by the run's "
                             "time limits)"));
  options.giveUpAfter = 0;
  FakeAnalyzer every(timesOut);
  Json all = run(options, every).json();
  CHECK(every.calls() == 5);
  CHECK_FALSE(all["summary"].contains("cut_short"));
}

TEST_CASE("run budget: after --total-timeout no analysis starts", "[budget]") {
  CaptureFolder capture({launch("0x00000001"), launch("0x00000002")});
  FakeAnalyzer analyzer;
  verify::VerifyOptions options = capture.options();
  options.totalTimeoutSeconds = 1e-9; // over before the first analysis could start
  Outcome o = run(options, analyzer);
  CHECK(analyzer.calls() == 0);
  CHECK(o.exitCode == verify::kExitTimeout);
  Json report = o.json();
  CHECK(report["summary"]["cut_short"] == 2);
  CHECK(report["results"][0]["reason"] == "not analysed: the run's --total-timeout of 1e-09 s ran out first");
}

TEST_CASE("the JSON summary says where the time went, per kernel", "[budget]") {
  CaptureFolder capture({launch("0x00000001"), launch("0x00000002", "kernels/k-copy.cl")});
  FakeAnalyzer analyzer(
      [](const pipeline::AnalysisRequest &) { return costing10s(verdict(Verdict::Verified)); });
  Json report = run(capture.options(), analyzer).json();
  CHECK(report["summary"]["seconds_by_kernel"] ==
        Json{{"k (kernels/k-copy.cl)", 10.0}, {"k (kernels/k.cl)", 10.0}});
}

TEST_CASE("parametric: a first launch that runs out of time still lets the group be attempted, and the proof "
          "covers it too",
          "[parametric]") {
  CaptureFolder capture({launch("0x00000001"), launch("0x00000002"), launch("0x00000003")});
  // Concrete data makes each launch hard (its analysis runs out of time); the open values are easy.
  FakeAnalyzer analyzer([](const pipeline::AnalysisRequest &r) {
    if (opened(r))
      return verdict(Verdict::Verified);
    return costing10s(verdict(Verdict::Unknown, "timed out after 9 queries", report::ErrorKind::Timeout));
  });
  verify::VerifyOptions options = capture.options();
  options.parametric = true;
  options.timeoutSeconds = 10;
  Outcome o = run(options, analyzer);
  CHECK(o.exitCode == verify::kExitVerified);
  CHECK(analyzer.calls() == 2); // the first alone (out of time), then the group's proof
  for (const Json &r : o.json()["results"]) {
    CHECK(r["verdict"] == "verified");
    CHECK(r["parametric"]["launches"] == 3);
  }
  // A first launch with a finding: no proof can cover the group, so none is attempted.
  FakeAnalyzer racy([](const pipeline::AnalysisRequest &r) {
    if (opened(r))
      FAIL("no attempt expected");
    InstantiationResult result = costing10s(verdict(Verdict::Defects));
    result.findings = {raceAt(r.instantiation->kernelFile, 2)};
    return result;
  });
  options.giveUpAfter = 0;
  CHECK(run(options, racy).exitCode == verify::kExitNotAllVerified);
  CHECK(racy.calls() == 3);
}

TEST_CASE("parametric: with a thread idle, a group's other launch is analysed beside its first",
          "[parametric]") {
  // Two launches of one group and -j 2: the second is analysed alone while the first is, instead of waiting
  // for the group's attempt (TaskPool.h). Each concrete analysis waits until the other has started (at most
  // 10 s, so that a wrong schedule fails rather than hangs): no test of speed.
  CaptureFolder capture({launch("0x00000001"), launch("0x00000002")});
  std::mutex mutex;
  std::condition_variable started;
  int concrete = 0;
  std::vector<bool> sawTheOther;
  FakeAnalyzer analyzer([&](const pipeline::AnalysisRequest &r) {
    if (opened(r))
      return verdict(Verdict::Verified);
    std::unique_lock<std::mutex> lock(mutex);
    ++concrete;
    started.notify_all();
    sawTheOther.push_back(started.wait_for(lock, std::chrono::seconds(10), [&] { return concrete >= 2; }));
    return costing10s(verdict(Verdict::Verified));
  });
  Outcome o = runGrouped(capture, analyzer, 2);
  CHECK(o.exitCode == verify::kExitVerified);
  CHECK(sawTheOther == std::vector<bool>{true, true});
  for (const Json &r : o.json()["results"]) {
    CHECK(r["verdict"] == "verified");
    CHECK(r["parametric"]["launches"] == 2);
  }
}

TEST_CASE("isolated: each analysis in a child process, ended at its limit; a crash is one launch's error",
          "[isolate]") {
  CaptureFolder capture({launch("0x00000001"), launch("0x00000002"), launch("0x00000003")});
  FakeAnalyzer analyzer([](const pipeline::AnalysisRequest &r) {
    if (scalarOf(r) == 2)
      for (;;) // ignores its deadline, as one long solver query does: only the kill ends it
        std::this_thread::sleep_for(std::chrono::seconds(1));
    if (scalarOf(r) == 3)
      std::raise(SIGSEGV);
    InstantiationResult found = verdict(Verdict::Verified);
    found.findings.push_back(raceAt(r.instantiation->kernelFile, 3));
    found.peakMemoryBytes = 4096;
    return found;
  });
  auto options = capture.options();
  options.timeoutSeconds =
      10; // the hang ends only at it; the other two have time to spare however loaded the machine is
  options.jobs = 2;
  Outcome isolated = [&] {
    auto o = options;
    o.isolate = true;
    return run(o, analyzer);
  }();
  CHECK(analyzer.calls() == 0); // every call was in a child
  Json report = isolated.json();
  CHECK(report["results"][0]["verdict"] == "defects");
  CHECK(report["results"][1]["verdict"] == "unknown");
  CHECK(report["results"][1]["reason"].get<std::string>().find("still running at the 10 s limit") !=
        std::string::npos);
  CHECK(report["results"][2]["verdict"] == "error");
  CHECK(report["results"][2]["reason"].get<std::string>().find("crashed (signal 11") != std::string::npos);

  // The result that came back is the one the analysis gives in this process.
  auto inProcess = capture.options();
  inProcess.only = {0};
  Json alone = run(inProcess, analyzer).json();
  Json first = report["results"][0];
  first.erase("seconds");
  alone["results"][0].erase("seconds");
  CHECK(first == alone["results"][0]);
}

TEST_CASE(
    "parametric: a first launch left undecided without running out of time is not attempted as a group; "
    "one that ran out of time is",
    "[parametric]") {
  CaptureFolder capture({launch("0x00000001"), launch("0x00000002"), launch("0x00000003")});
  for (bool timedOut : {false, true}) {
    std::atomic<int> attempts{0};
    FakeAnalyzer analyzer([&](const pipeline::AnalysisRequest &r) {
      if (opened(r)) {
        ++attempts;
        return verdict(Verdict::Verified);
      }
      if (scalarOf(r) == 1)
        return costing10s(
            timedOut ? verdict(Verdict::Unknown, "timed out after 3 queries", report::ErrorKind::Timeout)
                     : verdict(Verdict::Unknown, "possible race depending on the trip count"));
      return costing10s(verdict(Verdict::Verified));
    });
    Json results = runGrouped(capture, analyzer).json()["results"];
    CHECK(attempts == (timedOut ? 1 : 0));
    CHECK(analyzer.calls() == (timedOut ? 2u : 3u)); // the proof covers the two launches not analysed
    CHECK(results[0]["verdict"] == (timedOut ? "verified" : "unknown"));
    CHECK(results[1]["verdict"] == "verified");
    CHECK(results[2]["verdict"] == "verified");
  }
}
