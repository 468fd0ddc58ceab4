// Every rejection of the reader, one test each, checked against the exact message with its key path.
// The base record is valid; each case changes one thing.
#include "ErrorMessages.h"
#include "TestSupport.h"
#include "clcapture/format/CaptureReader.h"

#include <catch2/catch.hpp>
#include <functional>
#include <nlohmann/json.hpp>

using namespace clcapture::format;
using Json = nlohmann::json;

namespace {

Json baseCapture() {
  return Json::parse(R"([{
    "language": "OpenCL",
    "endianness": "little",
    "kernel_file": "kernels/k.cl",
    "local_size": [64],
    "global_size": [256],
    "compiler_flags": "-DN=256",
    "entry_point": "k",
    "kernel_arguments": [
      {"type": "scalar", "value": "0x00000100"},
      {"type": "array", "size": 1024, "address_space": "global", "flags": ["CL_MEM_READ_WRITE"], "data": "data/a.bin"},
      {"type": "array", "size": 256, "address_space": "local"},
      {"type": "image"},
      {"type": "sampler"}
    ],
    "host_api_calls": [{"function_name": "clEnqueueNDRangeKernel", "compilation_unit": "main.c", "line_number": 42}]
  }])");
}

std::vector<std::string> messages(const CaptureSet &set) {
  return clcapture::test::errorMessages(set.diagnostics);
}

/// Parses the base capture after `change`, without file checks, and expects `expected` among the errors.
void expectRejected(const std::function<void(Json &)> &change, const std::string &expected,
                    ReadOptions options = {}) {
  Json j = baseCapture();
  change(j);
  options.checkFiles = false;
  CaptureSet set = parseCaptures(j.dump(2), "captures.json", options);
  INFO("diagnostics:\n" << set.diagnosticsText());
  REQUIRE(set.hasErrors());
  CHECK(set.instantiations.empty());
  auto all = messages(set);
  CHECK(std::find(all.begin(), all.end(), expected) != all.end());
}

void expectTextRejected(const std::string &text, const std::string &expected) {
  CaptureSet set = parseCaptures(text, "captures.json", ReadOptions{});
  INFO("diagnostics:\n" << set.diagnosticsText());
  REQUIRE(set.hasErrors());
  auto all = messages(set);
  CHECK(std::find(all.begin(), all.end(), expected) != all.end());
}

} // namespace

TEST_CASE("accepts the base record that the rejection cases change", "[reader][reject]") {
  ReadOptions options;
  options.checkFiles = false;
  CaptureSet set = parseCaptures(baseCapture().dump(), "captures.json", options);
  INFO(set.diagnosticsText());
  CHECK_FALSE(set.hasErrors());
  CHECK(set.instantiations.size() == 1);
}

// --- the file as a whole ---
TEST_CASE("rejects: invalid JSON, with line and column", "[reader][reject]") {
  expectTextRejected(
      "[\n  {\"language\": \"OpenCL\",,}\n]",
      "captures.json:2:25: invalid JSON: syntax error while parsing object key - unexpected ','; "
      "expected string literal");
}
TEST_CASE("rejects: a top level that is not an array", "[reader][reject]") {
  expectTextRejected("{\"language\": \"OpenCL\"}",
                     "captures.json: expected an array of kernel instantiations, got an object");
}
TEST_CASE("rejects: a record that is not an object", "[reader][reject]") {
  expectRejected([](Json &j) { j[0] = 12; },
                 "captures.json: instantiation 0: expected an object (a kernel instantiation), got 12");
}
TEST_CASE("rejects: a number beyond a double's range (found by the fuzzer)", "[reader][reject]") {
  expectTextRejected("[1e99999]", "captures.json: invalid JSON: number overflow parsing '1e99999'");
}
TEST_CASE("rejects: garbage after a complete array is not mistaken for truncation", "[reader][reject]") {
  expectTextRejected("[]\n]",
                     "captures.json:2:1: invalid JSON: syntax error while parsing value - unexpected ']'; "
                     "expected end of input");
}

// --- required keys and their types ---
TEST_CASE("rejects: missing language", "[reader][reject]") {
  expectRejected([](Json &j) { j[0].erase("language"); },
                 "captures.json: instantiation 0: language: missing required key");
}
TEST_CASE("rejects: language other than OpenCL", "[reader][reject]") {
  expectRejected([](Json &j) { j[0]["language"] = "CUDA"; },
                 "captures.json: instantiation 0: language: expected \"OpenCL\", got \"CUDA\"");
}
TEST_CASE("rejects: endianness other than big or little", "[reader][reject]") {
  expectRejected(
      [](Json &j) { j[0]["endianness"] = "middle"; },
      "captures.json: instantiation 0: endianness: expected \"little\" or \"big\", got \"middle\"");
}
TEST_CASE("rejects: missing kernel_file", "[reader][reject]") {
  expectRejected([](Json &j) { j[0].erase("kernel_file"); },
                 "captures.json: instantiation 0: kernel_file: missing required key");
}
TEST_CASE("rejects: kernel_file that is not a string", "[reader][reject]") {
  expectRejected([](Json &j) { j[0]["kernel_file"] = 7; },
                 "captures.json: instantiation 0: kernel_file: expected a string, got 7");
}
TEST_CASE("rejects: absolute kernel_file", "[reader][reject]") {
  expectRejected(
      [](Json &j) { j[0]["kernel_file"] = "/etc/passwd"; },
      "captures.json: instantiation 0: kernel_file: path \"/etc/passwd\" escapes the capture folder "
      "(absolute path)");
}
TEST_CASE("rejects: kernel_file with a .. component", "[reader][reject]") {
  expectRejected(
      [](Json &j) { j[0]["kernel_file"] = "kernels/../../k.cl"; },
      "captures.json: instantiation 0: kernel_file: path \"kernels/../../k.cl\" escapes the capture "
      "folder (\"..\" component)");
}
TEST_CASE("rejects: missing entry_point", "[reader][reject]") {
  expectRejected([](Json &j) { j[0].erase("entry_point"); },
                 "captures.json: instantiation 0: entry_point: missing required key");
}
TEST_CASE("rejects: entry_point that is not an identifier", "[reader][reject]") {
  expectRejected([](Json &j) { j[0]["entry_point"] = "9lives"; },
                 "captures.json: instantiation 0: entry_point: expected a kernel name (an identifier), got "
                 "\"9lives\"");
}
TEST_CASE("rejects: compiler_flags that is not a string", "[reader][reject]") {
  expectRejected([](Json &j) { j[0]["compiler_flags"] = Json::array({"-DN=1"}); },
                 "captures.json: instantiation 0: compiler_flags: expected a string, got an array");
}

// --- sizes ---
TEST_CASE("rejects: missing global_size", "[reader][reject]") {
  expectRejected([](Json &j) { j[0].erase("global_size"); },
                 "captures.json: instantiation 0: global_size: missing required key");
}
TEST_CASE("rejects: global_size with no dimensions", "[reader][reject]") {
  expectRejected([](Json &j) { j[0]["global_size"] = Json::array(); },
                 "captures.json: instantiation 0: global_size: expected 1 to 3 dimensions, got 0");
}
TEST_CASE("rejects: more than three dimensions", "[reader][reject]") {
  expectRejected(
      [](Json &j) {
        j[0]["global_size"] = {4, 4, 4, 4};
      },
      "captures.json: instantiation 0: global_size: expected 1 to 3 dimensions, got 4");
}
TEST_CASE("rejects: a zero global size", "[reader][reject]") {
  expectRejected([](Json &j) { j[0]["global_size"] = {0}; },
                 "captures.json: instantiation 0: global_size[0]: expected an integer from 1 to "
                 "18446744073709551615, got 0");
}
TEST_CASE("rejects: a negative global size", "[reader][reject]") {
  expectRejected([](Json &j) { j[0]["global_size"] = {-256}; },
                 "captures.json: instantiation 0: global_size[0]: expected an integer from 1 to "
                 "18446744073709551615, got -256");
}
TEST_CASE("rejects: a fractional global size", "[reader][reject]") {
  expectRejected([](Json &j) { j[0]["global_size"] = {2.5}; },
                 "captures.json: instantiation 0: global_size[0]: expected an integer from 1 to "
                 "18446744073709551615, got 2.5");
}
TEST_CASE("rejects: a size past 2^64", "[reader][reject]") {
  expectTextRejected(R"([{"language": "OpenCL", "kernel_file": "k.cl", "entry_point": "k",
                          "global_size": [18446744073709551616]}])",
                     "captures.json: instantiation 0: global_size[0]: expected an integer from 1 to "
                     "18446744073709551615, got 1.8446744073709552e+19");
}
TEST_CASE("rejects: a global size given as a string", "[reader][reject]") {
  expectRejected([](Json &j) { j[0]["global_size"] = {"256"}; },
                 "captures.json: instantiation 0: global_size[0]: expected an integer from 1 to "
                 "18446744073709551615, got \"256\"");
}
TEST_CASE("rejects: a work-item count that overflows 64 bits", "[reader][reject]") {
  expectRejected(
      [](Json &j) {
        j[0]["global_size"] = {4294967296ull, 4294967296ull};
        j[0].erase("local_size");
      },
      "captures.json: instantiation 0: global_size: the total number of work-items overflows 64 bits");
}
TEST_CASE("rejects: local_size with a different dimension count", "[reader][reject]") {
  expectRejected(
      [](Json &j) {
        j[0]["local_size"] = {8, 8};
      },
      "captures.json: instantiation 0: local_size: has 2 dimensions but global_size has 1");
}
TEST_CASE("rejects: a global size that is not a multiple of the local size", "[reader][reject]") {
  expectRejected([](Json &j) { j[0]["local_size"] = {48}; },
                 "captures.json: instantiation 0: local_size[0]: global_size[0] (256) is not a multiple of "
                 "local_size[0] (48)");
}
TEST_CASE("rejects: a zero local size", "[reader][reject]") {
  expectRejected([](Json &j) { j[0]["local_size"] = {0}; },
                 "captures.json: instantiation 0: local_size[0]: expected an integer from 1 to "
                 "18446744073709551615, got 0");
}
TEST_CASE("rejects: a local size larger than the global size", "[reader][reject]") {
  ReadOptions options;
  options.allowNonUniformWorkGroups = true;
  expectRejected([](Json &j) { j[0]["local_size"] = {512}; },
                 "captures.json: instantiation 0: local_size[0]: local size 512 exceeds global size 256",
                 options);
}
TEST_CASE("rejects: global_offset with a different dimension count", "[reader][reject]") {
  expectRejected(
      [](Json &j) {
        j[0]["global_offset"] = {0, 0};
      },
      "captures.json: instantiation 0: global_offset: has 2 dimensions but global_size has 1");
}
TEST_CASE("rejects: a negative global offset", "[reader][reject]") {
  expectRejected([](Json &j) { j[0]["global_offset"] = {-1}; },
                 "captures.json: instantiation 0: global_offset[0]: expected an integer from 0 to "
                 "18446744073709551615, got -1");
}
TEST_CASE("rejects: an offset whose last work-item id overflows", "[reader][reject]") {
  expectRejected(
      [](Json &j) { j[0]["global_offset"] = {18446744073709551615ull}; },
      "captures.json: instantiation 0: global_offset[0]: offset 18446744073709551615 plus global size "
      "256 overflows 64 bits");
}

// --- arguments ---
TEST_CASE("rejects: kernel_arguments that is not an array", "[reader][reject]") {
  expectRejected(
      [](Json &j) { j[0]["kernel_arguments"] = Json::object(); },
      "captures.json: instantiation 0: kernel_arguments: expected an array of kernel arguments, got an "
      "object");
}
TEST_CASE("rejects: an argument without a type", "[reader][reject]") {
  expectRejected([](Json &j) { j[0]["kernel_arguments"][0].erase("type"); },
                 "captures.json: instantiation 0: kernel_arguments[0].type: missing required key");
}
TEST_CASE("rejects: an argument of an unknown type", "[reader][reject]") {
  expectRejected([](Json &j) { j[0]["kernel_arguments"][1]["type"] = "pointer"; },
                 "captures.json: instantiation 0: kernel_arguments[1].type: expected \"scalar\", \"array\", "
                 "\"image\" or \"sampler\", got \"pointer\"");
}
TEST_CASE("rejects: a scalar value without 0x", "[reader][reject]") {
  expectRejected(
      [](Json &j) { j[0]["kernel_arguments"][0]["value"] = "12"; },
      "captures.json: instantiation 0: kernel_arguments[0].value: expected a hex string starting with "
      "0x, got \"12\"");
}
TEST_CASE("rejects: a scalar value with non-hex digits", "[reader][reject]") {
  expectRejected(
      [](Json &j) { j[0]["kernel_arguments"][0]["value"] = "0x12G4"; },
      "captures.json: instantiation 0: kernel_arguments[0].value: expected a hex string starting with "
      "0x, got \"0x12G4\"");
}
TEST_CASE("rejects: a scalar value given as a number", "[reader][reject]") {
  expectRejected([](Json &j) { j[0]["kernel_arguments"][0]["value"] = 256; },
                 "captures.json: instantiation 0: kernel_arguments[0].value: expected a string, got 256");
}
TEST_CASE("rejects: a zero-sized array", "[reader][reject]") {
  expectRejected([](Json &j) { j[0]["kernel_arguments"][1]["size"] = 0; },
                 "captures.json: instantiation 0: kernel_arguments[1].size: expected an integer from 1 to "
                 "18446744073709551615, got 0");
}
TEST_CASE("rejects: an array in private memory", "[reader][reject]") {
  expectRejected([](Json &j) { j[0]["kernel_arguments"][1]["address_space"] = "private"; },
                 "captures.json: instantiation 0: kernel_arguments[1].address_space: expected \"global\", "
                 "\"local\" or \"constant\", got \"private\"");
}
TEST_CASE("rejects: flags given as a string", "[reader][reject]") {
  expectRejected(
      [](Json &j) { j[0]["kernel_arguments"][1]["flags"] = "CL_MEM_READ_ONLY"; },
      "captures.json: instantiation 0: kernel_arguments[1].flags: expected an array of CL_MEM_* names, "
      "got \"CL_MEM_READ_ONLY\"");
}
TEST_CASE("rejects: an unknown memory flag", "[reader][reject]") {
  expectRejected(
      [](Json &j) {
        j[0]["kernel_arguments"][1]["flags"] = {"CL_MEM_READ_WRITE", "CL_MEM_FAST"};
      },
      "captures.json: instantiation 0: kernel_arguments[1].flags[1]: unknown memory flag "
      "\"CL_MEM_FAST\" (expected a CL_MEM_* name)");
}
TEST_CASE("rejects: mutually exclusive access flags", "[reader][reject]") {
  expectRejected(
      [](Json &j) {
        j[0]["kernel_arguments"][1]["flags"] = {"CL_MEM_WRITE_ONLY", "CL_MEM_READ_ONLY"};
      },
      "captures.json: instantiation 0: kernel_arguments[1].flags: CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY "
      "and CL_MEM_READ_ONLY are mutually exclusive");
}
TEST_CASE("rejects: USE_HOST_PTR with COPY_HOST_PTR", "[reader][reject]") {
  expectRejected(
      [](Json &j) {
        j[0]["kernel_arguments"][1]["flags"] = {"CL_MEM_USE_HOST_PTR", "CL_MEM_COPY_HOST_PTR"};
      },
      "captures.json: instantiation 0: kernel_arguments[1].flags: CL_MEM_USE_HOST_PTR and "
      "CL_MEM_COPY_HOST_PTR "
      "are mutually exclusive");
}
TEST_CASE("rejects: a data path that escapes the folder", "[reader][reject]") {
  expectRejected(
      [](Json &j) { j[0]["kernel_arguments"][1]["data"] = "../../etc/shadow"; },
      "captures.json: instantiation 0: kernel_arguments[1].data: path \"../../etc/shadow\" escapes the "
      "capture folder (\"..\" component)");
}
TEST_CASE("rejects: contents for a local array", "[reader][reject]") {
  expectRejected([](Json &j) { j[0]["kernel_arguments"][2]["data"] = "data/a.bin"; },
                 "captures.json: instantiation 0: kernel_arguments[2].data: a local array has no contents at "
                 "launch; data must be absent");
}

// --- unknown keys (strict mode) ---
TEST_CASE("rejects: an unknown key in a record", "[reader][reject]") {
  expectRejected([](Json &j) { j[0]["launch"] = 3; },
                 "captures.json: instantiation 0: launch: unknown key \"launch\" in a kernel instantiation");
}
TEST_CASE("rejects: an unknown key in a scalar argument", "[reader][reject]") {
  expectRejected([](Json &j) { j[0]["kernel_arguments"][0]["size"] = 4; },
                 "captures.json: instantiation 0: kernel_arguments[0].size: unknown key \"size\" in a scalar "
                 "argument");
}
TEST_CASE("rejects: an unknown key in an image argument", "[reader][reject]") {
  expectRejected(
      [](Json &j) { j[0]["kernel_arguments"][3]["format"] = "RGBA"; },
      "captures.json: instantiation 0: kernel_arguments[3].format: unknown key \"format\" in an image "
      "argument");
}

// --- host API calls ---
TEST_CASE("rejects: a host API call without a line number", "[reader][reject]") {
  expectRejected([](Json &j) { j[0]["host_api_calls"][0].erase("line_number"); },
                 "captures.json: instantiation 0: host_api_calls[0].line_number: missing required key");
}
TEST_CASE("rejects: a host API call on line 0", "[reader][reject]") {
  expectRejected(
      [](Json &j) { j[0]["host_api_calls"][0]["line_number"] = 0; },
      "captures.json: instantiation 0: host_api_calls[0].line_number: expected an integer from 1 to "
      "18446744073709551615, got 0");
}
TEST_CASE("rejects: host_api_calls that is not an array", "[reader][reject]") {
  expectRejected([](Json &j) { j[0]["host_api_calls"] = "main.c:42"; },
                 "captures.json: instantiation 0: host_api_calls: expected an array of host API calls, got "
                 "\"main.c:42\"");
}
