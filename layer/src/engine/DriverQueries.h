//===- DriverQueries.h - What the engine asks the driver about devices and kernels -*- C++ -*-===//
//
// Plain clGet*Info questions through the driver's own entries (never through the loader: a call by name
// would come back into the hooks). Each answers empty rather than failing: a driver that cannot say leaves
// the fact out of the capture.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Sidecar.h"
#include "engine/HandleMirrors.h"

#include <CL/cl_icd.h>
#include <optional>
#include <string>
#include <vector>

namespace clcapture::layer {

/// A string-valued clGetDeviceInfo; empty when the driver does not answer.
std::string deviceString(const cl_icd_dispatch &d, cl_device_id device, cl_device_info what);
/// Name, vendor, versions, address bits and byte order of a device (docs/contract.md §3 sidecar device
/// facts).
format::DeviceFacts askDeviceFacts(const cl_icd_dispatch &d, cl_device_id device);
/// Names, type names and address qualifiers of a kernel's parameters (clGetKernelArgInfo; PoCL answers
/// only for programs built with -cl-kernel-arg-info, which the build hook adds).
std::vector<ParamInfo> askParams(const cl_icd_dispatch &d, cl_kernel kernel);
/// An image's type and extents (clGetMemObjectInfo CL_MEM_TYPE, clGetImageInfo): what bounds its pixel
/// coordinates. None when `image` is no image or the driver does not answer every question its type needs.
std::optional<format::ImageFacts> askImageFacts(const cl_icd_dispatch &d, cl_mem image);
/// A sampler's normalized coordinates, addressing and filter mode (clGetSamplerInfo); none when the driver
/// does not answer.
std::optional<format::SamplerFacts> askSamplerFacts(const cl_icd_dispatch &d, cl_sampler sampler);

} // namespace clcapture::layer
