//===- ReplayOptions.cpp - clcapture-replay's command line ----------------===//

#include "clcapture/replay/ReplayOptions.h"

#include "clcapture/cli/CommandLine.h"

#include <CLI/CLI.hpp>
#include <ostream>

namespace clcapture::replay {

ReplayCommandLine parseReplayCommandLine(int argc, const char *const *argv, std::ostream &out,
                                         std::ostream &err) {
  ReplayCommandLine cl;
  ReplayOptions &o = cl.options;
  CLI::App app{
      "Runs captured OpenCL kernel launches again on an OpenCL device, from the capture alone, and\n"
      "compares what they wrote with the capture (exit 0: every launch replayed and, with --compare,\n"
      "the same; 1: command-line error; 6: some launch differs or could not be replayed; 10: invalid\n"
      "capture)",
      "clcapture-replay"};
  std::string format = "text", output;
  std::vector<std::string> only;
  std::string icd;
  app.add_option("CAPTURE", o.capture, "a capture folder, its captures.json or a clcapture pack archive")
      ->required()
      ->type_name("");
  app.add_option("--only", only,
                 "replay only these instantiations (indices in captures.json, from 0; pid=N: every launch of "
                 "process N)")
      ->delimiter(',')
      ->type_name("I[,J...]");
  auto *icdOption =
      app.add_option("--icd", icd,
                     "open this ICD library (or .icd file) directly instead of the system loader")
          ->type_name("FILE");
  app.add_option("--platform", o.platform, "platform index (default 0)")->type_name("N");
  app.add_option("--device", o.device, "device index in the platform (default 0)")->type_name("N");
  app.add_option("--output", output,
                 "write each written buffer to DIR/<index>/arg<N>.bin and DIR/replay.json")
      ->type_name("DIR");
  app.add_flag("--compare", o.compare, "compare written buffers with the capture's data_after bytes");
  app.add_option("--ulp", o.ulp,
                 "tolerance for float, double and half values, in units in the last place "
                 "(default 0: bit for bit)")
      ->type_name("N");
  app.add_option("--repeat", o.repeat,
                 "run each launch K times from the same inputs; report bytes that differ")
      ->check(CLI::Range(1u, 1000000u))
      ->type_name("K");
  app.add_option("--format", format, "output format (default text)")
      ->check(CLI::IsMember({"text", "json"}))
      ->type_name("text|json");
  app.add_option("--add-build-options", o.addBuildOptions,
                 "append these options to the captured compiler_flags when building")
      ->type_name("TEXT");
  std::string instrumented;
  auto *instrumentedOption =
      app.add_option("--instrumented", instrumented,
                     "also run the launch from this clcapture-instrument source (its trace buffer last) and "
                     "check it writes what the plain launch writes; needs one --only launch")
          ->type_name("FILE");
  app.add_option("--trace-bytes", o.traceBytes, "the trace buffer's size for --instrumented (default 64M)")
      ->transform(CLI::AsSizeValue(false))
      ->type_name("N[K|M|G]");
  app.set_version_flag("--version", std::string("clcapture-replay ") + CLCAPTURE_VERSION);

  if (auto exit = cli::parseOrExit(app, argc, argv, "clcapture-replay", out, err)) {
    cl.exitCode = *exit;
    return cl;
  }
  auto indices = cli::parseIndices(only, "clcapture-replay", "--only", err, &o.onlyProcesses);
  if (!indices) {
    cl.exitCode = kExitCommandLine;
    return cl;
  }
  o.only = std::move(*indices);
  if (icdOption->count() > 0)
    o.icd = icd;
  if (!output.empty())
    o.output = output;
  if (instrumentedOption->count() > 0) {
    o.instrumented = instrumented;
    if (o.only.size() != 1 || !o.onlyProcesses.empty()) {
      err << "clcapture-replay: error: --instrumented: select the one launch it instruments with --only I\n";
      cl.exitCode = kExitCommandLine;
      return cl;
    }
  }
  o.format = format == "json" ? ReplayFormat::Json : ReplayFormat::Text;
  return cl;
}

} // namespace clcapture::replay
