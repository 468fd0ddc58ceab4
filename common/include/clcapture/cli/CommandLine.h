//===- CommandLine.h - Command-line conventions shared by the tools -*- C++ -*-===//
//
// clcapture-verify, clcapture-replay and the bug-report tools parse with CLI11 and agree on two things
// (docs/contract.md §4): every command-line error exits 1 with one line naming the problem and the --help
// hint (CLI11's own codes 105, 109, … are not ours), and instantiation index lists (--only 0,3,5) are plain
// decimal numbers (CLI11 would wrap "-1" around to a huge index). Header-only, target clcapture::cli; never
// linked into the capture layer.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace clcapture::cli {

constexpr int kExitCommandLineError = 1;

/// "TOOL: error: MESSAGE" and the --help hint on `err`; returns the exit code (1).
inline int commandLineError(const std::string &tool, const std::string &message, std::ostream &err) {
  err << tool << ": error: " << message << "\nrun '" << tool << " --help' for the options\n";
  return kExitCommandLineError;
}

/// Parses; returns the exit code when the program should stop here (help, version: 0; an error: 1, after
/// "TOOL: error: …" on `err`), nothing when it should go on.
inline std::optional<int> parseOrExit(CLI::App &app, int argc, const char *const *argv,
                                      const std::string &tool, std::ostream &out, std::ostream &err) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp &e) {
    return app.exit(e, out, err);
  } catch (const CLI::CallForAllHelp &e) {
    return app.exit(e, out, err);
  } catch (const CLI::CallForVersion &e) {
    return app.exit(e, out, err);
  } catch (const CLI::ParseError &e) {
    return commandLineError(tool, e.what(), err);
  }
  return std::nullopt;
}

/// The values of an index-list option (`--only`) as indices; nothing, after "TOOL: error: …" on `err`, when
/// one is not a plain decimal number. With `pids`, a value `pid=N` picks every launch of process N (a
/// capture many processes wrote, docs/contract.md §3) and goes there instead.
inline std::optional<std::vector<std::size_t>> parseIndices(const std::vector<std::string> &texts,
                                                            const std::string &tool,
                                                            const std::string &option, std::ostream &err,
                                                            std::vector<std::uint64_t> *pids = nullptr) {
  auto decimal = [](const std::string &text) {
    return !text.empty() && text.size() <= 18 && text.find_first_not_of("0123456789") == std::string::npos;
  };
  std::vector<std::size_t> indices;
  for (const std::string &text : texts) {
    if (pids && text.rfind("pid=", 0) == 0 && decimal(text.substr(4))) {
      pids->push_back(std::stoull(text.substr(4)));
      continue;
    }
    if (!decimal(text)) {
      err << tool << ": error: " << option << ": expected instantiation indices such as 0,3,5"
          << (pids ? " or processes such as pid=4242" : "") << ", got '" << text << "'\n";
      return std::nullopt;
    }
    indices.push_back(static_cast<std::size_t>(std::stoull(text)));
  }
  return indices;
}

} // namespace clcapture::cli
