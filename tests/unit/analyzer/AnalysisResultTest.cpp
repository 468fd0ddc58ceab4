//===- AnalysisResultTest.cpp - Verdicts derived from findings ------------===//

#include "clcapture/report/AnalysisResult.h"

#include <catch2/catch.hpp>

using namespace clcapture::report;

namespace {

Finding race(bool benign, std::uint64_t line = 3) {
  Finding f;
  f.conflict = Conflict::WriteWrite;
  f.benign = benign;
  f.array = "a";
  f.index = {line};
  f.accesses[0].location = {"k.cl", line, 1};
  f.accesses[1].location = {"k.cl", line, 1};
  return f;
}

InstantiationResult withFindings(Verdict base, std::vector<Finding> findings) {
  InstantiationResult r;
  r.verdict = base;
  r.findings = std::move(findings);
  return r;
}

} // namespace

TEST_CASE("a real race makes the result defects", "[finalize]") {
  auto r = withFindings(Verdict::Verified, {race(false)});
  finalizeResult(r, false);
  CHECK(r.verdict == Verdict::Defects);
  CHECK(r.findings[0].severity == FindingSeverity::Error);
  CHECK(r.findings[0].message == "possible write-write race on a[3]");
}

TEST_CASE("a benign same-value race is a warning and keeps the result verified", "[finalize]") {
  auto r = withFindings(Verdict::Verified, {race(true)});
  finalizeResult(r, false);
  CHECK(r.verdict == Verdict::Verified);
  CHECK(r.findings.size() == 1);
  CHECK(r.findings[0].severity == FindingSeverity::Warning);
  CHECK_THAT(r.findings[0].message, Catch::StartsWith("possible benign write-write race on a[3]"));
}

TEST_CASE("strict mode makes a benign race an error and the result defects", "[finalize]") {
  auto r = withFindings(Verdict::Verified, {race(true)});
  finalizeResult(r, true);
  CHECK(r.verdict == Verdict::Defects);
  CHECK(r.findings[0].severity == FindingSeverity::Error);
  CHECK(countsAsDefect(race(true), true));
  CHECK_FALSE(countsAsDefect(race(true), false));
}

TEST_CASE("benign races next to an unknown stay unknown", "[finalize]") {
  auto r = withFindings(Verdict::Unknown, {race(true)});
  r.reason = "bound reached";
  finalizeResult(r, false);
  CHECK(r.verdict == Verdict::Unknown);
  CHECK(r.reason == "bound reached");
}

TEST_CASE("defects claimed with only benign races is verified, without any witness unknown", "[finalize]") {
  auto benignOnly = withFindings(Verdict::Defects, {race(true)});
  finalizeResult(benignOnly, false);
  CHECK(benignOnly.verdict == Verdict::Verified);
  auto none = withFindings(Verdict::Defects, {});
  finalizeResult(none, false);
  CHECK(none.verdict == Verdict::Unknown);
  CHECK_FALSE(none.reason.empty());
}

TEST_CASE("a timeout is unknown unless a witness was found", "[finalize]") {
  auto r = withFindings(Verdict::Error, {});
  r.errorKind = ErrorKind::Timeout;
  finalizeResult(r, false);
  CHECK(r.verdict == Verdict::Unknown);
  CHECK(r.reason == "timed out");
  auto found = withFindings(Verdict::Unknown, {race(false)});
  found.errorKind = ErrorKind::Timeout;
  finalizeResult(found, false);
  CHECK(found.verdict == Verdict::Defects);
  CHECK(found.errorKind == ErrorKind::Timeout);
}

TEST_CASE("errors: compile errors are error whatever the verdict, an error gets a kind and a reason",
          "[finalize]") {
  auto compile = withFindings(Verdict::Unknown, {});
  compile.errorKind = ErrorKind::Compile;
  compile.reason = "k.cl:1:1: error: x";
  finalizeResult(compile, false);
  CHECK(compile.verdict == Verdict::Error);
  auto plain = withFindings(Verdict::Error, {});
  finalizeResult(plain, false);
  CHECK(plain.errorKind == ErrorKind::Other);
  CHECK_FALSE(plain.reason.empty());
}

TEST_CASE("findings are sorted by location whatever order the analysis gave", "[finalize]") {
  auto r = withFindings(Verdict::Verified, {race(false, 9), race(true, 2), race(false, 5)});
  finalizeResult(r, false);
  CHECK(r.findings[0].accesses[0].location.line == 2);
  CHECK(r.findings[1].accesses[0].location.line == 5);
  CHECK(r.findings[2].accesses[0].location.line == 9);
}

TEST_CASE("divergence message and element names", "[finalize]") {
  Finding d;
  d.kind = FindingKind::BarrierDivergence;
  CHECK(defaultMessage(d) == "barrier may be reached by non-uniform control flow");
  Finding noName;
  CHECK(describeElement(noName) == "memory");
  Finding twoDims;
  twoDims.array = "img";
  twoDims.index = {2, 3};
  CHECK(describeElement(twoDims) == "img[2][3]");
}

TEST_CASE("summary counts verdicts", "[finalize]") {
  std::vector<InstantiationResult> rs(4);
  rs[0].verdict = Verdict::Verified;
  rs[1].verdict = Verdict::Defects;
  rs[2].verdict = Verdict::Defects;
  rs[3].verdict = Verdict::Error;
  Summary s = summarize(rs);
  CHECK(s.verified == 1);
  CHECK(s.defects == 2);
  CHECK(s.unknown == 0);
  CHECK(s.error == 1);
  CHECK(s.total() == 4);
}

TEST_CASE("display paths and folder URIs", "[report]") {
  ReportInfo info;
  info.capturesPath = "run/captures.json";
  CHECK(displayPath(info, "kernels/k.cl") == "run/kernels/k.cl");
  info.capturesPath = "captures.json";
  CHECK(displayPath(info, "kernels/k.cl") == "kernels/k.cl");
  info.capturesPath = "./a/../b/captures.json";
  CHECK(displayPath(info, "kernels/k.cl") == "b/kernels/k.cl");
  CHECK(folderUri("/tmp/my run") == "file:///tmp/my%20run/");
  CHECK(folderUri("/") == "file:///");
}
