//===- DispatchPatcher.cpp - Hooks installed in a driver's own dispatch table -===//

#include "dispatch/DispatchPatcher.h"

#include "dispatch/HookList.h"
#include "process/Log.h"

#include <cstdint>
#include <cstdio>
#include <sys/mman.h>
#include <unistd.h>

namespace clcapture::layer {

namespace {

/// The protection of the mapping that holds `address`, from /proc/self/maps (PROT_READ if unknown).
int protectionOf(std::uintptr_t address) {
  std::FILE *maps = std::fopen("/proc/self/maps", "r");
  if (!maps)
    return PROT_READ;
  int prot = PROT_READ;
  char line[512];
  while (std::fgets(line, sizeof line, maps)) {
    unsigned long start = 0, end = 0;
    char perms[5] = {0};
    if (std::sscanf(line, "%lx-%lx %4s", &start, &end, perms) != 3)
      continue;
    if (address >= start && address < end) {
      prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
             (perms[2] == 'x' ? PROT_EXEC : 0);
      break;
    }
  }
  std::fclose(maps);
  return prot;
}

} // namespace

DispatchPatcher &DispatchPatcher::instance() {
  static DispatchPatcher *patcher = new DispatchPatcher();
  return *patcher;
}

const cl_icd_dispatch *DispatchPatcher::original(const void *object) const {
  if (!object)
    return nullptr;
  const cl_icd_dispatch *table = *static_cast<cl_icd_dispatch *const *>(object);
  std::size_t n = m_count.load(std::memory_order_acquire);
  for (std::size_t i = 0; i < n; ++i)
    if (m_patched[i].table == table)
      return &m_patched[i].original;
  return nullptr;
}

bool DispatchPatcher::patch(cl_icd_dispatch *table, const TableLimits &limits, HookInstaller install) {
  std::lock_guard<std::mutex> lock(m_mutex);
  std::size_t n = m_count.load(std::memory_order_relaxed);
  for (std::size_t i = 0; i < n; ++i)
    if (m_patched[i].table == table)
      return true;
  if (n == m_patched.size()) {
    log(LogLevel::Error, "too many OpenCL drivers; capture disabled for the extra ones");
    return false;
  }
  // Make the table's pages writable for the moment of the patch, then restore what they were.
  long page = ::sysconf(_SC_PAGESIZE);
  auto begin = reinterpret_cast<std::uintptr_t>(table) & ~static_cast<std::uintptr_t>(page - 1);
  auto end = reinterpret_cast<std::uintptr_t>(table) + sizeof(cl_icd_dispatch);
  std::size_t length = end - begin;
  int before = protectionOf(reinterpret_cast<std::uintptr_t>(table));
  if (!(before & PROT_WRITE) &&
      ::mprotect(reinterpret_cast<void *>(begin), length, before | PROT_READ | PROT_WRITE) != 0) {
    log(LogLevel::Error, "cannot make a driver's dispatch table writable; capture disabled for that driver");
    return false;
  }
  // Keep the driver's own entries and publish them before any hook can run, then point the table at the
  // hooks. The assignments are type-checked against CL/cl_icd.h: a hook with a wrong signature does not
  // compile. A driver without an entry keeps its null.
  // Only the hooked entries the platform's version has are read: a driver built against older headers has
  // a shorter table.
  Patched &p = m_patched[n];
  p.table = table;
#define CLCAPTURE_KEEP(name, since)                                                                          \
  if (CLCAPTURE_ENTRY_ALLOWED(limits, name, since))                                                          \
    p.original.name = table->name;
  CLCAPTURE_HOOKS(CLCAPTURE_KEEP)
  CLCAPTURE_ENGINE_CALLS(CLCAPTURE_KEEP)
#undef CLCAPTURE_KEEP
  m_count.store(n + 1, std::memory_order_release);
  install(table, limits);
  if (!(before & PROT_WRITE))
    ::mprotect(reinterpret_cast<void *>(begin), length, before);
  return true;
}

} // namespace clcapture::layer
