//===- ParameterLearning.h - A kernel's parameters, learnt without touching the application's build -*- C++
//-*-===//
//
// The capture needs each kernel parameter's address space and constness (which bytes to read, which buffers a
// launch may write) and its name and type name (the sidecar). Some drivers answer clGetKernelArgInfo only for
// programs built with -cl-kernel-arg-info (PoCL: docs/drivers-and-loaders.md). Adding that option to the
// application's own build would show: CL_PROGRAM_BUILD_OPTIONS would name it, clGetKernelArgInfo would answer
// where it answers CL_KERNEL_ARG_INFO_NOT_AVAILABLE, and the binaries the application caches would change.
// So the engine asks the application's kernel first (a driver that needs no option, or an application that
// asked for it, answers), and otherwise builds a private copy of the program: the captured source, the
// application's options plus -cl-kernel-arg-info (and -cl-opt-disable), the launch's device alone. It asks
// the copy's kernels and releases the copy at once; the application holds no handle to it and sees none of
// its answers. Where the copy does not build, the argument values decide (ArgumentCapture.cpp).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/HandleMirrors.h"

#include <CL/cl_icd.h>
#include <map>
#include <string>
#include <vector>

namespace clcapture::layer {

/// What an argument's value says of its parameter: checks what the source says (SignatureReader.h) before it
/// is believed.
struct ValueShape {
  bool set = false;
  bool nullValue = false; ///< clSetKernelArg with a NULL value: a __local argument or a NULL buffer
  bool svm = false;       ///< clSetKernelArgSVMPointer
  std::size_t size = 0;
  bool knownBuffer = false; ///< the value is a buffer the application created
};
std::vector<ValueShape> valueShapes(const KernelInfo &kernel, const HandleMirrors &mirrors);
/// Whether every set value fits its parameter as read: a __local one has a NULL value, a pointer one a
/// memory object (or NULL, or SVM), a private one neither a NULL value nor a buffer.
bool agreesWithValues(const std::vector<ParamInfo> &params, const std::vector<ValueShape> &values);

/// Whether the driver answered every parameter's address qualifier (a kernel without parameters: yes).
bool answeredAll(const std::vector<ParamInfo> &params);

/// The build options of the private copy: the application's, less the options only clLinkProgram accepts
/// (a linked program's options join its inputs' compile options and the link options), plus
/// -cl-kernel-arg-info and -cl-opt-disable (the parameters do not depend on optimisation; the build is
/// faster).
std::string privateBuildOptions(const std::string &applicationOptions);

/// Every kernel's parameters in a private build of `source` for `device`; `failure` says why there are none.
struct LearntParameters {
  std::map<std::string, std::vector<ParamInfo>> byKernel;
  std::string failure;
};
LearntParameters learnFromPrivateBuild(const cl_icd_dispatch &d, cl_context context, cl_device_id device,
                                       const std::string &source, const std::string &applicationOptions);

} // namespace clcapture::layer
