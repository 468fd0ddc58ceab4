//===- LibDw.h - elfutils' libdw, opened on first need -*- C++ -*-===//
//
// libclcapture.so runs inside other people's processes, on machines that may lack elfutils (a stock GPU
// machine has no libdw.so.1). A hard dependency would make the ICD loader skip the library silently and the
// application lose its platforms, so libdw is never linked: the few dwfl entry points the call-site
// resolver uses are looked up with dlopen/dlsym the first time a call site is symbolised. Only the
// header's types are used at build time. Without the library (or with one lacking a symbol) `available()`
// is false and `unavailableReason()` says why; the resolver then falls back to dladdr().
//
//===----------------------------------------------------------------------===//
#pragma once

#include <elfutils/libdwfl.h>
#include <string>

namespace clcapture::layer {

struct LibDw {
  decltype(&::dwfl_begin) begin = nullptr;
  decltype(&::dwfl_report_begin) reportBegin = nullptr;
  decltype(&::dwfl_linux_proc_report) linuxProcReport = nullptr;
  decltype(&::dwfl_report_end) reportEnd = nullptr;
  decltype(&::dwfl_errmsg) errmsg = nullptr;
  decltype(&::dwfl_addrmodule) addrModule = nullptr;
  decltype(&::dwfl_module_info) moduleInfo = nullptr;
  decltype(&::dwfl_module_addrname) moduleAddrName = nullptr;
  decltype(&::dwfl_module_getsrc) moduleGetSrc = nullptr;
  decltype(&::dwfl_lineinfo) lineInfo = nullptr;
  decltype(&::dwfl_linux_proc_find_elf) linuxProcFindElf = nullptr;
  decltype(&::dwfl_standard_find_debuginfo) standardFindDebuginfo = nullptr;

  bool available() const { return m_available; }
  const std::string &unavailableReason() const { return m_reason; }

  /// Opens libdw.so.1 once (thread-safe); later calls return the same table. `CLCAPTURE_LIBDW` names
  /// another file to open instead (tests use it to simulate a machine without elfutils).
  static const LibDw &get();

private:
  LibDw();
  bool m_available = false;
  std::string m_reason;
};

} // namespace clcapture::layer
