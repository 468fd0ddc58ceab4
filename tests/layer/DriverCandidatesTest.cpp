// Where the capture library looks for the real driver (docs/contract.md §1: CLCAPTURE_ICD, else the vendors
// folder).
#include "TestSupport.h"
#include "dispatch/DriverSet.h"

#include <catch2/catch.hpp>

using clcapture::layer::driverCandidates;
using clcapture::test::TempDir;
using clcapture::test::writeFile;

TEST_CASE("driver candidates: the vendors folder, .icd files in name order", "[layer][drivers]") {
  TempDir dir;
  writeFile(dir / "b.icd", "libB.so\n");
  writeFile(dir / "a.icd", "  /opt/libA.so  \n");
  writeFile(dir / "notes.txt", "libC.so\n");
  std::vector<std::string> problems;
  CHECK(driverCandidates(nullptr, dir.path().string(), problems) ==
        std::vector<std::string>{"/opt/libA.so", "libB.so"});
  CHECK(problems.empty());
}

TEST_CASE("driver candidates: CLCAPTURE_ICD as a library, an .icd file or a folder", "[layer][drivers]") {
  TempDir dir;
  writeFile(dir / "x.icd", "libX.so\n");
  std::vector<std::string> problems;
  CHECK(driverCandidates("/usr/lib/libY.so", "/nonexistent", problems) ==
        std::vector<std::string>{"/usr/lib/libY.so"});
  CHECK(driverCandidates((dir / "x.icd").c_str(), "/nonexistent", problems) ==
        std::vector<std::string>{"libX.so"});
  CHECK(driverCandidates(dir.path().c_str(), "/nonexistent", problems) ==
        std::vector<std::string>{"libX.so"});
  CHECK(problems.empty());
}

TEST_CASE("driver candidates: empty .icd files and empty folders are reported", "[layer][drivers]") {
  TempDir dir;
  writeFile(dir / "empty.icd", "\n");
  std::vector<std::string> problems;
  CHECK(driverCandidates(nullptr, dir.path().string(), problems).empty());
  REQUIRE(problems.size() == 2);
  CHECK(problems[0] == (dir / "empty.icd").string() + " names no library");
  CHECK(problems[1] == "no driver found in " + dir.path().string() + " (set CLCAPTURE_ICD)");
}
