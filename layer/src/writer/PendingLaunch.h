//===- PendingLaunch.h - One launch between its enqueue and its record -*- C++ -*-===//
//
// prepare() describes the launch (the instantiation without buffer contents, the sidecar facts, the host
// calls) and starts the reads that will supply the contents (BufferSnapshots.h); commit() hands it to the
// driver's completion callbacks, the last of which passes it to the writer thread (LaunchWriter.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/CaptureRecorder.h"
#include "clcapture/format/Instantiation.h"
#include "clcapture/format/Sidecar.h"
#include "process/CallSite.h"

#include <CL/cl_icd.h>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clcapture::layer {

/// Bytes of one memory object at one moment, read by the driver without blocking. Shared: a later launch
/// whose argument cannot have changed since (HandleMirrors.h: no writer enqueued) records the same blob
/// instead of reading again. The writer thread stores the bytes once and then keeps only their name.
struct SharedBlob {
  std::vector<std::uint8_t> bytes; ///< filled by the driver's read; emptied once stored
  std::atomic<bool> done{false};   ///< the read completed (set by the completion callback)
  std::atomic<bool> failed{false};
  std::mutex mutex; ///< guards bytes and name once done
  std::string name; ///< the blob's path in the capture folder, once stored

  SharedBlob() = default;
  SharedBlob(const SharedBlob &) = delete;
  SharedBlob &operator=(const SharedBlob &) = delete;
  ~SharedBlob() { s_heldBytes.fetch_sub(m_held, std::memory_order_relaxed); }

  /// Sizes `bytes` for a read of `size` bytes, counted in heldBytes() until released.
  void hold(std::size_t size) {
    bytes.resize(size);
    s_heldBytes.fetch_add(static_cast<std::int64_t>(size) - m_held, std::memory_order_relaxed);
    m_held = static_cast<std::int64_t>(size);
  }
  /// Frees `bytes` (stored, or never to be stored).
  void release() {
    std::vector<std::uint8_t>().swap(bytes);
    s_heldBytes.fetch_sub(m_held, std::memory_order_relaxed);
    m_held = 0;
  }
  /// Bytes that every blob of the process holds in memory: read or being read, not yet stored. The writer's
  /// backlog in bytes (LaunchWriter::throttle bounds it).
  static std::int64_t heldBytes() { return s_heldBytes.load(std::memory_order_relaxed); }

private:
  std::int64_t m_held = 0;
  static inline std::atomic<std::int64_t> s_heldBytes{0};
};

/// A capture-time read of one argument's memory: a buffer, a staging copy of a CL_MEM_HOST_NO_ACCESS
/// buffer, or an SVM range.
struct ReadPlan {
  enum class From { Buffer, StagedBuffer, Svm } from = From::Buffer;
  std::size_t argument = 0;
  cl_mem mem = nullptr;
  const void *svm = nullptr;
  std::size_t size = 0;
  std::shared_ptr<SharedBlob> blob{}; ///< where the bytes go (made by the read when null)
};

struct PendingLaunch {
  /// One argument's bytes, read by the driver without blocking.
  struct Snapshot {
    std::size_t argument = 0;         ///< index in kernelArguments
    std::shared_ptr<SharedBlob> blob; ///< the driver reads into blob->bytes
    cl_event event = nullptr;         ///< the read's event until the writer saw it complete (then released)
    cl_mem staging = nullptr; ///< the copy read instead of a CL_MEM_HOST_NO_ACCESS buffer; released after
    PendingLaunch *owner = nullptr;
    bool after = false; ///< read once the launch completed (CLCAPTURE_DATA_AFTER), not before it
  };
  /// One of the application's calls behind the launch (docs/contract.md §3 host_api_calls), symbolised on the
  /// writer thread.
  struct Call {
    const char *function;
    std::optional<std::uint32_t> argument;
    CallSite site;
  };

  bool discard = false; ///< the driver refused the launch: drop it once its reads are done
  format::Instantiation inst;
  format::LaunchFacts facts;
  format::CaptureRecorder *recorder = nullptr;
  const cl_icd_dispatch *driver = nullptr;
  std::vector<std::unique_ptr<Snapshot>> snapshots;
  std::vector<cl_event>
      ownedWaits;          ///< events of ours the launch waits for (staging copies): released at commit
  std::vector<Call> calls; ///< oldest first
  /// Arguments whose bytes an earlier launch already read, unchanged since: (argument, that read's blob).
  std::vector<std::pair<std::size_t, std::shared_ptr<SharedBlob>>> reused;
  cl_command_queue queue = nullptr;
  bool outOfOrderQueue = true;
  std::vector<ReadPlan> beforeReads; ///< the bytes to read before the launch, enqueued by prepare()
  /// CLCAPTURE_DATA_AFTER: the buffers the launch may write, read after it once the driver accepted it.
  std::vector<ReadPlan> afterReads;
};

} // namespace clcapture::layer
