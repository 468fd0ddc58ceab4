//===- InstrumentOptions.cpp - clcapture-instrument's command line --------===//

#include "InstrumentOptions.h"

#include "clcapture/cli/CommandLine.h"

#include <CLI/CLI.hpp>

namespace clcapture::instrument {

namespace {

constexpr const char *kTool = "clcapture-instrument";

/// `--options -DN=4` as `--options=-DN=4`: CLI11 takes a word beginning with '-' for an option, and build
/// options always begin with one.
std::vector<std::string> joinedArguments(int argc, const char *const *argv) {
  static const char *const kValued[] = {"--kernel",        "--options",       "--record-items", "--inject",
                                        "--output-source", "--output-layout", "--address-bits"};
  std::vector<std::string> words;
  for (int i = 1; i < argc; ++i) {
    std::string word = argv[i];
    bool valued = false;
    for (const char *name : kValued)
      valued = valued || word == name;
    // (An empty value stays a word of its own: CLI11 reads `--options=` as wanting the next word.)
    if (valued && i + 1 < argc && argv[i + 1][0] != '\0') {
      words.push_back(word + "=" + argv[++i]);
      continue;
    }
    words.push_back(word);
  }
  return words;
}

bool decimal(const std::string &text, unsigned &value) {
  if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos)
    return false;
  value = static_cast<unsigned>(std::stoul(text));
  return true;
}

/// The position of the assignment's '=' in `LVALUE=VALUE`: the first '=' that is not part of ==, <=, >=
/// or !=, or npos.
std::size_t assignmentSign(const std::string &text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '=')
      continue;
    if (i + 1 < text.size() && text[i + 1] == '=') {
      ++i;
      continue;
    }
    if (i > 0 && (text[i - 1] == '<' || text[i - 1] == '>' || text[i - 1] == '!'))
      continue;
    return i;
  }
  return std::string::npos;
}

std::string trimmed(const std::string &text) {
  std::size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string::npos)
    return "";
  std::size_t end = text.find_last_not_of(" \t");
  return text.substr(begin, end - begin + 1);
}

} // namespace

std::string unpastableReason(const std::string &text) {
  if (text.find_first_of("\r\n") != std::string::npos)
    return "a line break";
  if (text.find("//") != std::string::npos || text.find("/*") != std::string::npos)
    return "a comment";
  if (text.find('#') != std::string::npos)
    return "a '#'";
  return "";
}

std::optional<Injection> parseInjection(const std::string &spec, std::string &why) {
  Injection injection;
  injection.spec = spec;
  std::size_t at = 0;
  unsigned *numbers[] = {&injection.site, &injection.sequence, &injection.item};
  const char *names[] = {"SITE", "SEQ", "ITEM"};
  for (int n = 0; n < 3; ++n) {
    std::size_t colon = spec.find(':', at);
    if (colon == std::string::npos || !decimal(spec.substr(at, colon - at), *numbers[n])) {
      why = "expected SITE:SEQ:ITEM:LVALUE=VALUE with decimal SITE, SEQ and ITEM; " + std::string(names[n]) +
            " is not a number";
      return std::nullopt;
    }
    at = colon + 1;
  }
  std::string assignment = spec.substr(at);
  std::size_t sign = assignmentSign(assignment);
  if (sign == std::string::npos) {
    why = "expected LVALUE=VALUE after SITE:SEQ:ITEM";
    return std::nullopt;
  }
  injection.lvalue = trimmed(assignment.substr(0, sign));
  injection.value = trimmed(assignment.substr(sign + 1));
  if (injection.lvalue.empty() || injection.value.empty()) {
    why = injection.lvalue.empty() ? "the LVALUE before '=' is empty" : "the VALUE after '=' is empty";
    return std::nullopt;
  }
  std::string reason = unpastableReason(injection.lvalue + " " + injection.value);
  if (!reason.empty()) {
    why = "LVALUE=VALUE may not contain " + reason;
    return std::nullopt;
  }
  return injection;
}

InstrumentCommandLine parseInstrumentCommandLine(int argc, const char *const *argv, std::ostream &out,
                                                 std::ostream &err) {
  InstrumentCommandLine cl;
  InstrumentOptions &o = cl.options;
  CLI::App app{"Instruments one OpenCL C kernel: an instrumented source that records, for the work-items\n"
               "chosen, each executed statement's changed variables into one more kernel argument (a trace\n"
               "buffer), and the trace layout in JSON (docs/device-debugging.md). Exit 0: both written;\n"
               "1: command-line error; 2: the instrumented source does not compile (please report it);\n"
               "10: the source does not parse or its kernel cannot be instrumented",
               kTool};
  std::vector<std::string> injections;
  app.add_option("SOURCE", o.source, "the OpenCL C source file")->required()->type_name("");
  app.add_option("--kernel", o.kernel, "the kernel to instrument")->required()->type_name("NAME");
  app.add_option("--options", o.buildOptions, "the program's build options (-D, -I, -cl-std, ...)")
      ->type_name("\"OPTIONS\"");
  app.add_option("--record-items", o.recordItems,
                 "OpenCL C predicate choosing the work-items that record (default 1: every one), e.g. "
                 "'get_group_id(0) == 0'")
      ->type_name("EXPR");
  app.add_option("--inject", injections,
                 "after site SITE's statement, in work-item ITEM (linear global id) at record sequence SEQ, "
                 "set LVALUE = (VALUE); repeatable")
      ->type_name("SITE:SEQ:ITEM:LVALUE=VALUE");
  app.add_option("--output-source", o.outputSource, "where the instrumented source goes")
      ->required()
      ->type_name("FILE");
  app.add_option("--output-layout", o.outputLayout, "where the trace layout (JSON) goes")
      ->required()
      ->type_name("FILE");
  app.add_option("--address-bits", o.addressBits,
                 "the device's address bits, for the sizes of structs that hold pointers (default 64)")
      ->check(CLI::IsMember({32u, 64u}))
      ->type_name("32|64");
  app.set_version_flag("--version", std::string(kTool) + " " + CLCAPTURE_VERSION);

  std::vector<std::string> words = joinedArguments(argc, argv);
  std::vector<const char *> joined{argc > 0 ? argv[0] : kTool};
  for (const std::string &w : words)
    joined.push_back(w.c_str());
  if (auto exit = cli::parseOrExit(app, static_cast<int>(joined.size()), joined.data(), kTool, out, err)) {
    cl.exitCode = *exit;
    return cl;
  }
  for (const std::string &spec : injections) {
    std::string why;
    auto injection = parseInjection(spec, why);
    if (!injection) {
      cl.exitCode = cli::commandLineError(kTool, "--inject " + spec + ": " + why, err);
      return cl;
    }
    o.injections.push_back(std::move(*injection));
  }
  if (o.recordItems.find_first_not_of(" \t") == std::string::npos) {
    cl.exitCode = cli::commandLineError(kTool, "--record-items is empty (1 records every work-item)", err);
    return cl;
  }
  if (std::string reason = unpastableReason(o.recordItems); !reason.empty()) {
    cl.exitCode = cli::commandLineError(kTool, "--record-items may not contain " + reason, err);
    return cl;
  }
  return cl;
}

} // namespace clcapture::instrument
