//===- CallSiteResolver.cpp - Call-site addresses to file, line and function -===//

#include "CallSiteResolver.h"

#include "Log.h"

#include <cstdlib>
#include <cxxabi.h>
#include <elfutils/libdwfl.h>
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

} // namespace

struct CallSiteResolver::State {
  std::mutex mutex;
  /// dwfl_standard_find_debuginfo also follows .gnu_debuglink and build ids (/usr/lib/debug), so separate
  /// debug files are used when installed.
  char *debuginfoPath = nullptr;
  Dwfl_Callbacks callbacks{dwfl_linux_proc_find_elf, dwfl_standard_find_debuginfo, nullptr, &debuginfoPath};
  Dwfl *dwfl = nullptr;
  bool unusable = false;
  std::unordered_map<CallSite, ResolvedCallSite> cache;
  std::set<std::string> modulesWithoutLines; ///< already logged

  /// (Re)reads the process's modules from /proc/self/maps: a library loaded since the last report (a
  /// dlopen'ed plugin, pyopencl's extension) is unknown to dwfl until then.
  bool report() {
    if (!dwfl)
      dwfl = dwfl_begin(&callbacks);
    if (!dwfl) {
      fail("dwfl_begin");
      return false;
    }
    dwfl_report_begin(dwfl);
    int status = dwfl_linux_proc_report(dwfl, ::getpid());
    if (dwfl_report_end(dwfl, nullptr, nullptr) != 0 || status != 0) {
      fail("reading /proc/self/maps");
      return false;
    }
    return true;
  }

  void fail(const char *what) {
    unusable = true;
    log(LogLevel::Warning, std::string("call sites: ") + what + ": " + dwfl_errmsg(-1) +
                               "; host_api_calls are left out for the rest of the run");
  }

  ResolvedCallSite lookUp(CallSite site) {
    ResolvedCallSite out;
    if (unusable || (!dwfl && !report()))
      return out;
    // The return address follows the call; the address before it lies inside the call instruction, whose
    // line is the call's (the return address may already belong to the next line or function).
    Dwarf_Addr address = site - 1;
    Dwfl_Module *module = dwfl_addrmodule(dwfl, address);
    if (!module && report())
      module = dwfl_addrmodule(dwfl, address);
    if (!module)
      return out;
    Dwarf_Addr start = 0;
    const char *name = dwfl_module_info(module, nullptr, &start, nullptr, nullptr, nullptr, nullptr, nullptr);
    out.module = name ? name : "";
    out.moduleOffset = address + 1 - start;
    if (const char *symbol = dwfl_module_addrname(module, address))
      out.function = demangle(symbol);
    Dwfl_Line *line = dwfl_module_getsrc(module, address);
    int lineNumber = 0;
    const char *file = line ? dwfl_lineinfo(line, nullptr, &lineNumber, nullptr, nullptr, nullptr) : nullptr;
    if (file && *file && lineNumber > 0) {
      out.file = file;
      out.line = static_cast<std::uint64_t>(lineNumber);
    } else if (modulesWithoutLines.insert(out.module).second) {
      log(LogLevel::Info, "call sites: no DWARF line information in " + out.module +
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
