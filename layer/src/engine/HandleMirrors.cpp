//===- HandleMirrors.cpp - The application's OpenCL objects, as the engine knows them -===//

#include "engine/HandleMirrors.h"

#include <algorithm>
#include <cstring>

namespace clcapture::layer {

bool hasSource(format::ProgramOrigin origin) {
  return origin == format::ProgramOrigin::Source || origin == format::ProgramOrigin::Linked ||
         origin == format::ProgramOrigin::BinarySourceRecovered;
}

const char *const kHowToRecoverSource =
    "clear the application's binary cache (hashcat: ~/.cache/hashcat or its kernels folder; PyOpenCL: "
    "~/.cache/pyopencl) and run it once under clcapture, which stores the source of every binary the "
    "application reads (CLCAPTURE_STORE)";

const SvmInfo *HandleMirrors::svmHolding(const void *pointer, std::uint64_t &offset) const {
  auto address = reinterpret_cast<std::uintptr_t>(pointer);
  auto it = svms.upper_bound(address);
  if (it == svms.begin())
    return nullptr;
  --it;
  if (address >= it->first + std::max<std::size_t>(it->second.size, 1))
    return nullptr;
  offset = address - it->first;
  return &it->second;
}

std::uint64_t HandleMirrors::queueNumber(cl_command_queue queue) {
  auto it = queues.find(queue);
  if (it == queues.end())
    it = queues.emplace(queue, nextQueue++).first;
  return it->second;
}

std::uint64_t HandleMirrors::threadNumber() {
  thread_local std::uint64_t number = UINT64_MAX;
  if (number == UINT64_MAX)
    number = nextThread++;
  return number;
}

void HandleMirrors::queueReleased(cl_command_queue queue) {
  queues.erase(queue);
}

void HandleMirrors::bufferCreated(cl_mem mem, cl_mem_flags flags, std::size_t size, bool reusable,
                                  CallSite createdAt) {
  MemInfo m;
  m.id = nextMem++;
  m.createdAt = createdAt;
  m.flags = flags;
  m.size = size;
  m.reusable = reusable && !(flags & CL_MEM_USE_HOST_PTR);
  mems[mem] = m;
}

void HandleMirrors::written(cl_mem mem) {
  auto it = mems.find(mem);
  if (it != mems.end())
    ++*it->second.writes;
}

void HandleMirrors::launched(const KernelInfo &kernel) {
  for (std::size_t i = 0; i < kernel.args.size(); ++i) {
    const ArgValue &value = kernel.args[i];
    if (value.svm || value.bytes.size() != sizeof(cl_mem))
      continue;
    if (kernel.params && i < kernel.params->size()) {
      const ParamInfo &param = (*kernel.params)[i];
      if (param.isConst || (param.haveQualifier && param.qualifier != CL_KERNEL_ARG_ADDRESS_GLOBAL))
        continue;
    }
    cl_mem mem = nullptr;
    std::memcpy(&mem, value.bytes.data(), sizeof mem);
    auto it = mems.find(mem);
    if (it != mems.end() && !(it->second.flags & CL_MEM_READ_ONLY))
      ++*it->second.writes;
  }
}

void HandleMirrors::writtenAnywhere() {
  for (auto &[handle, m] : mems) {
    m.lastRead.reset();
    ++*m.writes;
  }
}

void HandleMirrors::subBufferCreated(cl_mem mem, cl_mem parent, cl_mem_flags flags, std::size_t origin,
                                     std::size_t size, CallSite createdAt) {
  auto p = mems.find(parent);
  MemInfo m;
  m.id = nextMem++;
  m.createdAt = createdAt;
  m.flags = flags;
  if (p != mems.end()) {
    const cl_mem_flags access = CL_MEM_READ_WRITE | CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY;
    const cl_mem_flags host = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
    const cl_mem_flags creation = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
    if (!(flags & access))
      m.flags |= p->second.flags & access;
    if (!(flags & host))
      m.flags |= p->second.flags & host;
    m.flags |= p->second.flags & creation;
    m.parent = p->second.id;
    m.writes = p->second.writes; // one object: a write to either is a write to both
    m.reusable = p->second.reusable && !(m.flags & CL_MEM_USE_HOST_PTR);
  } else {
    m.reusable = false; // writes to the unknown parent would go unseen
  }
  m.origin = origin;
  m.size = size;
  mems[mem] = m;
}

} // namespace clcapture::layer
