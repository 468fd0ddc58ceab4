// The sidecar (captures.meta.json): round trip, rejections, and the cross-check with captures.json.
#include "ErrorMessages.h"
#include "TestSupport.h"
#include "clcapture/format/CaptureReader.h"
#include "clcapture/format/CaptureWriter.h"

#include <catch2/catch.hpp>

using namespace clcapture::format;
using clcapture::test::errorMessages;
using clcapture::test::TempDir;
using Json = nlohmann::json;

namespace {

Sidecar sample() {
  Sidecar s;
  s.header.clcaptureVersion = "0.1.0";
  s.header.process = {"/bin/app", 99, "2026-11-22T00:00:00Z"};
  s.header.process.commandLine = {"/bin/app", "--size", "a b"};
  s.header.process.loader = "/usr/lib/x86_64-linux-gnu/libOpenCL.so.1";
  s.header.process.frontEnd = "shim ICD";
  LaunchFacts f;
  f.launch = 5;
  f.instantiation = 0;
  f.enqueueFunction = "clEnqueueTask";
  f.kernelName = "k";
  f.thread = 1;
  f.queue = 2;
  f.program = 3;
  f.buildOptions = "-DX=1";
  f.device = {"gpu", "NVIDIA Corporation", "OpenCL 3.0 CUDA", "580.1", 64, Endianness::Little, true};
  f.arguments = {
      ArgumentFacts{0, ArgumentKind::Buffer, std::string("a"), std::string("float*"), std::string("global"),
                    7, 1, SubBufferFacts{6, 256}, std::nullopt, std::nullopt},
      ArgumentFacts{1, ArgumentKind::Buffer, std::string("b"), std::string("float*"), std::string("global"),
                    6, 1, std::nullopt, std::nullopt, std::string("over the per-buffer cap (1048576 bytes)")},
      ArgumentFacts{2, ArgumentKind::Svm, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                    std::nullopt, std::nullopt, SvmFacts{1, 16}, std::nullopt},
      ArgumentFacts{3, ArgumentKind::NullBuffer, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                    std::nullopt, std::nullopt, std::nullopt, std::nullopt}};
  f.arguments[0].dataAfter = "data/after-0.bin";
  f.arguments[1].dataAfterSkipped = "over the per-buffer cap (1048576 bytes)";
  f.aliases = {{0, 1}};
  f.hostCalls = {HostCallFacts{"clSetKernelArg", 2, "/bin/app", 0x1234, std::string("main"),
                               std::string("/src/app.c"), 42},
                 HostCallFacts{"clEnqueueTask", std::nullopt, "/bin/app", 0x1300, std::nullopt, std::nullopt,
                               std::nullopt}};
  s.launches.push_back(f);
  return s;
}

} // namespace

TEST_CASE("sidecar: round trip", "[sidecar]") {
  Sidecar s = sample();
  std::string text = serializeSidecar(s);
  SidecarSet set = parseSidecar(text, "captures.meta.json", {});
  REQUIRE(errorMessages(set.diagnostics).empty());
  REQUIRE(set.sidecar);
  CHECK(set.sidecar->header == s.header);
  REQUIRE(set.sidecar->launches.size() == 1);
  CHECK(set.sidecar->launches[0] == s.launches[0]);
  CHECK(serializeSidecar(*set.sidecar) == text);
}

TEST_CASE("sidecar: a data_after path must stay inside the capture folder", "[sidecar]") {
  Json j = Json::parse(serializeSidecar(sample()));
  j["launches"][0]["arguments"][0]["data_after"] = "../../etc/passwd";
  auto messages = errorMessages(parseSidecar(j.dump(), "m.json", {}).diagnostics);
  REQUIRE(messages.size() == 1);
  CHECK(messages[0].rfind("m.json: launches[0].arguments[0].data_after: ", 0) == 0);
}

TEST_CASE("sidecar: a host call has a file and a line, or neither", "[sidecar]") {
  Json j = Json::parse(serializeSidecar(sample()));
  j["launches"][0]["host_calls"][0].erase("line_number");
  CHECK(errorMessages(parseSidecar(j.dump(), "m.json", {}).diagnostics) ==
        std::vector<std::string>{"m.json: launches[0].host_calls[0].line_number: compilation_unit and "
                                 "line_number come together"});
}

TEST_CASE("sidecar: rejects another format and newer versions", "[sidecar]") {
  Json j = Json::parse(serializeSidecar(sample()));
  j["format"] = "something-else";
  CHECK(errorMessages(parseSidecar(j.dump(), "m.json", {}).diagnostics) ==
        std::vector<std::string>{"m.json: format: expected \"clcapture-meta\", got \"something-else\""});
  j = Json::parse(serializeSidecar(sample()));
  j["format_version"] = 9;
  CHECK(
      errorMessages(parseSidecar(j.dump(), "m.json", {}).diagnostics) ==
      std::vector<std::string>{"m.json: format_version: version 9 was written by a newer clcapture (this one "
                               "reads 3)"});
}

TEST_CASE("sidecar: rejects bad launch entries with their key path", "[sidecar]") {
  Json j = Json::parse(serializeSidecar(sample()));
  j["launches"][0]["aliases"] = {{0, 9}};
  j["launches"][0]["device"]["address_bits"] = 48;
  j["launches"][0]["arguments"][2]["kind"] = "texture";
  auto e = errorMessages(parseSidecar(j.dump(), "m.json", {}).diagnostics);
  CHECK(e == std::vector<std::string>{
                 "m.json: launches[0].device.address_bits: expected 32 or 64, got 48",
                 "m.json: launches[0].arguments[2].kind: unknown argument kind \"texture\"",
                 "m.json: launches[0].aliases[0][1]: expected an argument index below 4, got 9"});
  j = Json::parse(serializeSidecar(sample()));
  j["launches"][0]["instantiation"] = nullptr;
  CHECK(errorMessages(parseSidecar(j.dump(), "m.json", {}).diagnostics) ==
        std::vector<std::string>{"m.json: launches[0].not_captured_reason: a launch without an instantiation "
                                 "must say why"});
}

TEST_CASE("sidecar: unknown keys are only warnings (newer minor versions may add some)", "[sidecar]") {
  Json j = Json::parse(serializeSidecar(sample()));
  j["launches"][0]["gpu_time_ns"] = 12;
  SidecarSet set = parseSidecar(j.dump(), "m.json", {});
  CHECK(errorMessages(set.diagnostics).empty());
  REQUIRE(set.diagnostics.size() == 1);
  CHECK(set.diagnostics[0].str() == "m.json: warning: launches[0].gpu_time_ns: unknown key; ignored");
}

TEST_CASE("sidecar: cross-check with captures.json", "[sidecar]") {
  TempDir dir;
  clcapture::test::writeFile(dir / "kernels/k.cl", "kernel void k() {}");
  clcapture::test::writeFile(dir / "captures.json", R"([
    {"language": "OpenCL", "kernel_file": "kernels/k.cl", "global_size": [1], "entry_point": "other"}])");
  Sidecar s = sample();
  s.launches.push_back(s.launches[0]);
  s.launches[1].launch = 6;
  s.launches[1].instantiation = 3;
  REQUIRE(writeSidecarFile(dir / "captures.meta.json", s));
  Capture c = loadCapture(dir / "captures.json");
  std::string meta = (dir / "captures.meta.json").string();
  CHECK(errorMessages(c.diagnostics) ==
        std::vector<std::string>{
            meta + ": launches[1].instantiation: instantiation 3 does not exist (captures.json "
                   "has 1)",
            meta + ": launches[0].kernel_name: is \"k\" but instantiation 0 has entry_point "
                   "\"other\""});
}

TEST_CASE("sidecar: the path beside a captures file", "[sidecar]") {
  CHECK(sidecarPathFor("dir/captures.json") == "dir/captures.meta.json");
  CHECK(sidecarPathFor("x/run2.json") == "x/run2.meta.json");
}
