//===- CallSite.cpp - Where the application called an OpenCL entry point -===//
//
// The walk uses the unwinder's own tables (_Unwind_Backtrace, what glibc's backtrace() uses): the loader,
// the drivers and most applications are built without frame pointers, so a frame-pointer walk would stop
// early or wander. It stops at the first application frame, so a call costs a handful of frames.
//
//===----------------------------------------------------------------------===//

#include "process/CallSite.h"

#include <atomic>
#include <cstring>
#include <dlfcn.h>
#include <unordered_map>
#include <unwind.h>
#include <vector>

namespace clcapture::layer {

namespace {

/// A hook is a few frames below the application; a deeper walk means something unexpected sits between.
constexpr int kMaxFrames = 32;

enum class Module { Ours, PassThrough, Application };

const void *baseOf(const void *address) {
  Dl_info info{};
  return dladdr(address, &info) ? info.dli_fbase : nullptr;
}

/// The modules a call passes through between the application and a hook, other than ours and the loader
/// (recognised by name): the real drivers (addDriverModule). Copied on each addition (a handful of drivers,
/// once each) so that readers never lock; a replaced list is never freed, since a walk may still read it.
std::atomic<const std::vector<const void *> *> g_driverBases{nullptr};

bool isIcdLoader(const char *path) {
  const char *slash = std::strrchr(path, '/');
  const char *name = slash ? slash + 1 : path;
  return std::strncmp(name, "libOpenCL.so", 12) == 0; // ocl-icd and the Khronos loader alike
}

Module classify(std::uintptr_t ip) {
  static const void *const ours = baseOf(reinterpret_cast<const void *>(&callerOfHook));
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void *>(ip), &info) || !info.dli_fbase)
    return Module::Application; // no module (generated code): nothing we know to skip
  if (info.dli_fbase == ours)
    return Module::Ours;
  if (info.dli_fname && isIcdLoader(info.dli_fname))
    return Module::PassThrough;
  if (const auto *drivers = g_driverBases.load(std::memory_order_acquire))
    for (const void *driver : *drivers)
      if (info.dli_fbase == driver)
        return Module::PassThrough;
  return Module::Application;
}

/// dladdr searches every loaded object; return addresses repeat (an application calls from a few places),
/// so each thread remembers their modules and the hot path is a lock-free hash lookup per frame.
Module moduleOf(std::uintptr_t ip) {
  thread_local std::unordered_map<std::uintptr_t, Module> cache;
  auto it = cache.find(ip);
  if (it != cache.end())
    return it->second;
  Module m = classify(ip);
  cache.emplace(ip, m);
  return m;
}

struct Walk {
  bool seenOurs = false; ///< frames before our first one belong to the unwinder itself
  int frames = 0;
  CallSite site = 0;
};

_Unwind_Reason_Code visitFrame(_Unwind_Context *context, void *arg) {
  Walk &walk = *static_cast<Walk *>(arg);
  int beforeInstruction = 0;
  std::uintptr_t ip = _Unwind_GetIPInfo(context, &beforeInstruction);
  if (ip == 0 || ++walk.frames > kMaxFrames)
    return _URC_END_OF_STACK;
  Module m = Module::Application;
  try {
    m = moduleOf(ip);
  } catch (...) { // bad_alloc from the cache: no call site rather than an exception through the unwinder
    return _URC_END_OF_STACK;
  }
  if (m == Module::Ours) {
    walk.seenOurs = true;
    return _URC_NO_REASON;
  }
  if (!walk.seenOurs || m == Module::PassThrough)
    return _URC_NO_REASON;
  walk.site = ip;
  return _URC_END_OF_STACK; // found: stop walking
}

} // namespace

void addDriverModule(const void *addressInDriver) noexcept {
  const void *base = baseOf(addressInDriver);
  if (!base)
    return;
  try {
    const std::vector<const void *> *old = g_driverBases.load(std::memory_order_acquire);
    auto *bases = old ? new std::vector<const void *>(*old) : new std::vector<const void *>();
    bases->push_back(base);
    g_driverBases.store(bases, std::memory_order_release); // DriverSet adds from one thread only
  } catch (...) { // out of memory: that driver's frames may be taken for the application's
  }
}

CallSite callerOfHook() noexcept {
  Walk walk;
  _Unwind_Backtrace(&visitFrame, &walk);
  return walk.site;
}

} // namespace clcapture::layer
