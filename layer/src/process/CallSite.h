//===- CallSite.h - Where the application called an OpenCL entry point -*- C++ -*-===//
//
// docs/contract.md §3 host_api_calls: the file and line of the application's own call. A hook is reached
// through the ICD loader (app → libOpenCL.so.1 clFoo → driver dispatch table entry = our hook), so the hook's
// return address is in the loader. callerOfHook() walks this thread's stack and returns the first return
// address outside libclcapture.so, the loader and the real drivers (addDriverModule): the application's call
// site (for PyOpenCL, pyopencl's extension module). Only the address is taken on the application's thread;
// turning it into a file and line (CallSiteResolver) happens on the writer thread, off the hot path.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace clcapture::layer {

/// A return address in the application (the instruction after its call); 0: unknown.
using CallSite = std::uintptr_t;

/// The application's call site of the OpenCL entry point now running on this thread, or 0 when the stack
/// cannot be walked that far. Any function of libclcapture.so may call it (its own frames are skipped).
/// Costs one unwind of a few frames plus a per-thread hash lookup per frame; never throws.
CallSite callerOfHook() noexcept;

/// Names a real driver's module by an address inside it (DriverSet calls this for each driver it loads,
/// before any of its handles reaches the application): frames in it are passed through like the loader's.
void addDriverModule(const void *addressInDriver) noexcept;

} // namespace clcapture::layer
