//===- HookShape.h - The shape every hook has, written once -----*- C++ -*-===//
//
// A hook finds the entry it forwards to through its object (Downstream.h), forwards the application's
// arguments unchanged, returns the driver's result untouched, and tells the engine what happened, under
// `guarded` (CaptureSwitch.h) so that nothing crosses the C ABI. Three shapes cover the hooks of Hooks.cpp:
// - forwardThenRecord: forward, then record when the call succeeded (creations, retains, releases,
//   argument setting, clFinish);
// - noteThenForward: tell the engine first, then forward (enqueues that may change a buffer's bytes:
//   the engine must know before a later launch on another thread can reuse an older read; clSVMFree);
// - withDriver: anything else, all returning a status (builds that add an option, launches, the last
//   release of a queue).
// An object that leads to no driver (a handle clcapture never saw: never one of the application's real
// driver, but a corrupted one must not become a crash of ours) gets what a driver answers for an invalid
// handle: `invalid` as the status, or a null object with `invalid` in *errcode_ret.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dispatch/Downstream.h"
#include "process/CaptureSwitch.h"

#include <CL/cl_icd.h>
#include <tuple>
#include <type_traits>
#include <utility>

namespace clcapture::layer::hooks {

/// Whether a driver's call succeeded: CL_SUCCESS for a status, a non-null object otherwise.
inline bool succeeded(cl_int status) {
  return status == CL_SUCCESS;
}
template <typename T> bool succeeded(T *object) {
  return object != nullptr;
}

/// The entry's *errcode_ret: its last parameter when that is a `cl_int *`, else none.
template <typename... Args> cl_int *errcodeOf(Args... args) {
  if constexpr (sizeof...(Args) > 0) {
    auto last = std::get<sizeof...(Args) - 1>(std::make_tuple(args...));
    if constexpr (std::is_same_v<decltype(last), cl_int *>)
      return last;
  }
  return nullptr;
}

/// What an entry returning `Result` answers for an object without a driver.
template <typename Result> Result invalidHandle(cl_int invalid, cl_int *errcode_ret) {
  if constexpr (std::is_same_v<Result, cl_int>) {
    return invalid;
  } else {
    if (errcode_ret)
      *errcode_ret = invalid;
    if constexpr (!std::is_void_v<Result>)
      return nullptr;
  }
}

/// The result type of the dispatch table's entry `Entry` (a pointer to a member of cl_icd_dispatch).
template <auto Entry, typename... Args>
using EntryResult = decltype((std::declval<const cl_icd_dispatch &>().*Entry)(std::declval<Args>()...));

/// `body(driver)` with the entries `object` leads to, for an entry that returns a status; `invalid` without
/// them.
template <typename Body> cl_int withDriver(const void *object, cl_int invalid, Body &&body) {
  const cl_icd_dispatch *d = downstreamOf(object);
  return d ? body(*d) : invalid;
}

/// Forwards `args` to the entry `Entry`; when it succeeded, `record(driver, result)` under guarded(name).
template <auto Entry, typename Record, typename... Args>
EntryResult<Entry, Args...> forwardThenRecord(const char *name, const void *object, cl_int invalid,
                                              Record &&record, Args... args) {
  using Result = EntryResult<Entry, Args...>;
  const cl_icd_dispatch *d = downstreamOf(object);
  if (!d)
    return invalidHandle<Result>(invalid, errcodeOf(args...));
  Result result = (d->*Entry)(args...);
  if (succeeded(result))
    guarded(name, [&] { record(*d, result); });
  return result;
}

/// `note()` under guarded(name), then forwards `args` to the entry `Entry`.
template <auto Entry, typename Note, typename... Args>
EntryResult<Entry, Args...> noteThenForward(const char *name, const void *object, cl_int invalid, Note &&note,
                                            Args... args) {
  using Result = EntryResult<Entry, Args...>;
  const cl_icd_dispatch *d = downstreamOf(object);
  if (!d)
    return invalidHandle<Result>(invalid, errcodeOf(args...));
  guarded(name, note);
  return (d->*Entry)(args...);
}

} // namespace clcapture::layer::hooks
