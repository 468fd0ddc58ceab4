//===- DriverQueries.cpp - What the engine asks the driver about devices and kernels -===//

#include "engine/DriverQueries.h"

#include "clcapture/opencl/InfoString.h"

namespace clcapture::layer {

namespace {

std::string kernelArgString(const cl_icd_dispatch &d, cl_kernel kernel, cl_uint index,
                            cl_kernel_arg_info what) {
  if (!d.clGetKernelArgInfo)
    return {};
  return opencl::infoString([&](std::size_t size, void *value, std::size_t *sizeRet) {
    return d.clGetKernelArgInfo(kernel, index, what, size, value, sizeRet);
  });
}

} // namespace

std::string deviceString(const cl_icd_dispatch &d, cl_device_id device, cl_device_info what) {
  return opencl::infoString([&](std::size_t size, void *value, std::size_t *sizeRet) {
    return d.clGetDeviceInfo(device, what, size, value, sizeRet);
  });
}

format::DeviceFacts askDeviceFacts(const cl_icd_dispatch &d, cl_device_id device) {
  format::DeviceFacts f;
  f.name = deviceString(d, device, CL_DEVICE_NAME);
  f.vendor = deviceString(d, device, CL_DEVICE_VENDOR);
  f.version = deviceString(d, device, CL_DEVICE_VERSION);
  f.driverVersion = deviceString(d, device, CL_DRIVER_VERSION);
  cl_uint bits = 64;
  d.clGetDeviceInfo(device, CL_DEVICE_ADDRESS_BITS, sizeof bits, &bits, nullptr);
  f.addressBits = bits;
  cl_bool little = CL_TRUE;
  d.clGetDeviceInfo(device, CL_DEVICE_ENDIAN_LITTLE, sizeof little, &little, nullptr);
  f.endianness = little ? format::Endianness::Little : format::Endianness::Big;
  // OpenCL 3.0 §4.2 (CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT); an OpenCL 2.x driver answers
  // CL_INVALID_VALUE.
  cl_bool nonUniform = CL_FALSE;
  if (d.clGetDeviceInfo(device, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof nonUniform, &nonUniform,
                        nullptr) == CL_SUCCESS)
    f.nonUniformWorkGroups = nonUniform != CL_FALSE;
  return f;
}

std::vector<ParamInfo> askParams(const cl_icd_dispatch &d, cl_kernel kernel) {
  cl_uint count = 0;
  d.clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof count, &count, nullptr);
  std::vector<ParamInfo> params(count);
  for (cl_uint i = 0; i < count; ++i) {
    ParamInfo &p = params[i];
    p.name = kernelArgString(d, kernel, i, CL_KERNEL_ARG_NAME);
    p.type = kernelArgString(d, kernel, i, CL_KERNEL_ARG_TYPE_NAME);
    p.haveQualifier =
        d.clGetKernelArgInfo && d.clGetKernelArgInfo(kernel, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER,
                                                     sizeof p.qualifier, &p.qualifier, nullptr) == CL_SUCCESS;
    cl_kernel_arg_type_qualifier typeQualifier = 0;
    p.isConst = d.clGetKernelArgInfo &&
                d.clGetKernelArgInfo(kernel, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof typeQualifier,
                                     &typeQualifier, nullptr) == CL_SUCCESS &&
                (typeQualifier & CL_KERNEL_ARG_TYPE_CONST) != 0;
  }
  return params;
}

} // namespace clcapture::layer
