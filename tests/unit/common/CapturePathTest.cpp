// Paths named by a capture must stay inside its folder.
#include "clcapture/format/CapturePath.h"

#include "TestSupport.h"

#include <catch2/catch.hpp>

using namespace clcapture::format;
using clcapture::test::TempDir;

TEST_CASE("paths: lexical rules", "[paths]") {
  CHECK_FALSE(lexicalPathProblem("kernels/k-1f2e.cl"));
  CHECK_FALSE(lexicalPathProblem("data/..hidden.bin")); // ".." only as a whole component
  CHECK(*lexicalPathProblem("/etc/passwd") ==
        "path \"/etc/passwd\" escapes the capture folder (absolute path)");
  CHECK(*lexicalPathProblem("../x.cl") == "path \"../x.cl\" escapes the capture folder (\"..\" component)");
  CHECK(lexicalPathProblem("data/../../x.bin"));
  CHECK(lexicalPathProblem("data\\..\\x.bin"));
  CHECK(lexicalPathProblem("C:/x.cl"));
  CHECK(*lexicalPathProblem("") == "path is empty");
}

TEST_CASE("paths: a link that resolves outside the folder is rejected", "[paths]") {
  TempDir outside, dir;
  clcapture::test::writeFile(outside / "secret.cl", "kernel void k() {}");
  std::filesystem::create_directories(dir / "kernels");
  std::filesystem::create_symlink(outside / "secret.cl", dir / "kernels/k.cl");
  auto problem = containedFileProblem(dir.path(), "kernels/k.cl");
  REQUIRE(problem);
  CHECK(problem->find("escapes the capture folder (it resolves to ") != std::string::npos);
}

TEST_CASE("paths: existing files inside the folder pass, missing ones are named", "[paths]") {
  TempDir dir;
  clcapture::test::writeFile(dir / "kernels/k.cl", "kernel void k() {}");
  CHECK_FALSE(containedFileProblem(dir.path(), "kernels/k.cl"));
  auto missing = containedFileProblem(dir.path(), "kernels/nope.cl");
  REQUIRE(missing);
  CHECK(missing->rfind("file \"kernels/nope.cl\" does not exist in ", 0) == 0);
}
