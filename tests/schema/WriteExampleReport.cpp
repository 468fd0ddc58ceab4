//===- WriteExampleReport.cpp - The JSON report writer's output, for the schema checks -===//
//
// usage: write_example_report OUTDIR — writes OUTDIR/report.json and OUTDIR/report-strict.json from the
// synthetic results of the golden tests (one result of every kind), so the schema checks validate what
// clcapture-verify's JSON writer really emits.

#include "SyntheticResults.h"
#include "clcapture/format/BlobStore.h"
#include "clcapture/report/JsonReport.h"

#include <cstdio>
#include <filesystem>

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: write_example_report OUTDIR\n");
    return 2;
  }
  namespace fs = std::filesystem;
  using namespace clcapture;
  fs::path out = argv[1];
  std::error_code ec;
  fs::create_directories(out, ec);
  for (bool strict : {false, true}) {
    std::string text = report::jsonReport(test::syntheticResults(strict), test::syntheticInfo(strict));
    fs::path file = out / (strict ? "report-strict.json" : "report.json");
    auto written = format::writeFileAtomically(file, text.data(), text.size());
    if (!written) {
      std::fprintf(stderr, "write_example_report: %s\n", written.error().c_str());
      return 1;
    }
  }
  return 0;
}
