//===- CaptureEngine.h - What the hooks learn, and the launches it records -*- C++ -*-===//
//
// The engine mirrors the application's programs, kernels (with their argument values) and buffers, keyed by
// the driver's real handles, and turns each successful launch into an instantiation plus launch facts in the
// capture folder (common/'s CaptureRecorder). Handles are forgotten when the application's own reference
// count reaches zero, because drivers reuse them. Any internal failure turns capture off (CaptureSwitch.h);
// the application's calls and results are never affected.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/LaunchShape.h"

#include <CL/cl_icd.h>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace clcapture::layer {

struct PendingLaunch;

/// One device's binary, as given to clCreateProgramWithBinary.
struct ProgramBinary {
  cl_device_id device = nullptr;
  const unsigned char *bytes = nullptr;
  std::size_t size = 0;
};

class CaptureEngine {
public:
  static CaptureEngine &instance();

  void programCreated(cl_program program, std::string source);
  /// A program without source (clCreateProgramWithIL): its launches are listed, not verifiable.
  void programCreatedWithoutSource(cl_program program, const char *origin);
  /// clCreateProgramWithBinary: the program gets the source the program store (ProgramStore.h) holds for its
  /// binaries, for the devices whose binary it knows; without one its launches are listed, not verifiable.
  void programCreatedFromBinary(cl_program program, const std::vector<ProgramBinary> &binaries);
  /// The application read the program's binaries (clGetProgramInfo(CL_PROGRAM_BINARIES), `count` pointers to
  /// its buffers): the program store keeps the program's source under each of them.
  void programBinariesRead(const cl_icd_dispatch &driver, cl_program program, unsigned char *const *binaries,
                           std::size_t count);
  void programBuilt(cl_program program, const char *originalOptions);
  /// clCompileProgram: the options, and the input headers the source may #include (inlined into it).
  void programCompiled(cl_program program, const char *originalOptions,
                       const std::vector<std::pair<std::string, cl_program>> &headers);
  /// clLinkProgram: the new program's source is its inputs' sources, in order.
  void programLinked(cl_program program, const std::vector<cl_program> &inputs, const char *linkOptions);
  void programRetained(cl_program program);
  void programReleased(cl_program program);
  void kernelCreated(cl_kernel kernel, cl_program program, const char *name);
  /// clCloneKernel: the copy starts with the source kernel's argument values (OpenCL 2.1 §5.9.1).
  void kernelCloned(cl_kernel kernel, cl_kernel source);
  void kernelRetained(cl_kernel kernel);
  void kernelReleased(cl_kernel kernel);
  void kernelArgSet(cl_kernel kernel, cl_uint index, size_t size, const void *value);
  void kernelArgSvmSet(cl_kernel kernel, cl_uint index, const void *pointer);
  /// `plain`: created without properties, so only the hooked enqueues can change it (HandleMirrors.h).
  void bufferCreated(cl_mem mem, cl_mem_flags flags, size_t size, bool plain = true);
  void subBufferCreated(cl_mem mem, cl_mem parent, cl_mem_flags flags, size_t origin, size_t size);
  void svmAllocated(void *pointer, cl_svm_mem_flags flags, size_t size);
  void svmFreed(void *pointer);
  void memRetained(cl_mem mem);
  /// An enqueue that may change the buffer's bytes (or the host may, through a mapping): a later launch reads
  /// it again instead of reusing an earlier read.
  void memWritten(cl_mem mem);
  /// The application fetched an extension function. One that could enqueue work the hooks never see
  /// (command buffers, device pointers into buffers, interop acquisitions) turns reuse of earlier reads off
  /// for the rest of the run; queries and object creation do not.
  void extensionFunctionFetched(const char *name);
  void memReleased(cl_mem mem);
  /// Before the launch is forwarded: describes it and enqueues non-blocking reads of its buffers on the same
  /// queue, after the launch's own wait list (docs/drivers-and-loaders.md: never block inside the hooked
  /// enqueue). `extraWaits` receives the reads' events, which the launch must wait for so that it cannot
  /// change the bytes before they are read. Null when this launch is not captured.
  std::shared_ptr<PendingLaunch> prepare(const cl_icd_dispatch &driver, cl_command_queue queue,
                                         cl_kernel kernel, const LaunchShape &shape, cl_uint numWaits,
                                         const cl_event *waits, std::vector<cl_event> &extraWaits);
  /// After the launch was forwarded: numbers and records it once its reads complete (on the writer thread),
  /// or drops it when the driver refused the launch.
  void commit(const std::shared_ptr<PendingLaunch> &launch, cl_int enqueueStatus);

  /// After the driver's clFinish(queue): waits until the queue's captured launches are on disk, so that a
  /// process killed after clFinish has lost nothing it launched before.
  void queueFinished(cl_command_queue queue);
  /// The queue's last reference is gone: its handle may come back as a new queue.
  void queueReleased(cl_command_queue queue);

  /// Waits until every launch seen so far is on disk (giving up after 10 s without progress): at exit or when
  /// the loader unloads us.
  void drain();

  CaptureEngine(const CaptureEngine &) = delete;
  CaptureEngine &operator=(const CaptureEngine &) = delete;

private:
  CaptureEngine();
  /// prepare()'s description of the launch, under the engine's lock; null when it is not captured.
  std::shared_ptr<PendingLaunch> describeLaunch(const cl_icd_dispatch &driver, cl_command_queue queue,
                                                cl_kernel kernel, const LaunchShape &shape, bool backlogged);
  /// Before describeLaunch, outside the engine's lock: the kernel's parameters, from the application's kernel
  /// when the driver answers, else from a private build (ParameterLearning.h), at the kernel's first
  /// launch.
  void learnParameters(const cl_icd_dispatch &driver, cl_command_queue queue, cl_kernel kernel);
  struct State;
  std::unique_ptr<State> m_state;
};

} // namespace clcapture::layer
