//===- InstrumentOptions.h - clcapture-instrument's command line -*- C++ -*-===//
//
// `clcapture-instrument SOURCE --kernel NAME [--options "BUILD OPTIONS"] [--record-items EXPR]
// [--inject SITE:SEQ:ITEM:LVALUE=VALUE]… --output-source FILE --output-layout FILE [--address-bits 32|64]`
// (docs/device-debugging.md, "The instrumented kernel"). No Clang here.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace clcapture::instrument {

/// Exit codes: 0 written; 1 command-line error (a kernel name the source does not define, an --inject or
/// --record-items that does not compile where it goes); 2 the instrumented source does not compile for
/// another reason (a construct clcapture-instrument gets wrong: Clang's messages name the instrumented
/// file); 10 the source does not parse, cannot be read, or its kernel cannot be instrumented.
constexpr int kExitWritten = 0;
constexpr int kExitCommandLine = 1;
constexpr int kExitInstrumentedInvalid = 2;
constexpr int kExitSource = 10;

/// `--inject SITE:SEQ:ITEM:LVALUE=VALUE`: after site SITE's statement, in work-item ITEM (linear global id
/// without offset), when its record will have sequence number SEQ, `LVALUE = (VALUE);`.
struct Injection {
  unsigned site = 0;
  unsigned sequence = 0;
  unsigned item = 0;
  std::string lvalue;
  std::string value;
  std::string spec; ///< as written, for messages
};

struct InstrumentOptions {
  std::string source;
  std::string kernel;
  std::string buildOptions;
  std::string recordItems = "1";
  std::vector<Injection> injections;
  std::string outputSource;
  std::string outputLayout;
  unsigned addressBits = 64;
};

struct InstrumentCommandLine {
  InstrumentOptions options;
  std::optional<int> exitCode; ///< set when the program should stop (help, version, an error)
};

/// Parses argv. An option's value may begin with '-' (`--options -DN=4`): the value options are joined
/// to their next word before CLI11 sees them.
InstrumentCommandLine parseInstrumentCommandLine(int argc, const char *const *argv, std::ostream &out,
                                                 std::ostream &err);

/// One `--inject` value, or nothing with `why` set.
std::optional<Injection> parseInjection(const std::string &spec, std::string &why);

/// Why a user expression cannot be pasted into one line of the kernel (a line break, a comment), or "".
std::string unpastableReason(const std::string &text);

} // namespace clcapture::instrument
