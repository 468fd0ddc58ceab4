//===- SourceInstrumenter.h - One OpenCL C source, instrumented -*- C++ -*-===//
//
// docs/device-debugging.md, "The instrumented kernel": Clang 16 parses the source; the kernel gets the trace
// parameter, every function defined in the main file (other kernels excepted) the trace pointer and sequence
// counter, every call of one of them passes them on; FunctionWalker finds each function's sites; the record
// functions go before the functions that call them; clang::Rewriter makes the insertions. The result is
// parsed again, and a message from Clang on it fails the whole (an --inject or --record-items that does not
// compile where it goes is named).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "InstrumentOptions.h"
#include "clcapture/trace/TraceLayout.h"

#include <string>
#include <vector>

namespace clcapture::instrument {

struct InstrumentRequest {
  std::string file;                   ///< the source's path, as given (includes resolve beside it)
  std::string text;                   ///< its content
  std::vector<std::string> buildArgs; ///< Clang's arguments from the build options
  unsigned addressBits = 64;
  std::string kernel;
  std::string recordItems = "1";
  std::vector<Injection> injections;
};

struct InstrumentOutcome {
  int exitCode = kExitWritten;
  std::vector<std::string> errors; ///< lines for standard error when exitCode is not 0
  std::string source;              ///< the instrumented source
  trace::TraceLayout layout;
};

InstrumentOutcome instrumentSource(const InstrumentRequest &request);

} // namespace clcapture::instrument
