//===- DebugMain.cpp - clcapture-debug: step through a captured launch --------===//
//
// clcapture-debug CAPTURE [--launch N] [-x FILE] [--batch]
// CAPTURE is a capture folder, its captures.json or a `clcapture pack` archive; N the instantiation index
// (default: the capture's first). Exit status: the session's (0; 1 when a scripted command failed), 1 for a
// bad command line, 10 for a capture that cannot be read or a launch that cannot be debugged.
//
//===----------------------------------------------------------------------===//
#include "CapturedLaunch.h"
#include "CommandInput.h"
#include "DapServer.h"
#include "DebugSession.h"
#include "FindingWitness.h"
#include "InterpreterLaunch.h"
#include "clcapture/cli/CommandLine.h"

#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

namespace {

constexpr int kExitCaptureInvalid = 10;

} // namespace

int main(int argc, char **argv) {
  using namespace clcapture::debug;
  CLI::App app{"clcapture-debug: step through a captured kernel launch in Oclgrind's interpreter, with gdb's "
               "commands",
               "clcapture-debug"};
  std::string capture;
  std::optional<std::size_t> launch;
  std::string script;
  bool batch = false;
  std::string output;
  std::optional<std::size_t> finding;
  bool commandTimes = false;
  bool dap = false;
  app.add_option("CAPTURE", capture, "a capture folder, its captures.json, or a `clcapture pack` archive")
      ->required();
  app.add_option("--launch", launch, "the instantiation to debug (its index; default: the capture's first)");
  app.add_option("-x,--command", script, "run the commands of FILE first");
  app.add_flag("--batch", batch,
               "end after the commands of -x FILE (or of standard input), as gdb -batch does");
  app.add_option(
         "--output", output,
         "after the launch, write each buffer argument to DIR/<index>/arg<N>.bin (as clcapture-replay does)")
      ->type_name("DIR");
  app.add_option("--finding", finding,
                 "follow finding K of clcapture-verify's report of the launch (1 = its first): focus its "
                 "work-item, stop at each of its accesses");
  app.add_flag("--command-times", commandTimes,
               "after each command, how long it took (a step: until it stopped), for benchmarks");
  app.add_flag("--dap", dap, "speak the Debug Adapter Protocol on standard input and output (VS Code, …)");
  app.set_version_flag("--version", std::string("clcapture-debug ") + CLCAPTURE_VERSION);
  if (auto exit = clcapture::cli::parseOrExit(app, argc, argv, "clcapture-debug", std::cout, std::cerr))
    return *exit;

  auto opened = openCapturedLaunch(capture, launch);
  if (!opened) {
    std::cerr << "clcapture-debug: error: " << opened.error() << '\n';
    return kExitCaptureInvalid;
  }
  auto interpreter = InterpreterLaunch::create(*opened);
  if (!interpreter) {
    std::cerr << "clcapture-debug: error: " << interpreter.error() << '\n';
    return kExitCaptureInvalid;
  }

  std::ifstream scriptFile;
  std::unique_ptr<CommandInput> input;
  std::ostringstream dapOutput; // what the session prints, sent to the DAP client as output events
  DapServer *server = nullptr;
  if (dap) {
    auto owned = std::make_unique<DapServer>(std::cin, std::cout, dapOutput);
    server = owned.get();
    input = std::move(owned);
  } else if (!script.empty()) {
    scriptFile.open(script);
    if (!scriptFile) {
      std::cerr << "clcapture-debug: error: -x: cannot read " << script << '\n';
      return 1;
    }
    input = scriptInput(scriptFile, std::cout);
    if (!batch)
      input = chainedInput(std::move(input),
                           isatty(STDIN_FILENO) ? terminalInput() : scriptInput(std::cin, std::cout));
  } else {
    input = batch || !isatty(STDIN_FILENO) ? scriptInput(std::cin, std::cout) : terminalInput();
  }
  std::optional<FindingWitness> witness;
  if (finding) {
    auto found = findingWitness(capture, opened->plan.index, *finding);
    if (!found) {
      std::cerr << "clcapture-debug: error: " << found.error() << '\n';
      return kExitCaptureInvalid;
    }
    witness = std::move(*found);
  }
  DebugSession session(*opened, std::move(*interpreter), *input,
                       dap ? static_cast<std::ostream &>(dapOutput) : std::cout);
  if (server)
    server->attach(session);
  if (witness)
    session.followFinding(std::move(*witness));
  session.timeCommands(commandTimes);
  if (!output.empty())
    session.writeOutputsTo(output);
  return session.run();
}
