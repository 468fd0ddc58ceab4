//===- AllocationAccount.cpp - Heap bytes per analysis thread -------------===//
//
// glibc supports replacing malloc (its manual, "Replacing malloc": malloc, free, calloc and realloc, and
// aligned_alloc, malloc_usable_size, memalign, posix_memalign, pvalloc and valloc when used). The
// replacements below call glibc's own allocator through its exported __libc_* entry points and count the
// usable size of each block on the calling thread. The counters are plain thread_local integers (no
// constructor: initial-exec TLS in the executable, safe inside malloc).
//
//===----------------------------------------------------------------------===//

#include "clcapture/verify/AllocationAccount.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <malloc.h>

extern "C" {
void *__libc_malloc(std::size_t size);
void __libc_free(void *p);
void *__libc_calloc(std::size_t n, std::size_t size);
void *__libc_realloc(void *p, std::size_t size);
void *__libc_memalign(std::size_t alignment, std::size_t size);
void *__libc_valloc(std::size_t size);
void *__libc_pvalloc(std::size_t size);
}

namespace {

thread_local std::int64_t tHeld = 0; ///< bytes this thread allocated and has not freed (may go negative)
thread_local std::int64_t tPeak = 0; ///< the most tHeld was since the last window opened
std::atomic<bool> gCounted{false};

inline void added(void *p) {
  if (!p)
    return;
  tHeld += static_cast<std::int64_t>(malloc_usable_size(p));
  if (tHeld > tPeak)
    tPeak = tHeld;
  if (!gCounted.load(std::memory_order_relaxed))
    gCounted.store(true, std::memory_order_relaxed);
}

inline void removed(void *p) {
  if (p)
    tHeld -= static_cast<std::int64_t>(malloc_usable_size(p));
}

} // namespace

// A sanitizer brings its own malloc: then nothing is replaced and no analysis reports its heap.
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__) && !defined(__SANITIZE_MEMORY__)
extern "C" {

void *malloc(std::size_t size) {
  void *p = __libc_malloc(size);
  added(p);
  return p;
}

void free(void *p) {
  removed(p);
  __libc_free(p);
}

void *calloc(std::size_t n, std::size_t size) {
  void *p = __libc_calloc(n, size);
  added(p);
  return p;
}

void *realloc(void *p, std::size_t size) {
  std::int64_t before = p ? static_cast<std::int64_t>(malloc_usable_size(p)) : 0;
  void *q = __libc_realloc(p, size);
  if (q || size == 0) { // realloc(p, 0) frees p; a failed realloc keeps it
    tHeld -= before;
    added(q);
  }
  return q;
}

void *memalign(std::size_t alignment, std::size_t size) {
  void *p = __libc_memalign(alignment, size);
  added(p);
  return p;
}

void *aligned_alloc(std::size_t alignment, std::size_t size) {
  return memalign(alignment, size);
}

int posix_memalign(void **out, std::size_t alignment, std::size_t size) {
  if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0)
    return EINVAL;
  void *p = memalign(alignment, size);
  if (!p)
    return ENOMEM;
  *out = p;
  return 0;
}

void *valloc(std::size_t size) {
  void *p = __libc_valloc(size);
  added(p);
  return p;
}

void *pvalloc(std::size_t size) {
  void *p = __libc_pvalloc(size);
  added(p);
  return p;
}

} // extern "C"
#endif

namespace clcapture::verify {

AllocationWindow::AllocationWindow() : m_base(tHeld) {
  tPeak = tHeld;
}

std::uint64_t AllocationWindow::peakBytes() const {
  return static_cast<std::uint64_t>(std::max<std::int64_t>(0, tPeak - m_base));
}

bool allocationsCounted() {
  return gCounted.load(std::memory_order_relaxed);
}

} // namespace clcapture::verify
