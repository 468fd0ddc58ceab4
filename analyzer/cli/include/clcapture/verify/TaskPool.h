//===- TaskPool.h - Analyses on -j threads, each made ready by the one before -*- C++ -*-===//
//
// clcapture-verify's pool: a group's first launch, its attempt, its other launches (ParametricGroups.h) and
// the launches in no group run on `-j` threads from two queues. A task may add tasks. Speculative tasks (a
// group's other launches, analysed alone before the group's attempt is decided) run only while no other task
// waits, so that a thread that would sit idle until its group is decided works instead: a barrier between
// "first launches", "attempts" and "the rest" left a core idle while the other finished the phase's slowest
// analysis, and parametric runs of small captures took up to 1.6 times as long as launch by launch.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace clcapture::verify {

class TaskPool {
public:
  using Task = std::function<void(TaskPool &)>;
  /// A task to run; `speculative` ones only while no other is queued.
  void add(Task task, bool speculative = false) {
    std::lock_guard<std::mutex> lock(m_mutex);
    (speculative ? m_speculative : m_queue).push_back(std::move(task));
    ++m_unfinished;
    m_ready.notify_one();
  }
  /// Runs every task, those added on the way included, on `jobs` threads (this one among them); returns when
  /// none is left.
  void run(unsigned jobs) {
    auto worker = [this] {
      std::unique_lock<std::mutex> lock(m_mutex);
      for (;;) {
        m_ready.wait(lock,
                     [this] { return !m_queue.empty() || !m_speculative.empty() || m_unfinished == 0; });
        std::deque<Task> &from = !m_queue.empty() ? m_queue : m_speculative;
        if (from.empty())
          return; // nothing queued and nothing running that could queue more
        Task task = std::move(from.front());
        from.pop_front();
        lock.unlock();
        task(*this);
        lock.lock();
        if (--m_unfinished == 0)
          m_ready.notify_all();
      }
    };
    std::vector<std::thread> threads;
    for (unsigned t = 1; t < std::max(1u, jobs); ++t)
      threads.emplace_back(worker);
    worker();
    for (std::thread &t : threads)
      t.join();
  }

private:
  std::mutex m_mutex;
  std::condition_variable m_ready;
  std::deque<Task> m_queue, m_speculative;
  std::size_t m_unfinished = 0; ///< queued or running
};

} // namespace clcapture::verify
