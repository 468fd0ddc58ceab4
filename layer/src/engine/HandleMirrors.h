//===- HandleMirrors.h - The application's OpenCL objects, as the engine knows them -*- C++ -*-===//
//
// The engine mirrors programs, kernels (with their argument values), buffers, SVM allocations and queues,
// keyed by the driver's real handles. Each mirror follows the application's own reference count and is
// forgotten at zero, because drivers hand the same handle out again for a new object. Ids written to the
// capture (programs, memory objects, queues, threads) are counters, never pointer values, so folders are
// deterministic. Guarded by the engine's lock.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Sidecar.h"
#include "process/CallSite.h"

#include <CL/cl_icd.h>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace clcapture::layer {

/// What the driver says about one kernel parameter (clGetKernelArgInfo); fixed for the kernel's lifetime.
struct ParamInfo {
  std::string name;
  std::string type;
  bool haveQualifier = false;
  cl_kernel_arg_address_qualifier qualifier = 0;
  bool isConst = false; ///< CL_KERNEL_ARG_TYPE_CONST: the kernel cannot write through it
};

/// A program's kernels' parameters where the driver does not describe them (ParameterLearning.h): read from
/// its source where that is certain (SignatureReader.h), else from a private build with -cl-kernel-arg-info.
/// Each is made at most once, outside the engine's lock: its own mutex makes a second launching thread wait
/// for the first.
struct PrivateParameters {
  std::mutex mutex;
  bool read = false;
  std::map<std::string, std::vector<ParamInfo>> fromSource;
  bool tried = false;
  std::map<std::string, std::vector<ParamInfo>> byKernel;
};

struct ProgramInfo {
  std::uint64_t id = 0;
  std::string source;
  std::string options; ///< the application's own build options
  format::ProgramOrigin origin = format::ProgramOrigin::Source;
  long refs = 1;
  CallSite createdAt = 0; ///< the application's clCreateProgramWithSource (or ...WithBinary)
  const char *createdWith = "clCreateProgramWithSource";
  CallSite builtAt = 0; ///< its latest clBuildProgram
  /// BinarySourceRecovered: the devices whose binary the program store knew (launches elsewhere are not
  /// verifiable: another device's binary may come from another source).
  std::vector<cl_device_id> sourceDevices;
  std::string noSourceReason; ///< Binary: why there is no source, and how to get it
  std::shared_ptr<PrivateParameters> learnt = std::make_shared<PrivateParameters>();
};

/// Whether launches of a program with this origin can be instantiations (they have source).
bool hasSource(format::ProgramOrigin origin);

/// How to get the source of a program loaded from an application's binary cache.
extern const char *const kHowToRecoverSource;

struct ArgValue {
  bool set = false;
  std::vector<std::uint8_t> bytes; ///< empty when the value pointer was NULL
  std::size_t size = 0;
  bool svm = false; ///< set by clSetKernelArgSVMPointer: `svmPointer` is the value
  const void *svmPointer = nullptr;
  CallSite setAt = 0; ///< the application's clSetKernelArg that set this value
};

struct KernelInfo {
  std::shared_ptr<ProgramInfo> program; ///< shared: the kernel keeps its program alive in the driver too
  std::string name;
  std::vector<ArgValue> args;
  long refs = 1;
  /// CLCAPTURE_KERNELS admits this kernel: only then are its argument-setting call sites worth a stack walk.
  bool wanted = true;
  /// Asked of the driver at the kernel's first captured launch, then reused: launches are a hot path.
  std::optional<std::vector<ParamInfo>> params;
  std::string kernelFile; ///< the stored source's name in the capture folder, once written
};

struct SharedBlob;

struct MemInfo {
  std::uint64_t id = 0;
  cl_mem_flags flags = 0;
  std::size_t size = 0;
  long refs = 1;
  std::optional<std::uint64_t> parent; ///< a sub-buffer's parent (OpenCL 1.2: never itself a sub-buffer)
  std::uint64_t origin = 0;            ///< a sub-buffer's offset in its parent
  /// The application's call that created it (clCreateBuffer, clCreateSubBuffer), for a launch's
  /// host_api_calls: a memory-safety finding names it. 0 when call sites are off.
  CallSite createdAt = 0;
  /// Writer enqueues seen on the root object (the buffer, or a sub-buffer's parent), shared by the root and
  /// its sub-buffers: a write to either changes both.
  std::shared_ptr<std::uint64_t> writes = std::make_shared<std::uint64_t>(0);
  /// Whether its bytes can change only through enqueued commands the hooks see: not with CL_MEM_USE_HOST_PTR
  /// (the application writes host memory directly), not created with properties (cl_ext_buffer_device_address
  /// lets kernels reach a buffer that is no argument), not a sub-buffer of an unknown parent.
  bool reusable = true;
  /// The latest read of its bytes and the write count it was taken at: while the count is unchanged, a launch
  /// records these bytes instead of reading again, once the read completed or, still in flight, when the
  /// launch is on the same queue from the same host thread (so the read was enqueued before it, and the
  /// writer records a queue's launches in order, each after its own reads).
  std::shared_ptr<SharedBlob> lastRead;
  std::uint64_t lastReadWrites = 0;
  std::uint64_t lastReadQueue = 0;  ///< the queue the read was enqueued on
  std::uint64_t lastReadThread = 0; ///< the host thread that enqueued it
};

struct SvmInfo {
  std::uint64_t id = 0;
  cl_svm_mem_flags flags = 0;
  std::size_t size = 0;
};

struct HandleMirrors {
  std::map<cl_program, std::shared_ptr<ProgramInfo>> programs;
  std::map<cl_kernel, KernelInfo> kernels;
  std::map<cl_mem, MemInfo> mems;
  std::map<std::uintptr_t, SvmInfo> svms; ///< by start address
  std::map<cl_command_queue, std::uint64_t> queues;
  std::uint64_t nextProgram = 0, nextMem = 0, nextSvm = 0, nextThread = 0, nextQueue = 0;
  /// Off once the application may change buffers in ways the hooks do not see (an extension function that
  /// enqueues work): then no launch reuses an earlier read.
  bool reuseAllowed = true;

  /// The SVM allocation holding `pointer`, and the pointer's offset in it.
  const SvmInfo *svmHolding(const void *pointer, std::uint64_t &offset) const;
  /// The queue's number: counted, never reused, even when the driver reuses a released queue's handle.
  std::uint64_t queueNumber(cl_command_queue queue);
  /// This host thread's number: assigned at its first launch and kept in a thread_local, because the system
  /// reuses thread ids once a thread has ended (a map keyed by id merged two threads of the threads sample).
  std::uint64_t threadNumber();
  void queueReleased(cl_command_queue queue);

  void bufferCreated(cl_mem mem, cl_mem_flags flags, std::size_t size, bool reusable = true,
                     CallSite createdAt = 0);
  /// OpenCL 1.2 §5.2.1: access and host-access flags left out are inherited from the parent.
  void subBufferCreated(cl_mem mem, cl_mem parent, cl_mem_flags flags, std::size_t origin, std::size_t size,
                        CallSite createdAt = 0);
  /// A command that may change the object's bytes was enqueued (or the host may write them: a map for
  /// writing, an unmap): reads taken before no longer stand for it, nor for its parent or sub-buffers.
  void written(cl_mem mem);
  /// A launch of `kernel` was enqueued: every buffer it may write (an argument that is not CL_MEM_READ_ONLY,
  /// nor const or constant when the parameters are known) is written.
  void launched(const KernelInfo &kernel);
  /// Something wrote memory the hooks cannot name (a launch of a kernel clcapture does not know): no earlier
  /// read stands for any object.
  void writtenAnywhere();
};

/// The application's reference count, mirrored: +1 on retain, -1 on release, forgotten at zero (the driver
/// may then hand the same handle out for a new object).
inline long &refsOf(std::shared_ptr<ProgramInfo> &p) {
  return p->refs;
}
template <typename Info> long &refsOf(Info &info) {
  return info.refs;
}

template <typename Map> void retainIn(Map &map, typename Map::key_type handle) {
  auto it = map.find(handle);
  if (it != map.end())
    ++refsOf(it->second);
}

template <typename Map> void releaseIn(Map &map, typename Map::key_type handle) {
  auto it = map.find(handle);
  if (it != map.end() && --refsOf(it->second) <= 0)
    map.erase(it);
}

} // namespace clcapture::layer
