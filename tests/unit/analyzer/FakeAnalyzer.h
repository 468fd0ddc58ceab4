//===- FakeAnalyzer.h - A scripted InstantiationAnalyzer for driver tests -*- C++ -*-===//
//
// The driver's tests never run the real analysis (nor the placeholder): a script decides each result, and
// the fake records what it was asked, how often, and how many calls overlapped.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/pipeline/InstantiationAnalyzer.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <mutex>
#include <vector>

namespace clcapture::test {

class FakeAnalyzer final : public pipeline::InstantiationAnalyzer {
public:
  using Script = std::function<report::InstantiationResult(const pipeline::AnalysisRequest &)>;

  explicit FakeAnalyzer(Script script) : m_script(std::move(script)) {}
  /// Everything verified.
  FakeAnalyzer()
      : FakeAnalyzer([](const pipeline::AnalysisRequest &) {
          report::InstantiationResult r;
          r.verdict = report::Verdict::Verified;
          return r;
        }) {}

  report::InstantiationResult analyze(const pipeline::AnalysisRequest &request) override {
    int now = ++m_inFlight;
    int seen = m_maxInFlight.load();
    while (now > seen && !m_maxInFlight.compare_exchange_weak(seen, now)) {
    }
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      m_requests.push_back(Seen{request.index, request.options, request.deadline.has_value(),
                                request.kernelSourcePath, request.facts != nullptr});
    }
    struct Leave {
      std::atomic<int> &n;
      ~Leave() { --n; }
    } leave{m_inFlight};
    return m_script(request);
  }

  struct Seen {
    std::size_t index;
    pipeline::AnalysisOptions options;
    bool hasDeadline;
    std::filesystem::path kernelSourcePath;
    bool hasFacts;
  };

  std::size_t calls() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_requests.size();
  }
  /// Indices analysed, ascending.
  std::vector<std::size_t> indices() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    std::vector<std::size_t> out;
    for (const auto &s : m_requests)
      out.push_back(s.index);
    std::sort(out.begin(), out.end());
    return out;
  }
  std::vector<Seen> requests() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_requests;
  }
  int maxInFlight() const { return m_maxInFlight.load(); }

  /// The verdict cache's view of the analysis: empty (the default) keeps its results out of the cache.
  std::string identity() const override { return m_identity; }
  void setIdentity(std::string identity) { m_identity = std::move(identity); }

private:
  Script m_script;
  std::string m_identity;
  mutable std::mutex m_mutex;
  std::vector<Seen> m_requests;
  std::atomic<int> m_inFlight{0};
  std::atomic<int> m_maxInFlight{0};
};

} // namespace clcapture::test
