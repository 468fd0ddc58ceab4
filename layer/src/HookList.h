//===- HookList.h - The entry points clcapture hooks ------------*- C++ -*-===//
//
// The one list of hand-written hooks (the Khronos loader's "named list of exceptions"). Every other entry of
// the dispatch table stays the driver's own. Each hook has one shape: forward unchanged, then record
// (clBuildProgram alone adds -cl-kernel-arg-info, because PoCL answers clGetKernelArgInfo only then).
//
//===----------------------------------------------------------------------===//
#pragma once

#define CLCAPTURE_HOOKS(X)                                                                                   \
  X(clCreateProgramWithSource)                                                                               \
  X(clCreateProgramWithBinary)                                                                               \
  X(clBuildProgram)                                                                                          \
  X(clRetainProgram)                                                                                         \
  X(clReleaseProgram)                                                                                        \
  X(clCreateKernel)                                                                                          \
  X(clCreateKernelsInProgram)                                                                                \
  X(clRetainKernel)                                                                                          \
  X(clReleaseKernel)                                                                                         \
  X(clSetKernelArg)                                                                                          \
  X(clCreateBuffer)                                                                                          \
  X(clRetainMemObject)                                                                                       \
  X(clReleaseMemObject)                                                                                      \
  X(clEnqueueNDRangeKernel)                                                                                  \
  X(clEnqueueTask)                                                                                           \
  X(clFinish)                                                                                                \
  X(clReleaseCommandQueue)

/// Driver entries the capture engine itself calls (never hooked ones, which would recurse). They are copied
/// with the hooked entries at patch time, so DispatchPatcher::original() holds everything the layer calls.
/// All are OpenCL 1.2 entries, present in every table clcapture patches.
#define CLCAPTURE_ENGINE_CALLS(X)                                                                            \
  X(clGetCommandQueueInfo)                                                                                   \
  X(clGetDeviceInfo)                                                                                         \
  X(clGetKernelInfo)                                                                                         \
  X(clGetKernelArgInfo)                                                                                      \
  X(clEnqueueReadBuffer)                                                                                     \
  X(clSetEventCallback)                                                                                      \
  X(clWaitForEvents)                                                                                         \
  X(clReleaseEvent)
