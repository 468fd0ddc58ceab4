//===- DispatchPatcher.h - Hooks installed in a driver's own dispatch table -*- C++ -*-===//
//
// docs/drivers-and-loaders.md, "Ways to sit in front of a driver": patching the driver's dispatch table in
// place works with PoCL, Oclgrind and NVIDIA, and keeps every handle the driver's own (Oclgrind rejects
// foreign dispatch pointers). Only the hooked entries are overwritten; every other entry stays the driver's
// function, so all of the 100+ entry points are forwarded unchanged without a line of forwarding code. The
// driver's original entries are kept so that each hook can forward to them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dispatch/HookList.h"

#include <CL/cl_icd.h>
#include <array>
#include <atomic>
#include <cstddef>
#include <mutex>

namespace clcapture::layer {

/// Points the entries of a table at the hooks (Hooks.h: hooks::installHooks). Passed in by the caller, so the
/// patcher does not depend on the hooks, which forward through it (Downstream.h).
using HookInstaller = void (*)(cl_icd_dispatch *table, const TableLimits &limits);

class DispatchPatcher {
public:
  static DispatchPatcher &instance();

  /// Keeps the driver's own entries of `table` and lets `install` put the hooks there (once per table),
  /// touching only the entries `limits` allow (the platform's OpenCL version). False, with a log line, if
  /// the table cannot be written.
  bool patch(cl_icd_dispatch *table, const TableLimits &limits, HookInstaller install);

  /// The driver's own entries for the table `object` dispatches through (the hooked ones and those listed
  /// in CLCAPTURE_ENGINE_CALLS; the rest are null); nullptr for an unknown table.
  const cl_icd_dispatch *original(const void *object) const;

private:
  struct Patched {
    const cl_icd_dispatch *table = nullptr;
    cl_icd_dispatch original{};
  };
  std::mutex m_mutex;
  std::array<Patched, 16> m_patched{};
  std::atomic<std::size_t> m_count{0};
};

} // namespace clcapture::layer
