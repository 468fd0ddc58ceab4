//===- ChildProbe.h - Run a check in a forked child, results back through a pipe -*- C++ -*-===//
//
// Loading a driver starts its threads, installs its atexit handlers and may crash or hang; none of that may
// happen to the launcher itself, which still has to run the command and report. So every check that loads a
// library runs in a forked child (the launcher is single-threaded when it forks), which sends one JSON
// object per line through a pipe and ends with _exit (no driver's exit handler runs). A child that crashes
// or hangs still leaves the lines it sent before, which say how far it got.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace clcapture::launcher {

struct ProbeResult {
  std::vector<nlohmann::json> records; ///< what the child sent, in order
  bool finished = false;               ///< the child returned from the probe and exited normally
  std::string failure; ///< otherwise how it ended: "killed by signal 11 (…)", "timed out …"
};

using Emit = std::function<void(const nlohmann::json &)>;

/// What the child does with its stdout and stderr (a driver may print while loading).
enum class ChildOutput {
  Discard,  ///< both to /dev/null: the launcher's own run stays quiet
  ToStderr, ///< stdout joins stderr, so that a report on stdout stays clean
};

/// Runs `probe` in a forked child and collects what it emits; kills the child after `timeoutSeconds`.
ProbeResult runProbe(const std::function<void(const Emit &)> &probe, ChildOutput output, int timeoutSeconds);

/// A record's field, or `otherwise` when it is absent or of another type. (json::value() trips GCC's
/// -Wnull-dereference once inlined; these look the field up through get_ptr.)
std::string field(const nlohmann::json &record, const char *key, const std::string &otherwise = {});
bool flagField(const nlohmann::json &record, const char *key, bool otherwise = false);
long long numberField(const nlohmann::json &record, const char *key, long long otherwise = 0);

} // namespace clcapture::launcher
