//===- IcdExports.cpp - The shim ICD's three exported entry points -------===//
//
// What an ICD loader needs from a driver library (docs/drivers-and-loaders.md): clIcdGetPlatformIDsKHR,
// clGetExtensionFunctionAddress and clGetPlatformInfo. The platforms handed out are the real driver's own
// handles, so every later call goes straight through the driver's dispatch table; hooks are installed in that
// table by the capture engine. No C++ exception crosses these functions.
//
//===----------------------------------------------------------------------===//

#include "dispatch/DriverSet.h"
#include "process/Log.h"
#include "writer/RunStatus.h"

#include <CL/cl_icd.h>
#include <cstring>

#define CLCAPTURE_EXPORT extern "C" __attribute__((visibility("default")))

using clcapture::layer::DriverSet;

namespace {

const cl_icd_dispatch *dispatchOf(cl_platform_id platform) {
  // cl_khr_icd: every object handed to an application starts with its driver's dispatch table pointer.
  return *reinterpret_cast<cl_icd_dispatch *const *>(platform);
}

bool isOurPlatform(cl_platform_id platform) {
  for (cl_platform_id p : DriverSet::instance().platforms())
    if (p == platform)
      return true;
  return false;
}

} // namespace

CLCAPTURE_EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms,
                                                           cl_uint *num_platforms) {
  if ((num_entries == 0 && platforms) || (!platforms && !num_platforms))
    return CL_INVALID_VALUE;
  try {
    std::vector<cl_platform_id> all = DriverSet::instance().platforms();
    clcapture::layer::RunStatus::instance().platformsListed(all.size());
    if (all.empty())
      return CL_PLATFORM_NOT_FOUND_KHR;
    if (num_platforms)
      *num_platforms = static_cast<cl_uint>(all.size());
    for (cl_uint i = 0; platforms && i < num_entries && i < all.size(); ++i)
      platforms[i] = all[i];
    return CL_SUCCESS;
  } catch (...) {
    clcapture::layer::log(clcapture::layer::LogLevel::Error, "internal error while listing platforms");
    return CL_OUT_OF_HOST_MEMORY;
  }
}

CLCAPTURE_EXPORT cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
                                                      size_t param_value_size, void *param_value,
                                                      size_t *param_value_size_ret) {
  // The loader calls this export directly (ocl-icd requires it); forward to the platform's own driver.
  try {
    if (!platform || !isOurPlatform(platform))
      return CL_INVALID_PLATFORM;
  } catch (...) {
    return CL_OUT_OF_HOST_MEMORY;
  }
  return dispatchOf(platform)->clGetPlatformInfo(platform, param_name, param_value_size, param_value,
                                                 param_value_size_ret);
}

CLCAPTURE_EXPORT void *CL_API_CALL clGetExtensionFunctionAddress(const char *func_name) {
  if (!func_name)
    return nullptr;
  // Loaders look up the ICD entry point by name: it must be ours, not a driver's.
  if (!std::strcmp(func_name, "clIcdGetPlatformIDsKHR"))
    return reinterpret_cast<void *>(&clIcdGetPlatformIDsKHR);
  try {
    for (const auto &driver : DriverSet::instance().drivers())
      if (driver.getExtensionFunctionAddress)
        if (void *f = driver.getExtensionFunctionAddress(func_name))
          return f;
  } catch (...) {
  }
  return nullptr;
}
