// The reader on valid input: the hand-written sample capture, lenient mode, file checks.
#include "ErrorMessages.h"
#include "TestSupport.h"
#include "clcapture/format/CaptureReader.h"

#include <catch2/catch.hpp>

using namespace clcapture::format;
using clcapture::test::TempDir;
using clcapture::test::writeFile;

namespace {
const std::filesystem::path kHandwritten =
    std::filesystem::path(CLCAPTURE_TEST_DATA_DIR) / "captures/handwritten";

std::string errorsOf(const CaptureSet &set) {
  return clcapture::test::errorText(set.diagnostics);
}
} // namespace

TEST_CASE("reader: the hand-written sample loads with every field typed", "[reader]") {
  CaptureSet set = readCapturesFile(kHandwritten / "captures.json");
  INFO(set.diagnosticsText());
  REQUIRE_FALSE(set.hasErrors());
  REQUIRE(set.instantiations.size() == 3);
  const Instantiation &a = set.instantiations[0];
  CHECK(a.endianness == Endianness::Little);
  CHECK(a.kernelFile == "kernels/scale.cl");
  CHECK(a.localSize == Dims{16, 1});
  CHECK(a.globalSize == Dims{16, 4});
  CHECK_FALSE(a.globalOffset); // [0, 2]: the sidecar's (GPUVerify's loader rejects a 0 in captures.json)
  CHECK(a.compilerFlags == "-cl-std=CL1.2 -DSCALE=1");
  CHECK(a.entryPoint == "scale");
  REQUIRE(a.kernelArguments);
  REQUIRE(a.kernelArguments->size() == 7);
  const auto &in = std::get<ArrayArgument>((*a.kernelArguments)[1]);
  CHECK(in.size == 256u);
  CHECK(in.addressSpace == AddressSpace::Global);
  CHECK(in.flags == std::vector<std::string>{"CL_MEM_READ_ONLY", "CL_MEM_COPY_HOST_PTR"});
  CHECK(in.data == "data/in16x4.bin");
  CHECK(std::get<ScalarArgument>((*a.kernelArguments)[3]).value == "0x0000000400000002");
  CHECK(std::holds_alternative<ImageArgument>((*a.kernelArguments)[5]));
  CHECK(std::holds_alternative<SamplerArgument>((*a.kernelArguments)[6]));
  REQUIRE(a.hostApiCalls);
  CHECK(a.hostApiCalls->at(2) == HostApiCall{"clEnqueueNDRangeKernel", "scale_host.c", 58});

  const Instantiation &b = set.instantiations[1];
  CHECK_FALSE(b.localSize); // NULL local size
  CHECK_FALSE(b.globalOffset);
  CHECK_FALSE(b.endianness);
  CHECK_FALSE(std::get<ArrayArgument>((*b.kernelArguments)[1]).size); // unconstrained
}

TEST_CASE("reader: unknown keys are warnings in lenient mode", "[reader]") {
  ReadOptions options;
  options.strict = false;
  options.checkFiles = false;
  CaptureSet set = parseCaptures(R"([{"language": "OpenCL", "kernel_file": "k.cl", "global_size": [4],
                                      "entry_point": "k", "vendor_note": "x"}])",
                                 "captures.json", options);
  CHECK_FALSE(set.hasErrors());
  REQUIRE(set.instantiations.size() == 1);
  REQUIRE(set.diagnostics.size() == 1);
  CHECK(set.diagnostics[0].str() == "captures.json: warning: instantiation 0: vendor_note: unknown key "
                                    "\"vendor_note\" in a kernel instantiation; ignored");
}

TEST_CASE("reader: non-uniform work-groups only when allowed", "[reader]") {
  const char *text =
      R"([{"language": "OpenCL", "kernel_file": "k.cl", "global_size": [100], "local_size": [64],
                          "entry_point": "k"}])";
  ReadOptions options;
  options.checkFiles = false;
  CHECK(parseCaptures(text, "c.json", options).hasErrors());
  options.allowNonUniformWorkGroups = true;
  CHECK_FALSE(parseCaptures(text, "c.json", options).hasErrors());
}

TEST_CASE("reader: valid records survive an invalid neighbour", "[reader]") {
  ReadOptions options;
  options.checkFiles = false;
  CaptureSet set = parseCaptures(R"([
    {"language": "OpenCL", "kernel_file": "a.cl", "global_size": [4], "entry_point": "a"},
    {"language": "OpenCL", "kernel_file": "b.cl", "global_size": [0], "entry_point": "b"},
    {"language": "OpenCL", "kernel_file": "c.cl", "global_size": [8], "entry_point": "c"}])",
                                 "captures.json", options);
  CHECK(set.hasErrors());
  CHECK(set.recordCount == 3);
  REQUIRE(set.instantiations.size() == 2);
  CHECK(set.indices == std::vector<std::size_t>{0, 2});
  CHECK(set.instantiations[1].entryPoint == "c");
}

TEST_CASE("reader: a missing kernel file is named", "[reader][files]") {
  TempDir dir;
  writeFile(
      dir / "captures.json",
      R"([{"language": "OpenCL", "kernel_file": "kernels/gone.cl", "global_size": [4], "entry_point": "k"}])");
  CaptureSet set = readCapturesFile(dir / "captures.json");
  REQUIRE(set.hasErrors());
  CHECK(errorsOf(set) == (dir / "captures.json").string() +
                             ": instantiation 0: kernel_file: file "
                             "\"kernels/gone.cl\" does not exist in " +
                             dir.path().string() + "\n");
}

TEST_CASE("reader: a data file whose length differs from size", "[reader][files]") {
  TempDir dir;
  writeFile(dir / "kernels/k.cl", "kernel void k(global int *a) {}");
  writeFile(dir / "data/a.bin", std::string(12, 'x'));
  writeFile(dir / "captures.json",
            R"([{"language": "OpenCL", "kernel_file": "kernels/k.cl", "global_size": [4],
      "entry_point": "k", "kernel_arguments": [{"type": "array", "size": 16, "data": "data/a.bin"}]}])");
  CaptureSet set = readCapturesFile(dir / "captures.json");
  CHECK(errorsOf(set) ==
        (dir / "captures.json").string() +
            ": instantiation 0: kernel_arguments[0].data: file \"data/a.bin\" holds 12 bytes but "
            "size is 16\n");
}

TEST_CASE("reader: a kernel file linked from outside the folder", "[reader][files]") {
  TempDir outside, dir;
  writeFile(outside / "k.cl", "kernel void k() {}");
  std::filesystem::create_directories(dir / "kernels");
  std::filesystem::create_symlink(outside / "k.cl", dir / "kernels/k.cl");
  writeFile(
      dir / "captures.json",
      R"([{"language": "OpenCL", "kernel_file": "kernels/k.cl", "global_size": [4], "entry_point": "k"}])");
  CaptureSet set = readCapturesFile(dir / "captures.json");
  REQUIRE(set.hasErrors());
  CHECK(errorsOf(set).find("kernel_file: path \"kernels/k.cl\" escapes the capture folder (it resolves to") !=
        std::string::npos);
}

TEST_CASE("reader: a file that does not exist", "[reader][files]") {
  CaptureSet set = readCapturesFile("/nonexistent/captures.json");
  CHECK(errorsOf(set) == "/nonexistent/captures.json: file does not exist\n");
}

TEST_CASE("reader: a file cut mid-record keeps the records before the cut", "[reader][recovery]") {
  ReadOptions options;
  options.checkFiles = false;
  std::string text = R"([
  {"language": "OpenCL", "kernel_file": "a.cl", "global_size": [4], "entry_point": "a"},
  {"language": "OpenCL", "kernel_file": "b.cl", "global_size": [4], "entry_point": "b"},
  {"language": "OpenCL", "kernel_file": "c.cl", "glob)";
  CaptureSet set = parseCaptures(text, "captures.json", options);
  INFO(set.diagnosticsText());
  CHECK_FALSE(set.hasErrors());
  CHECK(set.truncated);
  REQUIRE(set.instantiations.size() == 2);
  CHECK(set.instantiations[1].entryPoint == "b");
  CHECK(set.diagnostics.at(0).str() ==
        "captures.json: warning: file ends mid-record (the application was killed "
        "while writing); recovered the 2 complete records before byte " +
            std::to_string(text.size()));
  options.recoverTruncated = false;
  CHECK(parseCaptures(text, "captures.json", options).hasErrors());
}

TEST_CASE("reader: an empty file is an empty capture after a crash, an error otherwise",
          "[reader][recovery]") {
  ReadOptions options;
  CaptureSet set = parseCaptures("", "captures.json", options);
  CHECK_FALSE(set.hasErrors());
  CHECK(set.truncated);
  CHECK(set.instantiations.empty());
  options.recoverTruncated = false;
  CHECK(parseCaptures("", "captures.json", options).hasErrors());
}

TEST_CASE("reader: the hand-written capture folder with its sidecar", "[reader][sidecar]") {
  Capture c = loadCapture(kHandwritten / "captures.json");
  std::string all;
  for (const auto &d : c.diagnostics)
    all += d.str() + "\n";
  INFO(all);
  REQUIRE_FALSE(c.hasErrors());
  CHECK(c.diagnostics.empty());
  REQUIRE(c.sidecar);
  CHECK(c.sidecar->launches.size() == 4);
  REQUIRE(c.factsFor(0));
  CHECK(c.factsFor(0)->launch == 0);
  CHECK(c.factsFor(0)->arguments.at(3).typeName == "pair_t");
  CHECK(c.captures.instantiations.at(0).globalOffset == Dims{0, 2}); // put back from the sidecar
  REQUIRE(c.factsFor(1));
  CHECK(c.factsFor(1)->launch == 2); // launch 1 was not verifiable (IL) and has no instantiation
  CHECK(c.sidecar->launches[1].notCapturedReason ==
        "program built from IL (clCreateProgramWithIL) has no source");
  CHECK(c.factsFor(2)->arguments.at(0).dataSkipped == "metadata-only mode (CLCAPTURE_DATA=none)");
}
