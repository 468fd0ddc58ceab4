// captures.json in the form GPUVerify's own loader accepts; the exact values in the sidecar and back.
#include "clcapture/format/GpuVerifyForm.h"

#include "ErrorMessages.h"
#include "TestSupport.h"
#include "clcapture/format/CaptureReader.h"
#include "clcapture/format/CaptureRecorder.h"
#include "clcapture/format/CaptureWriter.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace clcapture::format;
using clcapture::test::errorMessages;
using clcapture::test::TempDir;
using Json = nlohmann::json;

namespace {

constexpr std::uint64_t kBeyondPython2Int = kGpuVerifyMaxNumber + 1;

Instantiation launchOf(Dims global) {
  Instantiation inst;
  inst.endianness = Endianness::Little;
  inst.kernelFile = "kernels/k.cl";
  inst.globalSize = std::move(global);
  inst.entryPoint = "k";
  return inst;
}

LaunchFacts factsOf(std::uint64_t launch) {
  LaunchFacts f;
  f.launch = launch;
  f.enqueueFunction = "clEnqueueNDRangeKernel";
  f.kernelName = "k";
  f.device = {"cpu", "PoCL", "OpenCL 3.0", "3.1", 64, Endianness::Little, false};
  return f;
}

/// A capture folder written by the recorder, one launch per instantiation.
struct RecordedCapture {
  TempDir dir;
  Json captures; ///< captures.json as written
  Json meta;     ///< captures.meta.json as written
  Capture loaded;
};

void record(RecordedCapture &out, const std::vector<Instantiation> &insts) {
  SidecarHeader header;
  header.clcaptureVersion = CLCAPTURE_VERSION;
  header.process = {"/usr/bin/app", 1, "2026-11-22T00:00:00Z"};
  auto rec = CaptureRecorder::create(out.dir.path(), header);
  REQUIRE(rec);
  auto kernel = (*rec)->putKernelSource("k", "kernel void k(global int *a, global int *b) {}");
  REQUIRE(kernel);
  for (std::size_t i = 0; i < insts.size(); ++i) {
    Instantiation inst = insts[i];
    inst.kernelFile = *kernel;
    auto index = (*rec)->append(inst, factsOf(i));
    INFO((index ? std::string() : index.error()));
    REQUIRE(index);
  }
  out.captures = Json::parse(clcapture::test::readFile(out.dir / "captures.json"));
  out.meta = Json::parse(clcapture::test::readFile(out.dir / "captures.meta.json"));
  out.loaded = loadCapture(out.dir / "captures.json");
  std::string all;
  for (const auto &d : out.loaded.diagnostics)
    all += d.str() + "\n";
  INFO(all);
  REQUIRE_FALSE(out.loaded.hasErrors());
  REQUIRE(out.loaded.captures.instantiations.size() == insts.size());
}

} // namespace

TEST_CASE("gpuverify form: an offset of [0, 2] is not in captures.json, the sidecar has it, the reader "
          "gives it back",
          "[gpuverify][writer][reader]") {
  Instantiation inst = launchOf(Dims{16, 4});
  inst.localSize = Dims{16, 1};
  inst.globalOffset = Dims{0, 2};
  // The writer alone: no global_offset key at all.
  std::string text = serializeCaptures({inst});
  CHECK(text.find("global_offset") == std::string::npos);
  CHECK(Json::parse(text)[0] == Json{{"language", "OpenCL"},
                                     {"endianness", "little"},
                                     {"kernel_file", "kernels/k.cl"},
                                     {"local_size", {16, 1}},
                                     {"global_size", {16, 4}},
                                     {"entry_point", "k"}});
  CHECK_FALSE(gpuverifyForm(inst).globalOffset);
  LaunchFacts facts = factsOf(0);
  keepExactFacts(inst, facts);
  CHECK(facts.globalOffset == Dims{0, 2});
  CHECK(Json(toJson(facts))["global_offset"] == Json::array({0, 2}));

  // Through the recorder and back through the reader.
  RecordedCapture c;
  record(c, {inst});
  CHECK_FALSE(c.captures[0].contains("global_offset"));
  CHECK(c.meta["launches"][0]["global_offset"] == Json::array({0, 2}));
  CHECK(c.loaded.captures.instantiations[0].globalOffset == Dims{0, 2});
  // captures.json alone (as GPUVerify sees it): no offset.
  CHECK_FALSE(readCapturesFile(c.dir / "captures.json").instantiations.at(0).globalOffset);
}

TEST_CASE("gpuverify form: an offset > 0 everywhere stays, and the sidecar still has it exactly",
          "[gpuverify][writer][reader]") {
  Instantiation inst = launchOf(Dims{64});
  inst.globalOffset = Dims{16};
  Instantiation zeros = launchOf(Dims{64});
  zeros.globalOffset = Dims{0};
  RecordedCapture c;
  record(c, {inst, zeros, launchOf(Dims{64})});
  CHECK(c.captures[0]["global_offset"] == Json::array({16}));
  CHECK(c.meta["launches"][0]["global_offset"] == Json::array({16}));
  CHECK_FALSE(c.captures[1].contains("global_offset"));
  CHECK(c.meta["launches"][1]["global_offset"] == Json::array({0}));
  CHECK_FALSE(c.meta["launches"][2].contains("global_offset")); // NULL offset
  CHECK(c.loaded.captures.instantiations[0].globalOffset == Dims{16});
  CHECK(c.loaded.captures.instantiations[1].globalOffset == Dims{0});
  CHECK_FALSE(c.loaded.captures.instantiations[2].globalOffset);
}

TEST_CASE("gpuverify form: a local size that does not divide the global size is the sidecar's",
          "[gpuverify][writer][reader]") {
  // OpenCL 2.0 non-uniform work-groups: 80 work-items in groups of 32. The recorder takes it whatever the
  // build options say (the driver ran it); GPUVerify's loader would reject the file.
  Instantiation inst = launchOf(Dims{80, 4});
  inst.localSize = Dims{32, 4};
  inst.compilerFlags = "-cl-std=CL2.0";
  RecordedCapture c;
  record(c, {inst});
  CHECK_FALSE(c.captures[0].contains("local_size"));
  CHECK(c.meta["launches"][0]["local_size"] == Json::array({32, 4}));
  CHECK(c.loaded.captures.instantiations[0].localSize == Dims{32, 4});

  Instantiation uniform = launchOf(Dims{64});
  uniform.localSize = Dims{16};
  LaunchFacts facts = factsOf(0);
  keepExactFacts(uniform, facts);
  CHECK_FALSE(facts.localSize); // captures.json has it
}

TEST_CASE("gpuverify form: a 0-byte array has no size in captures.json, the sidecar's size is 0",
          "[gpuverify][writer][reader]") {
  Instantiation inst = launchOf(Dims{64});
  inst.kernelArguments =
      std::vector<KernelArgument>{ArrayArgument{64, AddressSpace::Global, std::nullopt, std::nullopt},
                                  ArrayArgument{0, AddressSpace::Global, std::nullopt, std::nullopt}};
  RecordedCapture c;
  record(c, {inst});
  CHECK(c.captures[0]["kernel_arguments"][0]["size"] == 64);
  CHECK_FALSE(c.captures[0]["kernel_arguments"][1].contains("size"));
  // factsOf() gave no argument facts: the missing ones are added so that arguments[i] is argument i.
  REQUIRE(c.meta["launches"][0]["arguments"].size() == 2);
  CHECK(c.meta["launches"][0]["arguments"][0] == Json{{"index", 0}, {"kind", "unknown"}});
  CHECK(c.meta["launches"][0]["arguments"][1] == Json{{"index", 1}, {"kind", "unknown"}, {"size", 0}});
  const Instantiation &back = c.loaded.captures.instantiations[0];
  CHECK(std::get<ArrayArgument>(back.kernelArguments->at(1)).size == 0u);
  CHECK(std::get<ArrayArgument>(back.kernelArguments->at(0)).size == 64u);
}

TEST_CASE("gpuverify form: numbers beyond Python 2's int are left out or refused", "[gpuverify][writer]") {
  Instantiation inst = launchOf(Dims{64});
  inst.globalOffset = Dims{kBeyondPython2Int};
  inst.kernelArguments = std::vector<KernelArgument>{
      ArrayArgument{kBeyondPython2Int, AddressSpace::Global, std::nullopt, std::nullopt}};
  inst.hostApiCalls = std::vector<HostApiCall>{{"clEnqueueNDRangeKernel", "host.c", kBeyondPython2Int}};
  Instantiation form = gpuverifyForm(inst);
  CHECK_FALSE(form.globalOffset);
  CHECK_FALSE(std::get<ArrayArgument>(form.kernelArguments->at(0)).size);
  CHECK_FALSE(form.hostApiCalls);
  CHECK_FALSE(gpuverifyFormProblem(inst));

  // global_size is required: no form exists, and the recorder refuses (the engine lists it as not captured).
  Instantiation huge = launchOf(Dims{kBeyondPython2Int});
  CHECK(gpuverifyFormProblem(huge) ==
        "global_size[0] is 9223372036854775808, more than GPUVerify's loader reads (9223372036854775807)");
  TempDir dir;
  Status s = writeCapturesFile(dir / "captures.json", {huge});
  REQUIRE_FALSE(s);
  CHECK(s.error().find("global_size: global_size[0] is 9223372036854775808") != std::string::npos);
}

TEST_CASE("gpuverify form: scalars start with lower-case 0x and readers also take 0X and offsets with a 0",
          "[gpuverify][writer][reader]") {
  Instantiation inst = launchOf(Dims{64});
  inst.kernelArguments = std::vector<KernelArgument>{ScalarArgument{std::string("0X00ab")},
                                                     ScalarArgument{std::string("0x40490FDB")}};
  Json j = toJson(inst);
  CHECK(j["kernel_arguments"][0]["value"] == "0x00AB");
  CHECK(j["kernel_arguments"][1]["value"] == "0x40490FDB");
  ReadOptions options;
  options.checkFiles = false;
  CaptureSet set = parseCaptures(R"([{"language": "OpenCL", "kernel_file": "k.cl", "global_size": [4, 4],
      "global_offset": [0, 2], "entry_point": "k", "kernel_arguments": [{"type": "scalar", "value": "0XAB"},
      {"type": "scalar", "value": "0xab"}]}])",
                                 "c.json", options);
  INFO(set.diagnosticsText());
  REQUIRE_FALSE(set.hasErrors());
  CHECK(set.instantiations.at(0).globalOffset == Dims{0, 2});
}

TEST_CASE("gpuverify form: host API calls without a file or a line > 0 are left out", "[gpuverify][writer]") {
  Instantiation inst = launchOf(Dims{64});
  inst.hostApiCalls = std::vector<HostApiCall>{
      {"clBuildProgram", "", 12}, {"clSetKernelArg", "host.c", 0}, {"clEnqueueNDRangeKernel", "host.c", 40}};
  CHECK(gpuverifyForm(inst).hostApiCalls ==
        std::vector<HostApiCall>{{"clEnqueueNDRangeKernel", "host.c", 40}});
  // The recorder used to refuse such a launch as invalid: now it is written without those calls.
  RecordedCapture c;
  record(c, {inst});
  CHECK(c.captures[0]["host_api_calls"].size() == 1);
}

TEST_CASE("gpuverify form: compiler flags never end in a lone -D or -I", "[gpuverify][writer]") {
  auto flagsOf = [](const std::string &flags) {
    Instantiation inst = launchOf(Dims{1});
    inst.compilerFlags = flags;
    return *gpuverifyForm(inst).compilerFlags;
  };
  CHECK(flagsOf("-DX=1 -I") == "-DX=1");
  CHECK(flagsOf("-cl-std=CL1.2 -D \t") == "-cl-std=CL1.2");
  CHECK(flagsOf("-D") == "");
  CHECK(flagsOf("-I -D") == "-I -D"); // -I takes "-D" as its folder: the loader accepts it
  CHECK(flagsOf("-I -D -D") == "-I -D");
  CHECK(flagsOf("-D X -IY") == "-D X -IY");
  CHECK(flagsOf("") == "");
}

TEST_CASE("gpuverify form: the sidecar and captures.json must agree", "[gpuverify][reader]") {
  Instantiation inst = launchOf(Dims{16, 4});
  inst.globalOffset = Dims{1, 2};
  inst.kernelArguments =
      std::vector<KernelArgument>{ArrayArgument{8, AddressSpace::Global, std::nullopt, std::nullopt}};
  LaunchFacts facts = factsOf(0);
  facts.globalOffset = Dims{3, 4};
  facts.localSize = Dims{5};
  ArgumentFacts size;
  size.index = 0;
  size.size = 0;
  facts.arguments.push_back(size);
  std::vector<ExactFactProblem> problems = restoreExactFacts(inst, facts);
  REQUIRE(problems.size() == 3);
  CHECK(problems[0].keyPath == "global_offset");
  CHECK(problems[0].message == "is [3, 4] but captures.json's global_offset is [1, 2]");
  CHECK(problems[1].keyPath == "local_size");
  CHECK(problems[1].message == "has 1 dimensions but captures.json's global_size has 2");
  CHECK(problems[2].keyPath == "arguments[0].size");
  CHECK(problems[2].message == "is 0 but captures.json's size of argument 0 is 8");
  CHECK(inst.globalOffset == Dims{1, 2}); // unchanged where the files disagree
  CHECK_FALSE(inst.localSize);

  // In a folder: a capture error naming the sidecar's key.
  TempDir dir;
  clcapture::test::writeFile(dir / "kernels/k.cl", "kernel void k() {}");
  clcapture::test::writeFile(dir / "captures.json", R"([
    {"language": "OpenCL", "kernel_file": "kernels/k.cl", "global_size": [16, 4], "global_offset": [1, 2],
     "entry_point": "k"}])");
  Sidecar s;
  s.header.clcaptureVersion = "0.1.0";
  LaunchFacts launch = factsOf(0);
  launch.instantiation = 0;
  launch.globalOffset = Dims{0, 2};
  s.launches.push_back(launch);
  REQUIRE(writeSidecarFile(dir / "captures.meta.json", s));
  Capture c = loadCapture(dir / "captures.json");
  CHECK(errorMessages(c.diagnostics) ==
        std::vector<std::string>{
            (dir / "captures.meta.json").string() +
            ": launches[0].global_offset: is [0, 2] but captures.json's global_offset is [1, 2]"});
}

TEST_CASE("gpuverify form: a sidecar of version 1 (no exact facts) still loads", "[gpuverify][reader]") {
  Json j = Json::parse(serializeSidecar(Sidecar{}));
  j["format_version"] = 1;
  SidecarSet set = parseSidecar(j.dump(), "m.json", {});
  CHECK(errorMessages(set.diagnostics).empty());
  REQUIRE(set.sidecar);
  CHECK(set.sidecar->header.formatVersion == 1);
}
