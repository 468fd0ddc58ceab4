//===- LaunchWriter.h - The writer thread: blobs and records, in each queue's launch order -*- C++ -*-===//
//
// Blobs and records are written here, never on the application's thread; the driver runs no callback of
// ours at all: the writer polls the read events itself. A launch arrives when its reads are done;
// captures.json lists each queue's launches in launch order whatever order the driver completes the reads in
// (Oclgrind runs completion callbacks out of order), so an early arrival is held until the queue's earlier
// launches are written. clFinish waits for a queue's launches (SIGKILL after a finish loses nothing), and
// exit waits for all of them while the writer makes progress (a loaded machine may need long), giving up
// after 10 s without any.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "writer/PendingLaunch.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <vector>

namespace clcapture::layer {

class LaunchWriter {
public:
  static LaunchWriter &instance();

  /// The launch's reads are done (or it has none): it may be written.
  void push(std::shared_ptr<PendingLaunch> launch);
  /// The launch's reads are in flight: the writer thread polls their events (clGetEventInfo) and writes it
  /// once all completed. A discarded launch is watched too: its reads still write into its memory.
  void watch(std::shared_ptr<PendingLaunch> launch);

  /// The launch was accepted by the driver: it will arrive, and its queue's later launches are written
  /// after it.
  void started(std::uint64_t queue, std::uint64_t launch);

  /// Bounded memory: called on the application's thread before a launch is described (no lock of
  /// ours held). While more than kMaxPending launches, or more than kMaxHeldBytes of their buffer bytes, wait
  /// to be written, it waits for the writer, but only
  /// while the writer keeps writing; `flush` (the driver's clFlush of the launch's queue) is called first,
  /// since some drivers run nothing before a flush. When nothing was written for kStallWait (the oldest
  /// launch may wait for a read that a user event gates) it returns at once, and keeps returning at once
  /// until the writer writes again: the driver never holds a launch up. Returns true when the launch should
  /// take no new bytes (the backlog is full and the writer stalled), so that memory stays bounded.
  /// Static, and a no-op before the writer exists: creating it here would register its exit drain before
  /// the function-local statics the first launch's description creates, which exit would then destroy
  /// before the drain that still uses them.
  template <typename Flush> static bool throttle(Flush &&flush) {
    LaunchWriter *writer = s_running.load(std::memory_order_acquire);
    if (!writer)
      return false;
    {
      std::lock_guard<std::mutex> lock(writer->m_mutex);
      if (!writer->full())
        return false;
    }
    flush();
    return writer->waitForRoom();
  }
  static constexpr long kMaxPending = 1024;
  /// Buffer bytes read and not yet stored (SharedBlob::heldBytes) beyond which the application waits too: a
  /// program that launches on a 37 MB buffer would otherwise hold up to the whole data budget in memory.
  static constexpr std::int64_t kMaxHeldBytes = std::int64_t{256} << 20;

  /// Waits until every launch of `queue` started so far is written, giving up after `seconds` without one
  /// written. Called after the
  /// driver's clFinish: the queue's reads are done, so only callbacks and the writer can still be busy.
  void waitForQueue(std::uint64_t queue, double seconds);

  /// Waits until every started launch is written, giving up after `seconds` without one written: called at
  /// exit. Launches held back
  /// behind one whose reads never completed are then written out of order rather than lost.
  void drain(double seconds);

  /// The writer, when instance() has made it (no writer is made here).
  static LaunchWriter *running() { return s_running.load(std::memory_order_acquire); }
  /// fork(): the forking thread holds m_mutex across it (pthread_atfork, in the engine's lock order), so that
  /// the child's copy is consistent.
  void lockForFork() { m_mutex.lock(); }
  void unlockAfterFork() { m_mutex.unlock(); }
  /// In a forked child, with m_mutex held by lockForFork: the parent's launches are the parent's to write
  /// (forgotten, never destroyed: that would release the parent's driver objects), and the writer thread
  /// did not survive the fork: a thread of this process is started.
  void forkedChild();

private:
  LaunchWriter();
  long neverArrived() const;
  std::shared_ptr<PendingLaunch> nextWritable();
  /// Asks the driver about the watched launches' read events (writer thread, no lock held); returns those
  /// whose reads all completed, their events released and blobs marked done.
  static std::vector<std::shared_ptr<PendingLaunch>>
  pollReads(std::list<std::shared_ptr<PendingLaunch>> &watching);
  void run();
  bool waitForRoom();
  /// The backlog is over its bounds (launches or bytes); m_mutex held.
  bool full() const { return m_pending > kMaxPending || SharedBlob::heldBytes() > kMaxHeldBytes; }
  static void write(PendingLaunch &launch);

  std::mutex m_mutex;
  std::condition_variable m_ready;
  std::deque<std::shared_ptr<PendingLaunch>> m_arrived;   ///< reads done, not yet sorted
  std::vector<std::shared_ptr<PendingLaunch>> m_watched;  ///< reads in flight, not yet taken by the writer
  std::deque<std::shared_ptr<PendingLaunch>> m_discarded; ///< refused launches: only staging to release
  /// Reads done, waiting for the earlier launches of their queue: queue → launch number → launch.
  std::map<std::uint64_t, std::map<std::uint64_t, std::shared_ptr<PendingLaunch>>> m_held;
  std::shared_ptr<PendingLaunch> m_next;
  std::condition_variable m_written;
  long m_pending = 0; ///< launches started but not yet written
  /// Launch numbers started but not yet written, per queue id.
  std::map<std::uint64_t, std::set<std::uint64_t>> m_started;
  bool m_inAnyOrder = false;
  std::uint64_t m_writtenCount = 0; ///< launches written so far
  /// throttle() found the writer stalled when m_writtenCount was this: until it moves, no waiting.
  std::optional<std::uint64_t> m_stalledAt;
  std::atomic<bool> m_writing{false}; ///< the writer thread is inside write(): busy, not stalled
  std::thread m_thread;
  static std::atomic<LaunchWriter *> s_running; ///< set once instance() made the writer
};

} // namespace clcapture::layer
