//===- GlibcCompat.cpp - libclcapture.so loads on glibc 2.31 and later -===//
//
// The library is built on Debian 12 (glibc 2.36) but loaded into applications on any x86-64 Linux with
// glibc >= 2.31 (Ubuntu 20.04, Debian 11, RHEL 9 …). A symbol bound at link time to a newer glibc version
// makes the dynamic linker refuse the library there, and the ICD loader then skips it silently. So every
// glibc symbol that the library (our code, and the static libstdc++/libgcc linked in) would bind to a
// version newer than 2.31 is handled here:
//  - moved into libc in 2.34 (pthread_*, dl*): the linker's --wrap sends every reference to __wrap_X,
//    which calls X at its old version (GLIBC_2.2.5, in libpthread.so.0/libdl.so.2 before 2.34, kept as
//    compatibility symbols in libc since); both libraries are DT_NEEDED, stubs on new glibc;
//  - exported only since 2.33 (stat, lstat, fstat64): the old __xstat family, still exported since;
//  - new in 2.32–2.36 (__libc_single_threaded, _dl_find_object, arc4random): defined here, hidden (the
//    real _dl_find_object is used when the running glibc has it; otherwise it is emulated with
//    dl_iterate_phdr, which is all the unwinder asks of it).
// tests/layer/check_portable.py fails when a newer version comes back; layer/CMakeLists.txt lists the
// wrapped names (CLCAPTURE_GLIBC_WRAPPED), which must match the __wrap_ functions below.
//
//===----------------------------------------------------------------------===//

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define CLCAPTURE_HIDDEN __attribute__((visibility("hidden")))

// References to the old versions: each X_old below is X@VERSION for the linker.
#define CLCAPTURE_OLD(name, version) __asm__(".symver " #name "_old, " #name "@" version)
CLCAPTURE_OLD(pthread_create, "GLIBC_2.2.5");
CLCAPTURE_OLD(pthread_join, "GLIBC_2.2.5");
CLCAPTURE_OLD(pthread_detach, "GLIBC_2.2.5");
CLCAPTURE_OLD(pthread_once, "GLIBC_2.2.5");
CLCAPTURE_OLD(pthread_key_create, "GLIBC_2.2.5");
CLCAPTURE_OLD(__pthread_key_create, "GLIBC_2.2.5");
CLCAPTURE_OLD(pthread_key_delete, "GLIBC_2.2.5");
CLCAPTURE_OLD(pthread_getspecific, "GLIBC_2.2.5");
CLCAPTURE_OLD(pthread_setspecific, "GLIBC_2.2.5");
CLCAPTURE_OLD(pthread_cond_clockwait, "GLIBC_2.30");
CLCAPTURE_OLD(dlopen, "GLIBC_2.2.5");
CLCAPTURE_OLD(dlclose, "GLIBC_2.2.5");
CLCAPTURE_OLD(dlsym, "GLIBC_2.2.5");
CLCAPTURE_OLD(dlvsym, "GLIBC_2.2.5");
CLCAPTURE_OLD(dlerror, "GLIBC_2.2.5");
CLCAPTURE_OLD(dladdr, "GLIBC_2.2.5");
CLCAPTURE_OLD(dlinfo, "GLIBC_2.3.3");
CLCAPTURE_OLD(__xstat, "GLIBC_2.2.5");
CLCAPTURE_OLD(__lxstat, "GLIBC_2.2.5");
CLCAPTURE_OLD(__fxstat64, "GLIBC_2.2.5");

extern "C" {

int pthread_create_old(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
int pthread_join_old(pthread_t, void **);
int pthread_detach_old(pthread_t);
int pthread_once_old(pthread_once_t *, void (*)());
int pthread_key_create_old(pthread_key_t *, void (*)(void *));
int __pthread_key_create_old(pthread_key_t *, void (*)(void *));
int pthread_key_delete_old(pthread_key_t);
void *pthread_getspecific_old(pthread_key_t);
int pthread_setspecific_old(pthread_key_t, const void *);
int pthread_cond_clockwait_old(pthread_cond_t *, pthread_mutex_t *, clockid_t, const struct timespec *);
void *dlopen_old(const char *, int);
int dlclose_old(void *);
void *dlsym_old(void *, const char *);
void *dlvsym_old(void *, const char *, const char *);
char *dlerror_old();
int dladdr_old(const void *, Dl_info *);
int dlinfo_old(void *, int, void *);
int __xstat_old(int, const char *, struct stat *);
int __lxstat_old(int, const char *, struct stat *);
int __fxstat64_old(int, int, struct stat64 *);

CLCAPTURE_HIDDEN int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*f)(void *),
                                           void *arg) {
  return pthread_create_old(t, a, f, arg);
}
CLCAPTURE_HIDDEN int __wrap_pthread_join(pthread_t t, void **r) {
  return pthread_join_old(t, r);
}
CLCAPTURE_HIDDEN int __wrap_pthread_detach(pthread_t t) {
  return pthread_detach_old(t);
}
CLCAPTURE_HIDDEN int __wrap_pthread_once(pthread_once_t *o, void (*f)()) {
  return pthread_once_old(o, f);
}
CLCAPTURE_HIDDEN int __wrap_pthread_key_create(pthread_key_t *k, void (*d)(void *)) {
  return pthread_key_create_old(k, d);
}
// libstdc++'s __gthread_active_p() asks whether this (weak) symbol is non-null: with the wrapper it always
// is, which is true of every process the library is loaded into (the loader and drivers start threads).
CLCAPTURE_HIDDEN int __wrap___pthread_key_create(pthread_key_t *k, void (*d)(void *)) {
  return __pthread_key_create_old(k, d);
}
CLCAPTURE_HIDDEN int __wrap_pthread_key_delete(pthread_key_t k) {
  return pthread_key_delete_old(k);
}
CLCAPTURE_HIDDEN void *__wrap_pthread_getspecific(pthread_key_t k) {
  return pthread_getspecific_old(k);
}
CLCAPTURE_HIDDEN int __wrap_pthread_setspecific(pthread_key_t k, const void *v) {
  return pthread_setspecific_old(k, v);
}
CLCAPTURE_HIDDEN int __wrap_pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m, clockid_t clock,
                                                   const struct timespec *t) {
  return pthread_cond_clockwait_old(c, m, clock, t);
}
CLCAPTURE_HIDDEN void *__wrap_dlopen(const char *file, int mode) {
  return dlopen_old(file, mode);
}
CLCAPTURE_HIDDEN int __wrap_dlclose(void *h) {
  return dlclose_old(h);
}
CLCAPTURE_HIDDEN void *__wrap_dlsym(void *h, const char *name) {
  return dlsym_old(h, name);
}
CLCAPTURE_HIDDEN void *__wrap_dlvsym(void *h, const char *name, const char *version) {
  return dlvsym_old(h, name, version);
}
CLCAPTURE_HIDDEN char *__wrap_dlerror() {
  return dlerror_old();
}
CLCAPTURE_HIDDEN int __wrap_dladdr(const void *address, Dl_info *info) {
  return dladdr_old(address, info);
}
CLCAPTURE_HIDDEN int __wrap_dlinfo(void *h, int request, void *arg) {
  return dlinfo_old(h, request, arg);
}

// x86-64's _STAT_VER_LINUX; struct stat and struct stat64 are the same there.
constexpr int kStatVersion = 1;
CLCAPTURE_HIDDEN int __wrap_stat(const char *path, struct stat *buf) {
  return __xstat_old(kStatVersion, path, buf);
}
CLCAPTURE_HIDDEN int __wrap_lstat(const char *path, struct stat *buf) {
  return __lxstat_old(kStatVersion, path, buf);
}
CLCAPTURE_HIDDEN int __wrap_fstat64(int fd, struct stat64 *buf) {
  return __fxstat64_old(kStatVersion, fd, buf);
}
CLCAPTURE_HIDDEN int __wrap_fstat(int fd, struct stat *buf) {
  return __fxstat64_old(kStatVersion, fd, reinterpret_cast<struct stat64 *>(buf));
}

// glibc 2.32: libstdc++ skips atomic reference counts when this is non-zero. Zero is always correct.
CLCAPTURE_HIDDEN char __libc_single_threaded = 0;

// glibc 2.36: std::random_device's default source.
CLCAPTURE_HIDDEN std::uint32_t arc4random() noexcept {
  std::uint32_t value = 0;
  auto *bytes = reinterpret_cast<unsigned char *>(&value);
  std::size_t done = 0;
  while (done < sizeof value) {
    long n = ::syscall(SYS_getrandom, bytes + done, sizeof value - done, 0);
    if (n > 0)
      done += static_cast<std::size_t>(n);
    else if (errno != EINTR)
      break;
  }
  return value;
}

} // extern "C"

namespace {

using FindObject = int (*)(void *, struct dl_find_object *);

struct PhdrSearch {
  std::uintptr_t pc = 0;
  struct dl_find_object *result = nullptr;
  bool found = false;
};

int visitObject(struct dl_phdr_info *info, std::size_t, void *data) {
  auto *search = static_cast<PhdrSearch *>(data);
  std::uintptr_t start = UINTPTR_MAX, end = 0;
  bool contains = false;
  const void *ehFrame = nullptr;
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    std::uintptr_t from = info->dlpi_addr + ph.p_vaddr;
    if (ph.p_type == PT_LOAD) {
      std::uintptr_t to = from + ph.p_memsz;
      start = from < start ? from : start;
      end = to > end ? to : end;
      contains = contains || (search->pc >= from && search->pc < to);
    } else if (ph.p_type == PT_GNU_EH_FRAME) {
      ehFrame = reinterpret_cast<const void *>(from);
    }
  }
  if (!contains)
    return 0;
  std::memset(search->result, 0, sizeof *search->result);
  search->result->dlfo_map_start = reinterpret_cast<void *>(start);
  search->result->dlfo_map_end = reinterpret_cast<void *>(end);
  search->result->dlfo_eh_frame = const_cast<void *>(ehFrame);
  search->found = true;
  return 1;
}

} // namespace

// glibc 2.35: the unwinder (libgcc_eh, linked in) finds a pc's unwind tables with this.
extern "C" CLCAPTURE_HIDDEN int _dl_find_object(void *pc, struct dl_find_object *result) noexcept {
  static std::atomic<FindObject> real{nullptr};
  static std::atomic<bool> looked{false};
  if (!looked.load(std::memory_order_acquire)) {
    real.store(reinterpret_cast<FindObject>(dlvsym_old(RTLD_DEFAULT, "_dl_find_object", "GLIBC_2.35")),
               std::memory_order_relaxed);
    looked.store(true, std::memory_order_release);
  }
  if (FindObject f = real.load(std::memory_order_relaxed))
    return f(pc, result);
  PhdrSearch search{reinterpret_cast<std::uintptr_t>(pc), result, false};
  ::dl_iterate_phdr(visitObject, &search);
  return search.found ? 0 : -1;
}
