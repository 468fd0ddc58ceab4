//===- LibDw.cpp - elfutils' libdw, opened on first need -===//

#include "writer/LibDw.h"

#include <cstdlib>
#include <dlfcn.h>

namespace clcapture::layer {

namespace {

template <typename Fn> void bind(void *library, const char *name, Fn &slot, std::string &missing) {
  // POSIX guarantees that the object pointer dlsym returns for a function converts to a function pointer.
  slot = reinterpret_cast<Fn>(::dlsym(library, name));
  if (!slot && missing.empty())
    missing = name;
}

} // namespace

LibDw::LibDw() {
  const char *override = std::getenv("CLCAPTURE_LIBDW");
  const char *file = override && *override ? override : "libdw.so.1";
  // RTLD_LOCAL: nothing of libdw joins the application's global symbol namespace.
  void *library = ::dlopen(file, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *why = ::dlerror();
    m_reason = std::string("cannot open ") + file + ": " + (why ? why : "unknown error") +
               " (install elfutils' libdw, Debian/Ubuntu package libdw1, for file:line call sites)";
    return;
  }
  std::string missing;
  bind(library, "dwfl_begin", begin, missing);
  bind(library, "dwfl_report_begin", reportBegin, missing);
  bind(library, "dwfl_linux_proc_report", linuxProcReport, missing);
  bind(library, "dwfl_report_end", reportEnd, missing);
  bind(library, "dwfl_errmsg", errmsg, missing);
  bind(library, "dwfl_addrmodule", addrModule, missing);
  bind(library, "dwfl_module_info", moduleInfo, missing);
  bind(library, "dwfl_module_addrname", moduleAddrName, missing);
  bind(library, "dwfl_module_getsrc", moduleGetSrc, missing);
  bind(library, "dwfl_lineinfo", lineInfo, missing);
  bind(library, "dwfl_linux_proc_find_elf", linuxProcFindElf, missing);
  bind(library, "dwfl_standard_find_debuginfo", standardFindDebuginfo, missing);
  if (!missing.empty()) {
    m_reason = std::string(file) + " lacks " + missing;
    ::dlclose(library);
    return;
  }
  m_available = true; // kept open for the life of the process
}

const LibDw &LibDw::get() {
  static const LibDw *lib = new LibDw(); // never destroyed: the writer thread may symbolise at exit
  return *lib;
}

} // namespace clcapture::layer
