//===- ProgressReporter.cpp - What a long verification is doing, on stderr -===//

#include "clcapture/verify/ProgressReporter.h"

#include <algorithm>

namespace clcapture::verify {

ProgressReporter::ProgressReporter(std::ostream *stream, bool terminal, double intervalSeconds,
                                   std::size_t analyses, std::size_t launches)
    : m_stream(terminal && analyses < kProgressMinimum ? nullptr : stream), m_terminal(terminal),
      m_interval(intervalSeconds), m_launches(launches) {
  if (!m_stream)
    return;
  if (m_terminal) {
    std::lock_guard<std::mutex> lock(m_mutex);
    showLocked();
  } else if (intervalSeconds > 0) {
    m_ticker = std::thread([this] { tick(); });
  }
}

ProgressReporter::~ProgressReporter() {
  finish();
}

void ProgressReporter::started(std::size_t id, const std::string &kernel) {
  if (!m_stream)
    return;
  std::lock_guard<std::mutex> lock(m_mutex);
  m_running[id] = {kernel, std::chrono::steady_clock::now()};
}

void ProgressReporter::finished(std::size_t id, const report::InstantiationResult &result,
                                std::size_t launches) {
  if (!m_stream)
    return;
  std::lock_guard<std::mutex> lock(m_mutex);
  m_running.erase(id);
  m_done += launches;
  report::addToSummary(m_summary, result, launches);
  if (m_terminal)
    showLocked();
}

void ProgressReporter::covered(const report::InstantiationResult &result, std::size_t launches) {
  finished(static_cast<std::size_t>(-1), result, launches);
}

void ProgressReporter::finish() {
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    if (m_stopped)
      return;
    m_stopped = true;
    if (m_stream && m_terminal)
      *m_stream << '\r' << std::string(m_width, ' ') << '\r' << std::flush;
  }
  m_wake.notify_all();
  if (m_ticker.joinable())
    m_ticker.join();
}

std::string ProgressReporter::lineLocked() const {
  std::string line = "clcapture-verify: " + std::to_string(m_done) + " of " + std::to_string(m_launches) +
                     " launches done (" + std::to_string(m_summary.verified) + " verified, " +
                     std::to_string(m_summary.defects) + " defects, " + std::to_string(m_summary.unknown) +
                     " unknown, " + std::to_string(m_summary.error) + " error)";
  if (!m_running.empty()) {
    auto longest = std::min_element(m_running.begin(), m_running.end(), [](const auto &a, const auto &b) {
      return a.second.second < b.second.second;
    });
    auto seconds = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() -
                                                                    longest->second.second)
                       .count();
    line += "; " + std::to_string(m_running.size()) + " running, the longest " + longest->second.first +
            " for " + std::to_string(seconds) + " s";
  }
  return line;
}

void ProgressReporter::showLocked() {
  std::string line = lineLocked();
  std::size_t width = line.size();
  if (line.size() < m_width)
    line += std::string(m_width - line.size(), ' ');
  m_width = std::max(m_width, width);
  *m_stream << '\r' << line << std::flush;
}

void ProgressReporter::tick() {
  std::unique_lock<std::mutex> lock(m_mutex);
  while (!m_stopped) {
    if (m_wake.wait_for(lock, m_interval, [this] { return m_stopped; }))
      break;
    *m_stream << lineLocked() << '\n' << std::flush;
  }
}

} // namespace clcapture::verify
