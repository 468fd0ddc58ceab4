//===- DapTarget.h - What the DAP server asks of a session -*- C++ -*-===//
//
// The Debug Adapter Protocol server (DapServer) drives a session through this: a command run quietly (its
// text read back), whether the session has started or ended, why it last stopped, whom it has in focus,
// where the kernel's source is. The interpreter's session (DebugSession) and the device recording's
// (RecordingSession) both answer it, so VS Code steps either engine.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <filesystem>
#include <string>

namespace clcapture::debug {

class DapTarget {
public:
  virtual ~DapTarget() = default;
  /// Runs a command that does not move the session (break, delete, watch, print, set var, info,
  /// backtrace) and gives back what it printed; `failed`: it printed an error.
  virtual std::string runQuietly(const std::string &line, bool &failed) = 0;
  virtual bool started() const = 0;
  virtual bool finished() const = 0;
  /// The last stop as DAP names reasons: breakpoint, data breakpoint, exception, step, pause.
  virtual std::string stopReason() const = 0;
  /// "work-item (3)": the thread the client shows.
  virtual std::string focusName() const = 0;
  /// The kernel file, as the client opens it (frames name it by its file name).
  virtual std::filesystem::path kernelFile() const = 0;
};

} // namespace clcapture::debug
