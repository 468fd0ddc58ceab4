//===- CallSiteResolver.cpp - Call-site addresses to file, line and function -===//

#include "writer/CallSiteResolver.h"

#include "process/Log.h"
#include "writer/LibDw.h"

#include <cstdlib>
#include <cxxabi.h>
#include <dlfcn.h>
#include <mutex>
#include <set>
#include <unistd.h>
#include <unordered_map>

namespace clcapture::layer {

namespace {

std::string demangle(const char *name) {
  int status = 0;
  char *plain = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (status != 0 || !plain)
    return name;
  std::string out = plain;
  std::free(plain);
  return out;
}

/// Without libdw: the module and the nearest exported symbol from the dynamic linker (no DWARF lines, and
/// static functions are not in the dynamic symbol table, so a name is given only when its symbol spans
/// the address).
ResolvedCallSite resolveWithDladdr(CallSite site) {
  ResolvedCallSite out;
  Dl_info info{};
  const void *address = reinterpret_cast<const void *>(site - 1);
  if (::dladdr(address, &info) == 0)
    return out;
  out.module = info.dli_fname ? info.dli_fname : "";
  if (out.module.empty() || out.module.find('/') == std::string::npos) {
    // The main executable's link map names it "" (or as it was run); /proc/self/exe is its real path.
    char path[4096];
    ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
    if (n > 0)
      out.module.assign(path, static_cast<std::size_t>(n));
  }
  out.moduleOffset = site - reinterpret_cast<std::uintptr_t>(info.dli_fbase);
  if (info.dli_sname && info.dli_saddr)
    out.function = demangle(info.dli_sname);
  return out;
}

} // namespace

struct CallSiteResolver::State {
  std::mutex mutex;
  const LibDw &dw = LibDw::get();
  /// dwfl_standard_find_debuginfo also follows .gnu_debuglink and build ids (/usr/lib/debug), so separate
  /// debug files are used when installed.
  char *debuginfoPath = nullptr;
  Dwfl_Callbacks callbacks{dw.linuxProcFindElf, dw.standardFindDebuginfo, nullptr, &debuginfoPath};
  Dwfl *dwfl = nullptr;
  bool unusable = false;
  bool loggedNoLibDw = false;
  std::unordered_map<CallSite, ResolvedCallSite> cache;
  std::set<std::string> modulesWithoutLines; ///< already logged

  /// (Re)reads the process's modules from /proc/self/maps: a library loaded since the last report (a
  /// dlopen'ed plugin, pyopencl's extension) is unknown to dwfl until then.
  bool report() {
    if (!dwfl)
      dwfl = dw.begin(&callbacks);
    if (!dwfl) {
      fail("dwfl_begin");
      return false;
    }
    dw.reportBegin(dwfl);
    int status = dw.linuxProcReport(dwfl, ::getpid());
    if (dw.reportEnd(dwfl, nullptr, nullptr) != 0 || status != 0) {
      fail("reading /proc/self/maps");
      return false;
    }
    return true;
  }

  void fail(const char *what) {
    unusable = true;
    log(LogLevel::Warning, std::string("call sites: ") + what + ": " + dw.errmsg(-1) +
                               "; host_api_calls are left out for the rest of the run");
  }

  ResolvedCallSite lookUp(CallSite site) {
    if (!dw.available()) {
      if (!loggedNoLibDw) {
        loggedNoLibDw = true;
        log(LogLevel::Warning, "call sites: " + dw.unavailableReason() +
                                   "; host call sites carry module and function names only (no file:line)");
      }
      return resolveWithDladdr(site);
    }
    ResolvedCallSite out;
    if (unusable || (!dwfl && !report()))
      return out;
    // The return address follows the call; the address before it lies inside the call instruction, whose
    // line is the call's (the return address may already belong to the next line or function).
    Dwarf_Addr address = site - 1;
    Dwfl_Module *module = dw.addrModule(dwfl, address);
    if (!module && report())
      module = dw.addrModule(dwfl, address);
    if (!module)
      return out;
    Dwarf_Addr start = 0;
    const char *name = dw.moduleInfo(module, nullptr, &start, nullptr, nullptr, nullptr, nullptr, nullptr);
    out.module = name ? name : "";
    out.moduleOffset = address + 1 - start;
    if (const char *symbol = dw.moduleAddrName(module, address))
      out.function = demangle(symbol);
    Dwfl_Line *line = dw.moduleGetSrc(module, address);
    int lineNumber = 0;
    const char *file = line ? dw.lineInfo(line, nullptr, &lineNumber, nullptr, nullptr, nullptr) : nullptr;
    if (file && *file && lineNumber > 0) {
      out.file = file;
      out.line = static_cast<std::uint64_t>(lineNumber);
    } else if (modulesWithoutLines.insert(out.module).second) {
      log(LogLevel::Info,
          "call sites: no DWARF line information in " + out.module +
              "; its calls are recorded by function name and offset only (build with -g for lines)");
    }
    return out;
  }
};

CallSiteResolver &CallSiteResolver::instance() {
  static CallSiteResolver *resolver = new CallSiteResolver(); // never destroyed: the writer may run at exit
  return *resolver;
}

CallSiteResolver::CallSiteResolver() : m_state(std::make_unique<State>()) {}

ResolvedCallSite CallSiteResolver::resolve(CallSite site) noexcept {
  if (site == 0)
    return {};
  try {
    std::lock_guard<std::mutex> lock(m_state->mutex);
    auto it = m_state->cache.find(site);
    if (it == m_state->cache.end())
      it = m_state->cache.emplace(site, m_state->lookUp(site)).first;
    return it->second;
  } catch (const std::exception &e) {
    log(LogLevel::Warning, std::string("call sites: ") + e.what());
    return {};
  }
}

} // namespace clcapture::layer
