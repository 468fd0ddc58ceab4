//===- InstrumentMain.cpp - clcapture-instrument: a kernel that records itself ===//
//
// Reads the source, turns the build options into Clang's arguments (the analyzer frontend's
// parseCompilerFlags), instruments, and writes the instrumented source and the trace layout only when the
// instrumented source compiles. Exit codes: InstrumentOptions.h.
//
//===----------------------------------------------------------------------===//

#include "InstrumentOptions.h"
#include "SourceInstrumenter.h"
#include "clcapture/format/BlobStore.h"
#include "clcapture/frontend/CompilerFlags.h"

#include <fstream>
#include <iostream>
#include <sstream>

using namespace clcapture::instrument;
namespace fmt = clcapture::format;

namespace {

constexpr const char *kError = "clcapture-instrument: error: ";

bool readSource(const std::string &path, std::string &text) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream content;
  content << in.rdbuf();
  text = content.str();
  return !in.bad();
}

bool write(const std::string &path, const std::string &text, const char *what) {
  fmt::Status written = fmt::writeFileAtomically(path, text.data(), text.size());
  if (!written)
    std::cerr << kError << what << ' ' << path << ": " << written.error() << '\n';
  return written.ok();
}

} // namespace

int main(int argc, char **argv) {
  InstrumentCommandLine cl = parseInstrumentCommandLine(argc, argv, std::cout, std::cerr);
  if (cl.exitCode)
    return *cl.exitCode;
  const InstrumentOptions &o = cl.options;

  InstrumentRequest request;
  request.file = o.source;
  if (!readSource(o.source, request.text)) {
    std::cerr << kError << "cannot read " << o.source << '\n';
    return kExitSource;
  }
  auto flags = clcapture::frontend::parseCompilerFlags(o.buildOptions);
  if (!flags) {
    std::cerr << kError << "--options: " << flags.error() << '\n';
    return kExitCommandLine;
  }
  request.buildArgs = flags->clangArgs;
  request.addressBits = o.addressBits;
  request.kernel = o.kernel;
  request.recordItems = o.recordItems;
  request.injections = o.injections;

  InstrumentOutcome outcome = instrumentSource(request);
  if (outcome.exitCode != kExitWritten) {
    for (const std::string &line : outcome.errors)
      std::cerr << line << '\n';
    return outcome.exitCode;
  }
  if (!write(o.outputSource, outcome.source, "--output-source") ||
      !write(o.outputLayout, clcapture::trace::layoutJson(outcome.layout), "--output-layout"))
    return kExitCommandLine;
  std::cout << "instrumented kernel '" << o.kernel << "': " << outcome.layout.sites.size()
            << " record sites in " << outcome.layout.functions.size() << " function"
            << (outcome.layout.functions.size() == 1 ? "" : "s") << "; trace argument "
            << outcome.layout.traceArgument << '\n';
  return kExitWritten;
}
