// The writer: byte-stable output that uses only GPUVerify's format keys, and round trips through the reader.
#include "TestSupport.h"
#include "clcapture/format/CaptureReader.h"
#include "clcapture/format/CaptureWriter.h"
#include "clcapture/format/JsonEmitter.h"

#include <catch2/catch.hpp>

using namespace clcapture::format;
using clcapture::test::TempDir;

namespace {

Instantiation fullInstantiation() {
  Instantiation inst;
  inst.endianness = Endianness::Little;
  inst.kernelFile = "kernels/scale-0123456789abcdef.cl";
  inst.localSize = Dims{16, 1};
  inst.globalSize = Dims{16, 4};
  inst.globalOffset = Dims{1, 2};
  inst.compilerFlags = "-cl-std=CL1.2 -DSCALE=1";
  inst.entryPoint = "scale";
  inst.kernelArguments = std::vector<KernelArgument>{
      ArrayArgument{256, AddressSpace::Global, std::vector<std::string>{"CL_MEM_WRITE_ONLY"}, std::nullopt},
      ArrayArgument{256, AddressSpace::Global,
                    std::vector<std::string>{"CL_MEM_READ_ONLY", "CL_MEM_COPY_HOST_PTR"},
                    std::string("data/00000000000000000000000000000000.bin")},
      ArrayArgument{64, AddressSpace::Local, std::nullopt, std::nullopt},
      ScalarArgument{std::string("0x0000000400000002")},
      ImageArgument{},
      SamplerArgument{},
  };
  inst.hostApiCalls = std::vector<HostApiCall>{{"clEnqueueNDRangeKernel", "host.c", 58}};
  return inst;
}

Instantiation minimalInstantiation() {
  Instantiation inst;
  inst.kernelFile = "kernels/k.cl";
  inst.globalSize = Dims{1024};
  inst.entryPoint = "k";
  return inst;
}

} // namespace

TEST_CASE("writer: exact bytes for a full record", "[writer]") {
  // GPUVerify format key order, short containers on one line, flags as an array.
  CHECK(serializeCaptures({fullInstantiation()}) == R"([
  {
    "language": "OpenCL",
    "endianness": "little",
    "kernel_file": "kernels/scale-0123456789abcdef.cl",
    "local_size": [16, 1],
    "global_size": [16, 4],
    "global_offset": [1, 2],
    "compiler_flags": "-cl-std=CL1.2 -DSCALE=1",
    "entry_point": "scale",
    "kernel_arguments": [
      {"type": "array", "size": 256, "address_space": "global", "flags": ["CL_MEM_WRITE_ONLY"]},
      {
        "type": "array",
        "size": 256,
        "address_space": "global",
        "flags": ["CL_MEM_READ_ONLY", "CL_MEM_COPY_HOST_PTR"],
        "data": "data/00000000000000000000000000000000.bin"
      },
      {"type": "array", "size": 64, "address_space": "local"},
      {"type": "scalar", "value": "0x0000000400000002"},
      {"type": "image"},
      {"type": "sampler"}
    ],
    "host_api_calls": [
      {"function_name": "clEnqueueNDRangeKernel", "compilation_unit": "host.c", "line_number": 58}
    ]
  }
]
)");
}

TEST_CASE("writer: an all-zero offset and a NULL local size are omitted", "[writer]") {
  Instantiation inst = minimalInstantiation();
  inst.globalOffset = Dims{0};
  CHECK(serializeCaptures({inst}) == R"([
  {"language": "OpenCL", "kernel_file": "kernels/k.cl", "global_size": [1024], "entry_point": "k"}
]
)");
}

TEST_CASE("writer: an empty capture is an empty array", "[writer]") {
  CHECK(serializeCaptures({}) == "[\n]\n");
}

TEST_CASE("writer: output reloads identically and is byte-stable", "[writer]") {
  std::vector<Instantiation> insts{fullInstantiation(), minimalInstantiation()};
  std::string first = serializeCaptures(insts);
  ReadOptions options;
  options.checkFiles = false;
  CaptureSet set = parseCaptures(first, "captures.json", options);
  INFO(set.diagnosticsText());
  REQUIRE_FALSE(set.hasErrors());
  REQUIRE(set.instantiations.size() == 2);
  CHECK(set.instantiations[0] == insts[0]);
  CHECK(set.instantiations[1] == insts[1]);
  CHECK(serializeCaptures(set.instantiations) == first);
}

TEST_CASE("writer: strings are escaped and invalid UTF-8 never throws", "[writer]") {
  Instantiation inst = minimalInstantiation();
  inst.compilerFlags = std::string("-DMSG=\"a\\tb\"\n\xff");
  std::string text;
  REQUIRE_NOTHROW(text = serializeInstantiation(inst));
  CHECK(text.find("\"-DMSG=\\\"a\\\\tb\\\"\\n\xEF\xBF\xBD\"") != std::string::npos);
}

TEST_CASE("writer: refuses to write an invalid instantiation", "[writer]") {
  TempDir dir;
  Instantiation bad = minimalInstantiation();
  bad.globalSize = Dims{0};
  Status s = writeCapturesFile(dir / "captures.json", {bad});
  REQUIRE_FALSE(s);
  CHECK(s.error() == "refusing to write an invalid capture:\ncaptures.json: instantiation 0: global_size[0]: "
                     "expected an integer from 1 to 18446744073709551615, got 0\n");
  CHECK_FALSE(std::filesystem::exists(dir / "captures.json"));
}

TEST_CASE("writer: writes files atomically", "[writer]") {
  TempDir dir;
  REQUIRE(writeCapturesFile(dir / "captures.json", {minimalInstantiation()}));
  CHECK(clcapture::test::readFile(dir / "captures.json") == serializeCaptures({minimalInstantiation()}));
}

TEST_CASE("emitter: containers break only when they do not fit", "[writer][emitter]") {
  nlohmann::ordered_json j = {{"a", {1, 2, 3}}, {"b", std::string(120, 'x')}};
  CHECK(emitJson(j) == "{\n  \"a\": [1, 2, 3],\n  \"b\": \"" + std::string(120, 'x') + "\"\n}");
  CHECK(emitJson(nlohmann::ordered_json::array()) == "[]");
  CHECK(emitJson(nlohmann::ordered_json::object()) == "{}");
}
