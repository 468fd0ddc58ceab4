//===- CommandLineTest.cpp - clcapture-verify's options (docs/contract.md §4) ----------===//

#include "clcapture/verify/ExitCode.h"
#include "clcapture/verify/VerifyOptions.h"

#include <catch2/catch.hpp>
#include <sstream>

using namespace clcapture::verify;

namespace {

struct Parsed {
  CommandLine cl;
  std::string out, err;
};

Parsed parse(std::vector<std::string> args) {
  args.insert(args.begin(), "clcapture-verify");
  std::vector<const char *> argv;
  for (const auto &a : args)
    argv.push_back(a.c_str());
  std::ostringstream out, err;
  Parsed p{parseCommandLine(static_cast<int>(argv.size()), argv.data(), out, err), {}, {}};
  p.out = out.str();
  p.err = err.str();
  return p;
}

} // namespace

TEST_CASE("every SPEC option parses", "[options]") {
  Parsed p = parse({"--format=sarif", "--output=r.sarif", "--only=3,1", "--only", "7", "-j", "3",
                    "--timeout=2.5", "--dump-ir=ir", "--dump-smt2", "smt", "--strict", "run/captures.json"});
  REQUIRE_FALSE(p.cl.exitCode);
  const VerifyOptions &o = p.cl.options;
  CHECK(o.captures == "run/captures.json");
  CHECK(o.format == ReportFormat::Sarif);
  CHECK(o.output == std::filesystem::path("r.sarif"));
  CHECK(o.only == std::vector<std::size_t>{3, 1, 7});
  CHECK(o.jobs == 3);
  CHECK(o.timeoutSeconds == 2.5);
  CHECK(o.dumpIrDir == std::filesystem::path("ir"));
  CHECK(o.dumpSmt2Dir == std::filesystem::path("smt"));
  CHECK(o.strict);
}

TEST_CASE("defaults: text, stdout, all instantiations, GPUVerify's 300 s", "[options]") {
  Parsed p = parse({"captures.json"});
  REQUIRE_FALSE(p.cl.exitCode);
  const VerifyOptions &o = p.cl.options;
  CHECK(o.format == ReportFormat::Text);
  CHECK_FALSE(o.output);
  CHECK(o.only.empty());
  CHECK(o.jobs >= 1);
  CHECK(o.timeoutSeconds == 300);
  CHECK_FALSE(o.dumpIrDir);
  CHECK_FALSE(o.strict);
  CHECK(o.checkRaces);
  CHECK(o.checkDivergence);
  CHECK(o.checkBounds); // memory safety is on by default (docs/memory-safety.md, session 25)
}

TEST_CASE("option checks: picks what verified covers, all is every check, anything else is refused",
          "[options]") {
  Parsed bounds = parse({"--checks=bounds", "captures.json"});
  REQUIRE_FALSE(bounds.cl.exitCode);
  CHECK(bounds.cl.options.checkBounds);
  CHECK_FALSE(bounds.cl.options.checkRaces);
  CHECK_FALSE(bounds.cl.options.checkDivergence);
  Parsed two = parse({"--checks", "races,bounds", "captures.json"});
  REQUIRE_FALSE(two.cl.exitCode);
  CHECK(two.cl.options.checkRaces);
  CHECK_FALSE(two.cl.options.checkDivergence);
  CHECK(two.cl.options.checkBounds);
  Parsed all = parse({"--checks=all", "captures.json"});
  REQUIRE_FALSE(all.cl.exitCode);
  CHECK(all.cl.options.checkRaces);
  CHECK(all.cl.options.checkDivergence);
  CHECK(all.cl.options.checkBounds);
  Parsed wrong = parse({"--checks=leaks", "captures.json"});
  CHECK(wrong.cl.exitCode == 1);
  CHECK(wrong.err.find("--checks") != std::string::npos);
}

TEST_CASE("command-line errors exit 1 with a message on stderr", "[options]") {
  for (auto args : std::vector<std::vector<std::string>>{{"--bogus", "c.json"},
                                                         {"--format=xml", "c.json"},
                                                         {"-j", "0", "c.json"},
                                                         {"--timeout=-1", "c.json"},
                                                         {"--only=-1", "c.json"},
                                                         {"--only=x", "c.json"},
                                                         {},
                                                         {"a.json", "b.json"}}) {
    Parsed p = parse(args);
    INFO(p.err);
    REQUIRE(p.cl.exitCode);
    CHECK(*p.cl.exitCode == kExitCommandLine);
    CHECK(p.out.empty());
    CHECK_THAT(p.err, Catch::StartsWith("clcapture-verify: error: "));
  }
}

TEST_CASE("help and version exit 0 on stdout", "[options]") {
  Parsed help = parse({"--help"});
  REQUIRE(help.cl.exitCode);
  CHECK(*help.cl.exitCode == 0);
  CHECK_THAT(help.out, Catch::Contains("--dump-smt2"));
  Parsed version = parse({"--version"});
  REQUIRE(version.cl.exitCode);
  CHECK(*version.cl.exitCode == 0);
  CHECK(version.out == std::string("clcapture-verify ") + CLCAPTURE_VERSION + "\n");
}
