//===- HookList.h - The entry points clcapture hooks ------------*- C++ -*-===//
//
// The one list of hand-written hooks (the Khronos loader's "named list of exceptions"). Every other entry of
// the dispatch table stays the driver's own. Each hook has one shape: forward unchanged, then record; no hook
// changes what the application passes (kernel parameters the driver will not describe are learnt from a
// private build: engine/ParameterLearning.h). clGetProgramInfo is hooked for CL_PROGRAM_BINARIES alone: the
// binaries an application reads are what it caches, and the program store (ProgramStore.h) keys their sources
// by them. The enqueues that may write a buffer (writes, copies, fills, maps for writing, unmaps, native
// kernels, migrations that leave contents undefined) only tell the engine that the buffer changed, so that a
// later launch reads it again rather than reusing an earlier read (HandleMirrors::written); an extension
// function the application fetches that could enqueue work unseen turns that reuse off for the rest of the
// run.
//
// Each entry names the OpenCL version that added it (12 = 1.2). A driver's dispatch table is only as long
// as the headers it was built with, so an entry newer than the platform's version is neither read nor
// written (DispatchPatcher), and a layer's is limited to the entries the loader offered.
//
//===----------------------------------------------------------------------===//
#pragma once

#define CLCAPTURE_HOOKS(X)                                                                                   \
  X(clCreateProgramWithSource, 10)                                                                           \
  X(clCreateProgramWithBinary, 10)                                                                           \
  X(clCreateProgramWithIL, 21)                                                                               \
  X(clBuildProgram, 10)                                                                                      \
  X(clCompileProgram, 12)                                                                                    \
  X(clLinkProgram, 12)                                                                                       \
  X(clGetProgramInfo, 10)                                                                                    \
  X(clRetainProgram, 10)                                                                                     \
  X(clReleaseProgram, 10)                                                                                    \
  X(clCreateKernel, 10)                                                                                      \
  X(clCreateKernelsInProgram, 10)                                                                            \
  X(clCloneKernel, 21)                                                                                       \
  X(clRetainKernel, 10)                                                                                      \
  X(clReleaseKernel, 10)                                                                                     \
  X(clSetKernelArg, 10)                                                                                      \
  X(clSetKernelArgSVMPointer, 20)                                                                            \
  X(clCreateBuffer, 10)                                                                                      \
  X(clCreateBufferWithProperties, 30)                                                                        \
  X(clCreateSubBuffer, 11)                                                                                   \
  X(clRetainMemObject, 10)                                                                                   \
  X(clReleaseMemObject, 10)                                                                                  \
  X(clSVMAlloc, 20)                                                                                          \
  X(clSVMFree, 20)                                                                                           \
  X(clEnqueueNDRangeKernel, 10)                                                                              \
  X(clEnqueueTask, 10)                                                                                       \
  X(clEnqueueWriteBuffer, 10)                                                                                \
  X(clEnqueueWriteBufferRect, 11)                                                                            \
  X(clEnqueueCopyBuffer, 10)                                                                                 \
  X(clEnqueueCopyBufferRect, 11)                                                                             \
  X(clEnqueueFillBuffer, 12)                                                                                 \
  X(clEnqueueCopyImageToBuffer, 10)                                                                          \
  X(clEnqueueMapBuffer, 10)                                                                                  \
  X(clEnqueueUnmapMemObject, 10)                                                                             \
  X(clEnqueueNativeKernel, 10)                                                                               \
  X(clEnqueueMigrateMemObjects, 12)                                                                          \
  X(clGetExtensionFunctionAddressForPlatform, 12)                                                            \
  X(clFinish, 10)                                                                                            \
  X(clReleaseCommandQueue, 10)

/// Driver entries the capture engine itself calls (never hooked ones, which would recurse). They are copied
/// with the hooked entries at patch time, so DispatchPatcher::original() holds everything the layer calls.
#define CLCAPTURE_ENGINE_CALLS(X)                                                                            \
  X(clGetCommandQueueInfo, 10)                                                                               \
  X(clGetDeviceInfo, 10)                                                                                     \
  X(clGetKernelInfo, 10)                                                                                     \
  X(clGetKernelArgInfo, 12)                                                                                  \
  X(clGetMemObjectInfo, 10)                                                                                  \
  X(clGetImageInfo, 10)                                                                                      \
  X(clGetSamplerInfo, 10)                                                                                    \
  X(clEnqueueReadBuffer, 10)                                                                                 \
  X(clEnqueueSVMMemcpy, 20)                                                                                  \
  X(clGetEventInfo, 10)                                                                                      \
  X(clFlush, 10)                                                                                             \
  X(clWaitForEvents, 10)                                                                                     \
  X(clReleaseEvent, 10)

#include <CL/cl_icd.h>
#include <cstddef>

namespace clcapture::layer {

/// How much of a dispatch table may be touched: entries up to OpenCL `version` (12 = 1.2), and only the
/// first `entries` of them.
struct TableLimits {
  int version = 30;
  std::size_t entries = sizeof(cl_icd_dispatch) / sizeof(void *);

  bool allows(std::size_t offset, int since) const {
    return since <= version && offset / sizeof(void *) < entries;
  }
};

#define CLCAPTURE_ENTRY_ALLOWED(limits, name, since) (limits).allows(offsetof(cl_icd_dispatch, name), since)

} // namespace clcapture::layer
