// The append-only JSON file, and recovery of a file cut at any byte.
#include "clcapture/format/JsonArrayFile.h"

#include "TestSupport.h"
#include "clcapture/format/CaptureReader.h"
#include "clcapture/format/CaptureWriter.h"

#include <catch2/catch.hpp>

using namespace clcapture::format;
using clcapture::test::readFile;
using clcapture::test::TempDir;

namespace {
Instantiation record(const std::string &name, std::uint64_t size) {
  Instantiation inst;
  inst.kernelFile = "kernels/" + name + ".cl";
  inst.globalSize = Dims{size};
  inst.entryPoint = name;
  inst.compilerFlags = "-DNAME=\"" + name + "\" -DBRACKETS=\"}]{[\""; // brackets inside strings
  inst.kernelArguments = std::vector<KernelArgument>{ScalarArgument{std::string("0x0000002A")}};
  return inst;
}
} // namespace

TEST_CASE("array file: valid JSON after every append, same bytes as the whole-file writer", "[arrayfile]") {
  TempDir dir;
  auto file = JsonArrayFile::create(dir / "captures.json", capturesHead(), capturesTail());
  REQUIRE(file);
  std::vector<Instantiation> written;
  CHECK(readFile(dir / "captures.json") == serializeCaptures(written));
  for (int i = 0; i < 3; ++i) {
    written.push_back(record("k" + std::to_string(i), 64u << i));
    REQUIRE((*file)->append(serializeInstantiation(written.back())));
    CHECK(readFile(dir / "captures.json") == serializeCaptures(written));
  }
  CHECK((*file)->size() == 3);
}

TEST_CASE("array file: a cut at every byte recovers exactly the complete records", "[arrayfile][recovery]") {
  std::vector<Instantiation> insts{record("a", 4), record("b", 8), record("c", 16)};
  const std::string full = serializeCaptures(insts);
  // Offsets just past each record's closing brace.
  std::vector<std::size_t> ends;
  std::size_t pos = capturesHead().size();
  for (const auto &inst : insts) {
    pos += serializeInstantiation(inst).size();
    ends.push_back(pos);
    pos += 2; // ",\n" or "\n"
  }
  ReadOptions options;
  options.checkFiles = false;
  for (std::size_t cut = 0; cut <= full.size(); ++cut) {
    CaptureSet set = parseCaptures(std::string_view(full).substr(0, cut), "captures.json", options);
    std::size_t expected = 0;
    for (std::size_t e : ends)
      if (cut >= e)
        ++expected;
    INFO("cut at byte " << cut << "\n" << set.diagnosticsText());
    REQUIRE_FALSE(set.hasErrors());
    REQUIRE(set.instantiations.size() == expected);
    for (std::size_t i = 0; i < expected; ++i)
      REQUIRE(set.instantiations[i] == insts[i]);
    CHECK(set.truncated == (cut < full.size() - 1)); // only the final newline may go missing unnoticed
  }
}

TEST_CASE("array file: recovery refuses text that is not merely cut short", "[arrayfile][recovery]") {
  CHECK_FALSE(recoverTruncatedJson("[{\"a\": 1}]", 1));      // complete
  CHECK_FALSE(recoverTruncatedJson("[{\"a\": 1]", 1));       // mismatched bracket
  CHECK_FALSE(recoverTruncatedJson("{\"a\": {\"b\": 1", 2)); // no record container at that depth
  auto r = recoverTruncatedJson("{\"x\": {\"y\": 1}, \"launches\": [{\"a\": 1}, {\"b\"", 2);
  REQUIRE(r);
  CHECK(r->records == 1);
  CHECK(r->text == "{\"x\": {\"y\": 1}, \"launches\": [{\"a\": 1}]}\n");
}

TEST_CASE("array file: creation fails with the path when the folder is not a folder", "[arrayfile]") {
  TempDir dir;
  clcapture::test::writeFile(dir / "plain", "x");
  auto file = JsonArrayFile::create(dir / "plain/captures.json", "[\n", "]\n");
  REQUIRE_FALSE(file);
  CHECK(file.error() == "cannot create " + (dir / "plain/captures.json").string() + ": Not a directory");
}
