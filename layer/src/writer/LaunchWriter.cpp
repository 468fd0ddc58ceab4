//===- LaunchWriter.cpp - The writer thread: blobs and records, in each queue's launch order -===//

#include "writer/LaunchWriter.h"

#include "process/CaptureSwitch.h"
#include "process/Log.h"
#include "writer/CallSiteResolver.h"
#include "writer/CaptureFolder.h"

#include <chrono>
#include <cstdlib>
#include <list>
#include <new>
#include <set>

namespace clcapture::layer {

namespace fmt = clcapture::format;

namespace {

/// Symbolises the launch's call sites: every call goes to the sidecar with what is known about it; those
/// with a DWARF file and line also go to captures.json's host_api_calls, which GPUVerify's format requires to
/// have both (no key at all when none has them).
void describeCalls(PendingLaunch &launch) {
  std::vector<fmt::HostApiCall> withLines;
  for (const PendingLaunch::Call &call : launch.calls) {
    ResolvedCallSite where = CallSiteResolver::instance().resolve(call.site);
    if (where.module.empty())
      continue; // libdw unusable, or an address in no module: nothing worth recording
    fmt::HostCallFacts facts;
    facts.functionName = call.function;
    facts.argument = call.argument;
    facts.module = where.module;
    facts.moduleOffset = where.moduleOffset;
    if (!where.function.empty())
      facts.caller = where.function;
    if (where.line > 0) {
      facts.compilationUnit = where.file;
      facts.lineNumber = where.line;
      withLines.push_back(fmt::HostApiCall{call.function, where.file, where.line});
    }
    launch.facts.hostCalls.push_back(std::move(facts));
  }
  if (!withLines.empty())
    launch.inst.hostApiCalls = std::move(withLines);
}

/// The blob's name in the capture folder: stored the first time (content-addressed, so bytes already in the
/// folder are not written again), then only the name is kept. Empty when its read failed or is not done.
fmt::Expected<std::string> storeBlob(fmt::CaptureRecorder &recorder, SharedBlob &blob) {
  std::lock_guard<std::mutex> lock(blob.mutex);
  // Not done: a read shared with a launch the driver refused, still in flight. Never wait for it here (it
  // may be gated by a user event); the launch goes without those bytes.
  if (blob.failed.load() || !blob.done.load(std::memory_order_acquire))
    return std::string();
  if (blob.name.empty()) {
    auto name = recorder.putData(blob.bytes.data(), blob.bytes.size());
    if (!name)
      return name;
    blob.name = *name;
    blob.release(); // stored: the name is all a later launch needs
  }
  return blob.name;
}

} // namespace

std::atomic<LaunchWriter *> LaunchWriter::s_running{nullptr};

LaunchWriter &LaunchWriter::instance() {
  static LaunchWriter *writer = [] {
    auto *w = new LaunchWriter(); // never destroyed: drained at exit instead
    s_running.store(w, std::memory_order_release);
    return w;
  }();
  return *writer;
}

void LaunchWriter::push(std::shared_ptr<PendingLaunch> launch) {
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_arrived.push_back(std::move(launch));
  }
  m_ready.notify_one();
}

void LaunchWriter::started(std::uint64_t queue, std::uint64_t launch) {
  std::lock_guard<std::mutex> lock(m_mutex);
  ++m_pending;
  m_started[queue].insert(launch);
}

bool LaunchWriter::waitForRoom() {
  constexpr auto kStallWait = std::chrono::milliseconds(50);
  std::unique_lock<std::mutex> lock(m_mutex);
  if (m_stalledAt && *m_stalledAt == m_writtenCount)
    return full(); // still stalled: no waiting, no new bytes
  m_stalledAt.reset();
  while (full()) {
    std::uint64_t before = m_writtenCount;
    if (!m_written.wait_for(lock, kStallWait, [&] { return m_writtenCount != before; }) &&
        !m_writing.load()) {
      // Nothing written and the writer is not writing (a large blob takes longer than kStallWait to store):
      // it waits for reads that may never complete.
      m_stalledAt = m_writtenCount;
      return true;
    }
  }
  return false;
}

void LaunchWriter::waitForQueue(std::uint64_t queue, double seconds) {
  std::unique_lock<std::mutex> lock(m_mutex);
  // As long as the writer makes progress: a slow writer (a loaded machine) is waited for, a stuck read is
  // not.
  for (std::size_t before = m_started[queue].size(); before > 0; before = m_started[queue].size())
    if (!m_written.wait_for(lock, std::chrono::duration<double>(seconds),
                            [&] { return m_started[queue].size() < before; }))
      return;
}

void LaunchWriter::drain(double seconds) {
  std::unique_lock<std::mutex> lock(m_mutex);
  // Waits while launches keep being written (a loaded machine may need longer than `seconds` for all of
  // them); gives up only after `seconds` without progress, e.g. reads gated by a user event never opened.
  for (long before = m_pending; before > 0; before = m_pending)
    if (!m_written.wait_for(lock, std::chrono::duration<double>(seconds), [&] { return m_pending < before; }))
      break;
  if (m_pending == 0)
    return;
  m_inAnyOrder = true;
  m_ready.notify_one();
  m_written.wait_for(lock, std::chrono::seconds(2), [&] { return m_pending == neverArrived(); });
  if (m_pending)
    log(LogLevel::Warning,
        std::to_string(m_pending) + " launch(es) still waiting for their buffer reads at exit; not recorded");
}

LaunchWriter::LaunchWriter() : m_thread([this] { run(); }) {
  m_thread.detach();
  // Runs before the drivers' own exit handlers (they registered theirs earlier, when they loaded).
  std::atexit([] {
    LaunchWriter::instance().drain(10.0);
    closeCapturePart(); // the manifest's end line, once every launch it counts is written
  });
}

void LaunchWriter::forkedChild() {
  static auto *parents = new std::vector<std::shared_ptr<PendingLaunch>>(); // never destroyed, see above
  auto keep = [](auto &launches) {
    for (auto &launch : launches)
      parents->push_back(std::move(launch));
    launches.clear();
  };
  keep(m_arrived);
  keep(m_watched);
  keep(m_discarded);
  for (auto &[queue, held] : m_held)
    for (auto &[number, launch] : held)
      parents->push_back(std::move(launch));
  m_held.clear();
  if (m_next)
    parents->push_back(std::move(m_next));
  m_pending = 0;
  m_started.clear();
  m_inAnyOrder = false;
  m_stalledAt.reset();
  m_writing = false;
  // Waiters of the parent's threads do not exist here.
  new (&m_ready) std::condition_variable();
  new (&m_written) std::condition_variable();
  m_mutex.unlock();
  m_thread = std::thread([this] { run(); });
  m_thread.detach();
}

/// Started launches that have not arrived (their reads are not done): m_pending minus those held.
long LaunchWriter::neverArrived() const {
  long held = 0;
  for (const auto &[queue, launches] : m_held)
    held += static_cast<long>(launches.size());
  return m_pending - held;
}

/// A held launch that may be written now: the earliest started launch of its queue, or any when
/// m_inAnyOrder.
std::shared_ptr<PendingLaunch> LaunchWriter::nextWritable() {
  for (auto &[queue, held] : m_held) {
    if (held.empty())
      continue;
    auto &started = m_started[queue];
    auto first = held.begin();
    if (m_inAnyOrder || started.empty() || *started.begin() == first->first) {
      std::shared_ptr<PendingLaunch> launch = std::move(first->second);
      held.erase(first);
      return launch;
    }
  }
  return nullptr;
}

void LaunchWriter::watch(std::shared_ptr<PendingLaunch> launch) {
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_watched.push_back(std::move(launch));
  }
  m_ready.notify_one();
}

std::vector<std::shared_ptr<PendingLaunch>>
LaunchWriter::pollReads(std::list<std::shared_ptr<PendingLaunch>> &watching) {
  std::vector<std::shared_ptr<PendingLaunch>> completed;
  // An in-order queue completes its commands in order: past its first launch still reading, none of its later
  // ones can be done, so a pass asks the driver about a handful of events, not thousands.
  std::set<std::uint64_t> waitingQueues;
  for (auto it = watching.begin(); it != watching.end();) {
    PendingLaunch &launch = **it;
    if (!launch.outOfOrderQueue && waitingQueues.count(launch.facts.queue)) {
      ++it;
      continue;
    }
    const cl_icd_dispatch &d = *launch.driver;
    bool all = true;
    for (auto &snap : launch.snapshots) {
      if (!snap->event)
        continue;
      cl_int status = CL_QUEUED;
      if (!d.clGetEventInfo || d.clGetEventInfo(snap->event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
                                                &status, nullptr) != CL_SUCCESS)
        status = -1;
      if (status != CL_COMPLETE && status >= 0) {
        all = false;
        break;
      }
      if (status < 0)
        snap->blob->failed = true;
      snap->blob->done.store(true, std::memory_order_release);
      d.clReleaseEvent(snap->event);
      snap->event = nullptr;
    }
    if (all) {
      completed.push_back(std::move(*it));
      it = watching.erase(it);
    } else {
      waitingQueues.insert(launch.facts.queue);
      ++it;
    }
  }
  return completed;
}

void LaunchWriter::run() {
  // Reads in flight are polled here, on the writer thread: no completion callbacks on the driver's threads
  // (NVIDIA's driver deadlocked, its enqueue waiting for space while its event threads waited for a lock,
  // with thousands of callbacks pending).
  std::list<std::shared_ptr<PendingLaunch>> watching;
  for (;;) {
    std::vector<std::shared_ptr<PendingLaunch>> completed = pollReads(watching);
    std::shared_ptr<PendingLaunch> launch;
    {
      std::unique_lock<std::mutex> lock(m_mutex);
      for (auto &w : m_watched)
        watching.push_back(std::move(w));
      m_watched.clear();
      for (auto &c : completed)
        m_arrived.push_back(std::move(c));
      while (!m_arrived.empty()) {
        std::shared_ptr<PendingLaunch> a = std::move(m_arrived.front());
        m_arrived.pop_front();
        if (a->discard)
          m_discarded.push_back(std::move(a));
        else
          m_held[a->facts.queue].emplace(a->facts.launch, std::move(a));
      }
      if (!m_discarded.empty()) {
        launch = std::move(m_discarded.front());
        m_discarded.pop_front();
      } else if (!(launch = nextWritable())) {
        // Nothing to write: sleep until something arrives, briefly while reads are in flight.
        auto wake = [this] { return !m_watched.empty() || !m_arrived.empty() || m_inAnyOrder; };
        if (watching.empty())
          m_ready.wait_for(lock, std::chrono::milliseconds(100), wake);
        else
          m_ready.wait_for(lock, std::chrono::microseconds(500), wake);
        continue;
      }
    }
    if (!launch->discard) {
      m_writing.store(true);
      write(*launch);
      m_writing.store(false);
    }
    // Staging copies are ours: released here, never in a driver callback.
    for (auto &snap : launch->snapshots)
      if (snap->staging)
        launch->driver->clReleaseMemObject(snap->staging);
    if (launch->discard)
      continue; // never counted as started
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      --m_pending;
      ++m_writtenCount;
      m_started[launch->facts.queue].erase(launch->facts.launch);
    }
    m_written.notify_all();
  }
}

void LaunchWriter::write(PendingLaunch &launch) {
  if (!captureEnabled())
    return;
  try {
    describeCalls(launch);
    auto &args = *launch.inst.kernelArguments;
    for (auto &snap : launch.snapshots) {
      auto &array = std::get<fmt::ArrayArgument>(args[snap->argument]);
      fmt::ArgumentFacts &af = launch.facts.arguments[snap->argument];
      std::optional<std::string> &skipped = snap->after ? af.dataAfterSkipped : af.dataSkipped;
      auto name = storeBlob(*launch.recorder, *snap->blob);
      if (!name) {
        disableCapture(name.error());
        return;
      }
      if (name->empty()) {
        skipped = "the read of the buffer failed";
        continue;
      }
      (snap->after ? af.dataAfter : array.data) = *name;
      skipped.reset();
    }
    for (auto &[argument, blob] : launch.reused) {
      auto name = storeBlob(*launch.recorder, *blob);
      if (!name) {
        disableCapture(name.error());
        return;
      }
      fmt::ArgumentFacts &af = launch.facts.arguments[argument];
      if (name->empty()) {
        af.dataSkipped = "the read of the buffer failed";
        continue;
      }
      std::get<fmt::ArrayArgument>(args[argument]).data = *name;
      af.dataSkipped.reset();
    }
    auto index = launch.recorder->append(launch.inst, launch.facts);
    if (!index && launch.recorder->broken()) {
      disableCapture(index.error());
    } else if (!index) {
      // One launch the format refuses (e.g. a local size the driver accepted but OpenCL forbids) costs
      // that launch only: listed in the sidecar with the reason, capture goes on.
      log(LogLevel::Warning, "launch " + std::to_string(launch.facts.launch) + ": " + index.error());
      if (auto listed = launch.recorder->appendNotCaptured(launch.facts, index.error()); !listed)
        disableCapture(listed.error());
    }
  } catch (const std::exception &e) {
    disableCapture(std::string("writing a launch: ") + e.what());
  }
}

} // namespace clcapture::layer
