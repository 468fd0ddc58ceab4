//===- AllocationAccount.h - Heap bytes per analysis thread ------*- C++ -*-===//
//
// What one analysis holds on the heap, for `peak_memory_mib` in the report and for --max-memory. Every
// allocation of the process goes through glibc's malloc (LLVM, Clang and cvc5 allocate with new, malloc or
// GMP, all of which end there); AllocationAccount.cpp replaces malloc and friends with glibc's own
// __libc_* functions plus a count, per thread, of the bytes the thread allocated and has not freed (by
// malloc_usable_size). An analysis runs on one thread (the -j pool's), so its bytes are its thread's from
// its start on. Memory one thread allocates and another frees stays on the first's count; the analyses
// free what they allocate (an LLVM context, a cvc5 solver), so this errs by the few shared caches.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace clcapture::verify {

/// One analysis's window on its thread's count.
class AllocationWindow {
public:
  /// Opens the window on the calling thread: the bytes held now are the base.
  AllocationWindow();
  /// The most the thread held beyond the base since the window opened.
  std::uint64_t peakBytes() const;

private:
  std::int64_t m_base;
};

/// Whether malloc is counted in this process (the replacement is linked in and has seen an allocation).
bool allocationsCounted();

} // namespace clcapture::verify
