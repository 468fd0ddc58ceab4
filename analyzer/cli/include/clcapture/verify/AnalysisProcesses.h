//===- AnalysisProcesses.h - Each analysis in a process of its own, stopped at its limit -*- C++ -*-===//
//
// An analysis honours --timeout and --max-memory itself, between phases and before each solver query, but
// one solver call is not interrupted (CVC5 1.0 has no interrupt): a query ran 1.9 s past a parametric group
// attempt's 4.5 s budget, and SHOC's sort kernel 64 s past a 60 s limit (docs/verify-benchmark.md). So
// clcapture-verify runs each analysis in a child process and ends it at the limit: the limit holds to the
// moment, the memory it used is given back whole, and a crash inside LLVM, Clang or CVC5 is that launch's
// `error`, not the end of the run.
//
// fork() is safe only while a process has one thread, and starting a fresh executable costs 40 ms of
// dynamic linking per analysis (the corpus median is 41 ms for a whole run). So start() forks a *zygote*
// while the driver is still single-threaded (the capture loaded, before the pool's threads and the progress
// ticker exist); for each run() the zygote forks one child, which shares the driver's memory as it was then
// (so a request names what to analyse instead of carrying it), and passes the child's socket to the driver
// (SCM_RIGHTS). The child reads its request, calls the handler once, writes the reply and exits. The zygote
// and the children die with their parent (PR_SET_PDEATHSIG) and never write to stdout.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <sys/types.h>

namespace clcapture::verify {

class AnalysisProcesses {
public:
  /// What a child does with a request: its reply. Runs in the child, on its copy of the driver's memory.
  using Handler = std::function<std::string(const std::string &request)>;

  /// Forks the zygote. Nothing (and `why` says why) when this process has more than one thread or fork
  /// fails: the caller then analyses in-process.
  static std::unique_ptr<AnalysisProcesses> start(Handler handler, std::string &why);
  /// Ends the zygote (children still running end with it).
  ~AnalysisProcesses();
  AnalysisProcesses(const AnalysisProcesses &) = delete;
  AnalysisProcesses &operator=(const AnalysisProcesses &) = delete;

  struct Limits {
    /// The child is killed when it has not replied by then.
    std::optional<std::chrono::steady_clock::time_point> deadline;
    /// The child is killed when its private memory grows past this many bytes (0: no limit).
    std::uint64_t memoryBytes = 0;
  };

  enum class Ending {
    Replied,     ///< `reply` holds the handler's reply
    TimedOut,    ///< killed at Limits::deadline
    OverMemory,  ///< killed past Limits::memoryBytes (`memoryBytes` is what it held)
    Crashed,     ///< ended without a reply: `signal` is the signal that ended it, when known (else 0)
    Unavailable, ///< no child could be made (`detail` says why): run the analysis in-process
  };
  struct Outcome {
    Ending ending = Ending::Unavailable;
    std::string reply;
    int signal = 0;
    std::uint64_t memoryBytes = 0;
    std::string detail;
    /// The last step the child reported (reportStep) before it replied or was ended; empty if none.
    std::string step;
  };

  /// Runs the handler on `request` in a new child and waits for its reply within `limits`. Thread-safe.
  Outcome run(const std::string &request, const Limits &limits);

  /// Called by a handler in a child: tells the driver what it does now (a query, compiling), so that a
  /// child ended at its limit, or crashed, is reported with the step it was at (Outcome::step). Nothing
  /// outside a child.
  static void reportStep(const std::string &step);

private:
  AnalysisProcesses(int control, pid_t zygote) : m_control(control), m_zygote(zygote) {}
  struct Child {
    int socket = -1;
    pid_t pid = 0;
  };
  std::optional<Child> newChild(std::string &why);

  int m_control;      ///< the driver's end of the socket to the zygote
  pid_t m_zygote;     ///< the zygote's process id
  std::mutex m_mutex; ///< one child requested from the zygote at a time
};

} // namespace clcapture::verify
