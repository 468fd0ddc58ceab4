//===- ReportGoldenTest.cpp - Text, JSON and SARIF reports, byte for byte -===//
//
// The synthetic results (SyntheticResults.h) rendered by each writer must equal the files under
// tests/data/reports/golden/. After an intended change, regenerate them with
//   CLCAPTURE_UPDATE_GOLDEN=1 build/tests/unit/analyzer/report_tests
// and review the diff.

#include "SyntheticResults.h"
#include "TestSupport.h"
#include "clcapture/report/JsonReport.h"
#include "clcapture/report/SarifReport.h"
#include "clcapture/report/TextReport.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <nlohmann/json.hpp>

using namespace clcapture;

namespace {

const std::filesystem::path kGolden = std::filesystem::path(CLCAPTURE_TEST_DATA_DIR) / "reports" / "golden";

void checkGolden(const std::string &name, const std::string &actual) {
  std::filesystem::path path = kGolden / name;
  const char *update = std::getenv("CLCAPTURE_UPDATE_GOLDEN");
  if (update && std::string(update) == "1")
    test::writeFile(path, actual);
  INFO("golden file " << path.string() << " (regenerate with CLCAPTURE_UPDATE_GOLDEN=1)");
  REQUIRE(std::filesystem::exists(path));
  CHECK(test::readFile(path) == actual);
}

} // namespace

TEST_CASE("text report matches the golden file", "[report]") {
  checkGolden("synthetic.txt", report::textReport(test::syntheticResults(false), test::syntheticInfo(false)));
}

TEST_CASE("text report under --strict matches the golden file", "[report]") {
  checkGolden("synthetic-strict.txt",
              report::textReport(test::syntheticResults(true), test::syntheticInfo(true)));
}

TEST_CASE("JSON report matches the golden file", "[report]") {
  checkGolden("synthetic.json",
              report::jsonReport(test::syntheticResults(false), test::syntheticInfo(false)));
}

TEST_CASE("JSON report under --strict matches the golden file", "[report]") {
  checkGolden("synthetic-strict.json",
              report::jsonReport(test::syntheticResults(true), test::syntheticInfo(true)));
}

TEST_CASE("SARIF report matches the golden file", "[report]") {
  checkGolden("synthetic.sarif",
              report::sarifReport(test::syntheticResults(false), test::syntheticInfo(false)));
}

TEST_CASE("reports are byte-stable: rendering twice gives the same bytes", "[report]") {
  auto info = test::syntheticInfo(false);
  CHECK(report::textReport(test::syntheticResults(false), info) ==
        report::textReport(test::syntheticResults(false), info));
  CHECK(report::jsonReport(test::syntheticResults(false), info) ==
        report::jsonReport(test::syntheticResults(false), info));
  CHECK(report::sarifReport(test::syntheticResults(false), info) ==
        report::sarifReport(test::syntheticResults(false), info));
}

TEST_CASE("text report: GPUVerify-style race lines and a summary", "[report]") {
  std::string text = report::textReport(test::syntheticResults(false), test::syntheticInfo(false));
  CHECK_THAT(text, Catch::Contains("run/kernels/k-1f2e.cl:13:5: error: possible write-write race on tmp[7] "
                                   "(local memory, bytes 28..31):\n"
                                   "  write by work-item global (7, 0, 0) local (7, 0, 0) group (0, 0, 0), "
                                   "run/kernels/k-1f2e.cl:13:5: tmp[7] = 0;\n"
                                   "  write by work-item global (3, 0, 0) local (3, 0, 0) group (0, 0, 0), "
                                   "run/kernels/k-1f2e.cl:15:5: tmp[l + 4] = 1;\n"));
  CHECK_THAT(text, Catch::Contains("instantiation 6: k in run/kernels/k-copy.cl: defects (same as #1)\n"));
  CHECK_THAT(text, Catch::Contains("run/kernels/fill-77.cl:4:13: warning: possible benign write-write race"));
  // A witness that chose values the capture leaves open names them at the end of its message.
  CHECK_THAT(text, Catch::Contains(
                       "run/kernels/strided-5d.cl:3:19: error: possible write-write race on a[0] with "
                       "stride = 0, bias = -1 and local size (16, 1, 1) (global memory, bytes 0..3):\n"));
  CHECK_THAT(text, Catch::EndsWith("clcapture-verify: 9 instantiations: 2 verified, 5 defects, 1 unknown, "
                                   "1 error\n"));
}

TEST_CASE("SARIF: findings carry both locations, unknown and error are notes", "[report]") {
  auto log = report::sarifReportValue(test::syntheticResults(false), test::syntheticInfo(false));
  const auto &run = log["runs"][0];
  CHECK(log["version"] == "2.1.0");
  CHECK(run["originalUriBaseIds"]["CAPTURES"]["uri"] == "file:///captures/run/");
  const auto &results = run["results"];
  // 2 races of #1, the benign race, the divergence, unknown, error, 2 races of the copy #6, the race of #7,
  // the two out-of-bounds accesses and the null dereference of #8.
  REQUIRE(results.size() == 12);
  const auto &race = results[0];
  CHECK(race["ruleId"] == "data-race");
  CHECK(race["level"] == "error");
  CHECK(race["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "kernels/k-1f2e.cl");
  CHECK(race["locations"][0]["physicalLocation"]["region"]["startLine"] == 13);
  CHECK(race["relatedLocations"].size() == 2);
  CHECK(race["relatedLocations"][1]["physicalLocation"]["region"]["startLine"] == 15);
  CHECK(results[2]["level"] == "warning"); // benign
  CHECK(results[3]["ruleId"] == "barrier-divergence");
  CHECK(results[4]["ruleId"] == "unknown");
  CHECK(results[4]["level"] == "note");
  CHECK(results[5]["ruleId"] == "analysis-error");
  CHECK(results[5]["properties"]["error_kind"] == "compile");
  CHECK(results[6]["properties"]["same_as"] == 1);
  CHECK(results[8]["properties"]["values"] == nlohmann::ordered_json{{"stride", "0"}, {"bias", "-1"}});
  CHECK(results[8]["properties"]["local_size"] == nlohmann::ordered_json::array({16, 1, 1}));
  CHECK(results[8]["message"]["text"] ==
        "possible write-write race on a[0] with stride = 0, bias = -1 and local size (16, 1, 1)");
  // Memory safety: rules of their own, one work-item, the buffer's size and the offset.
  CHECK(results[9]["ruleId"] == "out-of-bounds");
  CHECK(run["tool"]["driver"]["rules"][results[9]["ruleIndex"].get<std::size_t>()]["id"] == "out-of-bounds");
  CHECK(results[9]["relatedLocations"].size() == 1);
  CHECK(results[9]["properties"]["object_bytes"] == 4000);
  CHECK(results[9]["properties"]["offset"] == 4000);
  CHECK(results[9]["properties"]["work_items"].size() == 1);
  CHECK(results[10]["properties"]["offset"] == -4);
  CHECK(results[11]["ruleId"] == "null-dereference");
  CHECK(run["tool"]["driver"]["rules"][results[11]["ruleIndex"].get<std::size_t>()]["id"] ==
        "null-dereference");
  CHECK(results[11]["properties"].contains("object_bytes") == false);
}

TEST_CASE("JSON report: summary and same_as", "[report]") {
  auto j = report::jsonReportValue(test::syntheticResults(false), test::syntheticInfo(false));
  CHECK(j["summary"]["seconds_by_kernel"]["k (kernels/k-1f2e.cl)"] == 0.1234);
  j["summary"].erase("seconds_by_kernel");
  CHECK(j["summary"] ==
        nlohmann::ordered_json{{"verified", 2}, {"defects", 5}, {"unknown", 1}, {"error", 1}});
  CHECK(j["results"][6]["same_as"] == 1);
  const auto &open = j["results"][7]["findings"][0];
  CHECK(open["values"] == nlohmann::ordered_json{{"stride", "0"}, {"bias", "-1"}});
  CHECK(open["local_size"] == nlohmann::ordered_json::array({16, 1, 1}));
  CHECK(j["results"][1]["findings"][0].contains("values") == false);
  CHECK(j["results"][1]["findings"][0].contains("local_size") == false);
  CHECK(j["results"][0].contains("same_as") == false);
  const auto &unsafe = j["results"][8];
  CHECK(unsafe["bounds_not_checked"] == nlohmann::ordered_json::array({"scratch"}));
  CHECK(j["results"][0].contains("bounds_not_checked") == false);
  CHECK(unsafe["findings"][0]["kind"] == "out-of-bounds");
  CHECK(unsafe["findings"][0]["message"] == "out-of-bounds write on out[1000]");
  CHECK(unsafe["findings"][0]["accesses"].size() == 1);
  CHECK(unsafe["findings"][1]["message"] == "out-of-bounds read on tmp[-1]");
  CHECK(unsafe["findings"][2]["kind"] == "null-dereference");
  CHECK(unsafe["findings"][2]["message"] == "write through a null pointer with mode = 2");
  CHECK(j.contains("strict") == false);
  auto strict = report::jsonReportValue(test::syntheticResults(true), test::syntheticInfo(true));
  CHECK(strict["strict"] == true);
  CHECK(strict["results"][2]["verdict"] == "defects");
  CHECK(strict["results"][2]["findings"][0]["severity"] == "error");
}

TEST_CASE("reports say what verified covers: JSON always, text when not the default", "[report]") {
  auto info = test::syntheticInfo(false);
  auto results = test::syntheticResults(false);
  CHECK(report::jsonReportValue(results, info)["checks"] ==
        nlohmann::ordered_json::array({"races", "divergence", "bounds"}));
  CHECK(report::textReport(results, info).find("(checked:") == std::string::npos);
  info.checks = {"races", "divergence"};
  CHECK(report::jsonReportValue(results, info)["checks"] ==
        nlohmann::ordered_json::array({"races", "divergence"}));
  CHECK_THAT(report::textReport(results, info), Catch::EndsWith("1 error (checked: races,divergence)\n"));
}
