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

std::optional<format::ImageFacts> askImageFacts(const cl_icd_dispatch &d, cl_mem image) {
  if (!image || !d.clGetMemObjectInfo || !d.clGetImageInfo)
    return std::nullopt;
  cl_mem_object_type type = 0;
  if (d.clGetMemObjectInfo(image, CL_MEM_TYPE, sizeof type, &type, nullptr) != CL_SUCCESS)
    return std::nullopt;
  format::ImageFacts f;
  bool height = false, depth = false, array = false;
  switch (type) {
  case CL_MEM_OBJECT_IMAGE1D:
    f.type = "image1d";
    break;
  case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    f.type = "image1d_buffer";
    break;
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    f.type = "image1d_array", array = true;
    break;
  case CL_MEM_OBJECT_IMAGE2D:
    f.type = "image2d", height = true;
    break;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    f.type = "image2d_array", height = array = true;
    break;
  case CL_MEM_OBJECT_IMAGE3D:
    f.type = "image3d", height = depth = true;
    break;
  default:
    return std::nullopt;
  }
  auto ask = [&](cl_image_info what, std::uint64_t &into) {
    std::size_t value = 0;
    if (d.clGetImageInfo(image, what, sizeof value, &value, nullptr) != CL_SUCCESS || value == 0)
      return false;
    into = value;
    return true;
  };
  if (!ask(CL_IMAGE_WIDTH, f.width) || (height && !ask(CL_IMAGE_HEIGHT, f.height)) ||
      (depth && !ask(CL_IMAGE_DEPTH, f.depth)) || (array && !ask(CL_IMAGE_ARRAY_SIZE, f.arraySize)))
    return std::nullopt;
  return f;
}

std::optional<format::SamplerFacts> askSamplerFacts(const cl_icd_dispatch &d, cl_sampler sampler) {
  if (!sampler || !d.clGetSamplerInfo)
    return std::nullopt;
  cl_bool normalized = CL_FALSE;
  cl_addressing_mode addressing = 0;
  cl_filter_mode filter = 0;
  if (d.clGetSamplerInfo(sampler, CL_SAMPLER_NORMALIZED_COORDS, sizeof normalized, &normalized, nullptr) !=
          CL_SUCCESS ||
      d.clGetSamplerInfo(sampler, CL_SAMPLER_ADDRESSING_MODE, sizeof addressing, &addressing, nullptr) !=
          CL_SUCCESS ||
      d.clGetSamplerInfo(sampler, CL_SAMPLER_FILTER_MODE, sizeof filter, &filter, nullptr) != CL_SUCCESS)
    return std::nullopt;
  format::SamplerFacts f;
  f.normalizedCoords = normalized == CL_TRUE;
  switch (addressing) {
  case CL_ADDRESS_NONE:
    f.addressing = format::SamplerAddressing::None;
    break;
  case CL_ADDRESS_CLAMP_TO_EDGE:
    f.addressing = format::SamplerAddressing::ClampToEdge;
    break;
  case CL_ADDRESS_CLAMP:
    f.addressing = format::SamplerAddressing::Clamp;
    break;
  case CL_ADDRESS_REPEAT:
    f.addressing = format::SamplerAddressing::Repeat;
    break;
  case CL_ADDRESS_MIRRORED_REPEAT:
    f.addressing = format::SamplerAddressing::MirroredRepeat;
    break;
  default:
    return std::nullopt;
  }
  switch (filter) {
  case CL_FILTER_NEAREST:
    f.filter = format::SamplerFilter::Nearest;
    break;
  case CL_FILTER_LINEAR:
    f.filter = format::SamplerFilter::Linear;
    break;
  default:
    return std::nullopt;
  }
  return f;
}

} // namespace clcapture::layer
