//===- VerifyMain.cpp - clcapture-verify: check captured launches for races and divergence -===//
//
// docs/contract.md §4. The driver (VerifyDriver.h) does the work; main() parses the command line, picks the
// analysis (pipeline::makeDefaultAnalyzer) and tells the progress whether stderr is a terminal
// (ProgressReporter.h).
//
//===----------------------------------------------------------------------===//

#include "clcapture/verify/VerifyDriver.h"

#include <iostream>
#include <unistd.h>

int main(int argc, char **argv) {
  using namespace clcapture;
  verify::CommandLine cl = verify::parseCommandLine(argc, argv, std::cout, std::cerr);
  if (cl.exitCode)
    return *cl.exitCode;
  cl.options.progressOnTerminal = ::isatty(STDERR_FILENO) == 1;
  auto analyzer = pipeline::makeDefaultAnalyzer();
  return verify::runVerify(cl.options, *analyzer, std::cout, std::cerr);
}
