//===- ProgressReporter.h - What a long verification is doing, on stderr -*- C++ -*-===//
//
// A run over an application's launches can take many minutes; a user whose report goes to a file and whose
// stderr is a log must still see that it moves. On a terminal the line is rewritten in place after each
// analysis (runs of fewer than kProgressMinimum analyses show none); elsewhere a whole line is written every
// interval while the run lasts (none for a run shorter than one interval):
//   clcapture-verify: 120 of 843 launches done (100 verified, 3 defects, 17 unknown, 0 error); 2 running,
//   the longest k (kernels/k.cl) for 45 s
// Off with --quiet.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/report/AnalysisResult.h"

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <map>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

namespace clcapture::verify {

/// Fewer distinct analyses than this finish too soon for a line rewritten in place to help.
constexpr std::size_t kProgressMinimum = 4;

class ProgressReporter {
public:
  /// `stream` null: nothing is shown. `launches`: the launches the run covers.
  ProgressReporter(std::ostream *stream, bool terminal, double intervalSeconds, std::size_t analyses,
                   std::size_t launches);
  ~ProgressReporter();
  ProgressReporter(const ProgressReporter &) = delete;
  ProgressReporter &operator=(const ProgressReporter &) = delete;

  /// Analysis `id` of `kernel` starts now.
  void started(std::size_t id, const std::string &kernel);
  /// Analysis `id` ended (or was answered without one) with `result`, which stands for `launches` launches.
  void finished(std::size_t id, const report::InstantiationResult &result, std::size_t launches);
  /// `launches` more launches are done without an analysis of their own (a group's proof covers them).
  void covered(const report::InstantiationResult &result, std::size_t launches);
  /// Clears the terminal's line and stops the periodic lines.
  void finish();

private:
  std::string lineLocked() const;
  void showLocked();
  void tick();

  std::ostream *m_stream;
  bool m_terminal;
  std::chrono::duration<double> m_interval;
  std::size_t m_launches, m_done = 0;
  report::Summary m_summary;
  std::map<std::size_t, std::pair<std::string, std::chrono::steady_clock::time_point>> m_running;
  std::size_t m_width = 0;
  bool m_stopped = false;
  mutable std::mutex m_mutex;
  std::condition_variable m_wake;
  std::thread m_ticker;
};

} // namespace clcapture::verify
