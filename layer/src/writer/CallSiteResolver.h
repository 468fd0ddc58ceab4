//===- CallSiteResolver.h - Call-site addresses to file, line and function -*- C++ -*-===//
//
// Symbolises the return addresses callerOfHook() took, with elfutils' libdw (dwfl over this process's own
// /proc/self/maps): the DWARF line of the call (return address minus 1, which lies inside the call
// instruction), the enclosing function from the symbol table, and the module. Results are cached by address,
// so each distinct call site is looked up once however many launches it makes. Runs on the writer thread.
// Whatever is missing degrades, it never fails: no DWARF gives function and module only; no symbols, the
// module and offset; libdw unusable (logged once), nothing.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "process/CallSite.h"

#include <cstdint>
#include <memory>
#include <string>

namespace clcapture::layer {

struct ResolvedCallSite {
  std::string module;             ///< the ELF file's path; empty: no loaded module holds the address
  std::uint64_t moduleOffset = 0; ///< the address minus the module's load address (same across runs)
  std::string function;           ///< the enclosing function (demangled); empty when the module is stripped
  std::string file;               ///< the DWARF line table's file; empty without debug info
  std::uint64_t line = 0;         ///< 0 without debug info
};

class CallSiteResolver {
public:
  static CallSiteResolver &instance();

  /// Thread-safe; never throws (a failure gives an empty result, logged once).
  ResolvedCallSite resolve(CallSite site) noexcept;

  CallSiteResolver(const CallSiteResolver &) = delete;
  CallSiteResolver &operator=(const CallSiteResolver &) = delete;

private:
  CallSiteResolver();
  struct State;
  std::unique_ptr<State> m_state;
};

} // namespace clcapture::layer
