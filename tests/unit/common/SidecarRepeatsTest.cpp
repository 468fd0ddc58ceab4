// Sidecar repeat entries (format 3): what the writer says for each launch, that the reader gets every launch
// back whole, bounded slots, malformed repeats rejected, and captures.json's host_api_calls put back.
#include "clcapture/format/SidecarRepeats.h"

#include "ErrorMessages.h"
#include "TestSupport.h"
#include "clcapture/format/CaptureReader.h"
#include "clcapture/format/CaptureRecorder.h"
#include "clcapture/format/CaptureWriter.h"
#include "clcapture/format/ScalarCodec.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

using namespace clcapture::format;
using clcapture::test::errorMessages;
using clcapture::test::TempDir;

namespace {

SidecarHeader header() {
  SidecarHeader h;
  h.clcaptureVersion = CLCAPTURE_VERSION;
  h.process = {"/usr/bin/test-app", 1234, "2026-11-22T00:00:00Z"};
  return h;
}

LaunchFacts launchOf(std::uint64_t n, const std::string &kernel = "k") {
  LaunchFacts f;
  f.launch = n;
  f.instantiation = n;
  f.enqueueFunction = "clEnqueueNDRangeKernel";
  f.kernelName = kernel;
  f.program = 1;
  f.device = {"cpu", "PoCL", "OpenCL 3.0", "3.1", 64, Endianness::Little, false};
  f.arguments = {ArgumentFacts{0, ArgumentKind::Buffer, std::string("a"), std::string("uchar*"),
                               std::string("global"), 4, 1, std::nullopt, std::nullopt, std::nullopt},
                 ArgumentFacts{1, ArgumentKind::Scalar, std::string("n"), std::string("int"),
                               std::string("private"), std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                               std::nullopt}};
  f.hostCalls = {HostCallFacts{"clSetKernelArg", 1, "/usr/bin/test-app", 0x1234, std::string("main"),
                               std::string("/src/app.c"), 42},
                 HostCallFacts{"clEnqueueNDRangeKernel", std::nullopt, "/usr/bin/test-app", 0x1300,
                               std::string("main"), std::string("/src/app.c"), 44}};
  return f;
}

/// The sidecar text the recorder would write for these launches, in order.
std::string sidecarText(const std::vector<LaunchFacts> &launches, SidecarRepeats &repeats,
                        std::vector<SidecarRepeats::Entry> *entries = nullptr) {
  std::string s = sidecarHead(header());
  for (std::size_t i = 0; i < launches.size(); ++i) {
    SidecarRepeats::Entry e = repeats.entryFor(launches[i]);
    s += serializeRecord(e.json, 4) + (i + 1 < launches.size() ? ",\n" : "\n");
    if (entries)
      entries->push_back(std::move(e));
  }
  return s + sidecarTail();
}

std::string withLaunches(const std::string &launchesJson) {
  return sidecarHead(header()) + launchesJson + "\n" + sidecarTail();
}

} // namespace

TEST_CASE("sidecar repeats: each launch reads back whole, and repeats say only what differs",
          "[sidecar][repeats]") {
  std::vector<LaunchFacts> launches;
  launches.push_back(launchOf(0)); // full, slot 0
  launches.push_back(launchOf(1)); // the same facts: launch, instantiation, like
  launches.push_back(launchOf(2)); // one argument differs: "same" for the other
  launches.back().arguments[0].dataSkipped = "over the data budget";
  launches.push_back(launchOf(3, "other")); // another kernel: its own slot
  launches.push_back(launchOf(4));          // compared with launch 2 (the slot's latest), not launch 0
  launches.back().arguments[0].dataSkipped = "over the data budget";
  launches.push_back(launchOf(5)); // drops data_skipped (a key inside an argument: an argument entry)
  launches.push_back(launchOf(6)); // drops a top-level key the slot has: a full entry
  launches.back().globalOffset = Dims{8};
  launches.push_back(launchOf(7));
  launches.push_back(launchOf(8)); // different host calls: written out
  launches.back().hostCalls.pop_back();
  LaunchFacts notCaptured = launchOf(9);
  notCaptured.instantiation.reset();
  notCaptured.notCapturedReason = "a program built from IL";
  launches.push_back(notCaptured);

  SidecarRepeats repeats;
  std::vector<SidecarRepeats::Entry> entries;
  std::string text = sidecarText(launches, repeats, &entries);
  SidecarSet set = parseSidecar(text, "captures.meta.json", {});
  REQUIRE(errorMessages(set.diagnostics).empty());
  REQUIRE(set.sidecar);
  REQUIRE(set.sidecar->launches.size() == launches.size());
  for (std::size_t i = 0; i < launches.size(); ++i) {
    INFO("launch " << i << ": " << entries[i].json.dump());
    CHECK(set.sidecar->launches[i] == launches[i]);
  }

  CHECK(entries[0].json.at("slot") == 0);
  CHECK_FALSE(entries[0].repeat);
  CHECK(entries[1].json.dump() == R"({"launch":1,"instantiation":1,"like":0})");
  CHECK(entries[1].sameHostCalls);
  CHECK(entries[2].json.at("arguments")[1] == "same");
  CHECK(entries[2].json.at("arguments")[0].at("data_skipped") == "over the data budget");
  CHECK(entries[3].json.at("slot") == 1);
  CHECK(entries[4].json.dump() == R"({"launch":4,"instantiation":4,"like":0})");
  CHECK(entries[5].repeat);
  CHECK(entries[5].json.at("arguments")[0].count("data_skipped") == 0);
  CHECK(entries[6].repeat);
  CHECK(entries[6].json.at("global_offset") == Dims{8});
  CHECK_FALSE(entries[7].repeat); // launch 6 had an offset, launch 7 has none
  CHECK(entries[7].json.at("slot") == 0);
  CHECK(entries[8].repeat);
  CHECK_FALSE(entries[8].sameHostCalls);
  CHECK(entries[8].json.at("host_calls").size() == 1);
  CHECK(entries[9].repeat);
  CHECK(entries[9].json.at("instantiation").is_null());
  CHECK(entries[9].json.at("not_captured_reason") == "a program built from IL");

  // Every entry is much shorter than the launch's full facts.
  CHECK(serializeRecord(entries[1].json, 4).size() < serializeLaunchFacts(launches[1], 4).size() / 10);
}

TEST_CASE("sidecar repeats: slots are bounded and reused least recently used first", "[sidecar][repeats]") {
  SidecarRepeats repeats(2);
  std::vector<LaunchFacts> launches = {launchOf(0, "a"), launchOf(1, "b"), launchOf(2, "a"),
                                       launchOf(3, "c"), launchOf(4, "b"), launchOf(5, "a")};
  std::vector<SidecarRepeats::Entry> entries;
  std::string text = sidecarText(launches, repeats, &entries);
  CHECK(entries[0].json.at("slot") == 0); // a
  CHECK(entries[1].json.at("slot") == 1); // b
  CHECK(entries[2].json.at("like") == 0); // a again
  CHECK(entries[3].json.at("slot") == 1); // c takes b's slot (least recently used)
  CHECK(entries[4].json.at("slot") == 0); // b is written whole again, in a's slot
  CHECK(entries[5].json.at("slot") == 1); // and a in c's
  SidecarSet set = parseSidecar(text, "captures.meta.json", {});
  REQUIRE(errorMessages(set.diagnostics).empty());
  REQUIRE(set.sidecar);
  for (std::size_t i = 0; i < launches.size(); ++i)
    CHECK(set.sidecar->launches[i] == launches[i]);
}

TEST_CASE("sidecar repeats: malformed repeats are errors that name the entry", "[sidecar][repeats]") {
  SidecarRepeats repeats;
  std::string full = serializeRecord(repeats.entryFor(launchOf(0)).json, 4);
  auto errorsOf = [](const std::string &text) {
    return errorMessages(parseSidecar(text, "captures.meta.json", {}).diagnostics);
  };
  auto has = [](const std::vector<std::string> &errors, const std::string &part) {
    for (const std::string &e : errors)
      if (e.find(part) != std::string::npos)
        return true;
    return false;
  };
  auto unknownSlot = errorsOf(withLaunches(R"({"launch": 0, "instantiation": 0, "like": 3})"));
  CHECK(has(unknownSlot, "launches[0].like"));
  CHECK(has(unknownSlot, "slot 3 was not filled by an earlier entry"));
  auto bigSlot = errorsOf(withLaunches(full + ",\n" + R"({"launch": 1, "instantiation": 1, "like": 70000})"));
  CHECK(has(bigSlot, "expected a slot number below 65536"));
  auto both = errorsOf(withLaunches(R"({"launch": 0, "instantiation": 0, "like": 0, "slot": 0})"));
  CHECK(has(both, "either a full entry (slot) or a repeat (like)"));
  auto sameCount = errorsOf(
      withLaunches(full + ",\n" + R"({"launch": 1, "instantiation": 1, "like": 0, "arguments": ["same"]})"));
  CHECK(has(sameCount, "launches[1].arguments[0]"));
  auto sameInFull = errorsOf(withLaunches(R"({"launch": 0, "instantiation": 0, "arguments": ["same"]})"));
  CHECK_FALSE(sameInFull.empty());
}

TEST_CASE("sidecar repeats: captures.json leaves out a repeat's host_api_calls and the reader puts them back",
          "[sidecar][repeats][recorder]") {
  TempDir dir;
  auto rec = CaptureRecorder::create(dir / "cap", header());
  REQUIRE(rec);
  auto kernel = (*rec)->putKernelSource("k", "kernel void k(global uchar *a, int n) { a[n] = 0; }");
  REQUIRE(kernel);
  std::vector<Instantiation> written;
  for (std::uint32_t n = 0; n < 3; ++n) {
    Instantiation inst;
    inst.endianness = Endianness::Little;
    inst.kernelFile = *kernel;
    inst.globalSize = Dims{64};
    inst.entryPoint = "k";
    inst.kernelArguments = std::vector<KernelArgument>{
        ArrayArgument{64, AddressSpace::Global, std::vector<std::string>{"CL_MEM_READ_WRITE"}, std::nullopt},
        ScalarArgument{encodeScalar(&n, 4, Endianness::Little)}};
    inst.hostApiCalls = std::vector<HostApiCall>{{"clSetKernelArg", "/src/app.c", 42},
                                                 {"clEnqueueNDRangeKernel", "/src/app.c", 44}};
    LaunchFacts facts = launchOf(n);
    REQUIRE((*rec)->append(inst, facts));
    written.push_back(inst);
  }
  std::ifstream in(dir / "cap/captures.json");
  std::stringstream raw;
  raw << in.rdbuf();
  auto records = nlohmann::json::parse(raw.str());
  REQUIRE(records.size() == 3);
  CHECK(records[0].contains("host_api_calls"));
  CHECK_FALSE(records[1].contains("host_api_calls"));
  CHECK_FALSE(records[2].contains("host_api_calls"));

  Capture c = loadCapture(dir / "cap/captures.json");
  REQUIRE(errorMessages(c.diagnostics).empty());
  REQUIRE(c.captures.instantiations.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    INFO("instantiation " << i);
    REQUIRE(c.captures.instantiations[i].hostApiCalls);
    CHECK(*c.captures.instantiations[i].hostApiCalls == *written[i].hostApiCalls);
  }
}
