//===- InfoString.h - A string answer of an OpenCL clGet*Info query -*- C++ -*-===//
//
// Every clGet*Info query with a string answer (clGetPlatformInfo, clGetDeviceInfo, clGetKernelArgInfo,
// clGetProgramBuildInfo's log, …) is asked the same way: the size first, then the text into a buffer of
// that size, then the terminating NULs cut off. Written once here, header-only and without the OpenCL
// headers (common/ needs none): the caller passes the query as a callable with the last three parameters
// every clGet*Info function has, already bound to its object and parameter name:
//
//   std::string name = opencl::infoString([&](std::size_t size, void *value, std::size_t *sizeRet) {
//     return api.clGetDeviceInfo(device, CL_DEVICE_NAME, size, value, sizeRet);
//   });
//
// The callable returns the query's cl_int status: 0 (CL_SUCCESS) or a failure.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <string>

namespace clcapture::opencl {

/// The query's text without its trailing NULs; empty when either call fails or the answer has no bytes.
template <typename Query> std::string infoString(Query &&query) {
  std::size_t size = 0;
  if (query(std::size_t{0}, static_cast<void *>(nullptr), &size) != 0 || size == 0)
    return {};
  std::string text(size, '\0');
  if (query(size, static_cast<void *>(text.data()), static_cast<std::size_t *>(nullptr)) != 0)
    return {};
  while (!text.empty() && text.back() == '\0')
    text.pop_back();
  return text;
}

} // namespace clcapture::opencl
