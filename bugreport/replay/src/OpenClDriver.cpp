//===- OpenClDriver.cpp - The OpenCL implementation a replay runs on ------===//

#include "clcapture/replay/OpenClDriver.h"

#include "clcapture/opencl/InfoString.h"

#include <CL/cl.h>
#include <dlfcn.h>
#include <fstream>
#include <vector>

namespace clcapture::replay {

namespace {

/// The ICD loader's own entry points, in the shape of a dispatch table, for the calls a replay makes.
cl_icd_dispatch loaderTable() {
  cl_icd_dispatch t{};
  t.clGetPlatformIDs = &::clGetPlatformIDs;
  t.clGetPlatformInfo = &::clGetPlatformInfo;
  t.clGetDeviceIDs = &::clGetDeviceIDs;
  t.clGetDeviceInfo = &::clGetDeviceInfo;
  t.clCreateContext = &::clCreateContext;
  t.clReleaseContext = &::clReleaseContext;
  t.clCreateCommandQueue = &::clCreateCommandQueue;
  t.clReleaseCommandQueue = &::clReleaseCommandQueue;
  t.clCreateBuffer = &::clCreateBuffer;
  t.clCreateSubBuffer = &::clCreateSubBuffer;
  t.clReleaseMemObject = &::clReleaseMemObject;
  t.clCreateProgramWithSource = &::clCreateProgramWithSource;
  t.clBuildProgram = &::clBuildProgram;
  t.clGetProgramBuildInfo = &::clGetProgramBuildInfo;
  t.clReleaseProgram = &::clReleaseProgram;
  t.clCreateKernel = &::clCreateKernel;
  t.clGetKernelInfo = &::clGetKernelInfo;
  t.clGetKernelArgInfo = &::clGetKernelArgInfo;
  t.clSetKernelArg = &::clSetKernelArg;
  t.clReleaseKernel = &::clReleaseKernel;
  t.clEnqueueWriteBuffer = &::clEnqueueWriteBuffer;
  t.clEnqueueReadBuffer = &::clEnqueueReadBuffer;
  t.clEnqueueNDRangeKernel = &::clEnqueueNDRangeKernel;
  t.clEnqueueTask = &::clEnqueueTask;
  t.clFinish = &::clFinish;
  return t;
}

std::string platformString(const cl_icd_dispatch &api, cl_platform_id p, cl_platform_info what) {
  return opencl::infoString([&](std::size_t size, void *value, std::size_t *sizeRet) {
    return api.clGetPlatformInfo(p, what, size, value, sizeRet);
  });
}

std::string deviceString(const cl_icd_dispatch &api, cl_device_id d, cl_device_info what) {
  return opencl::infoString([&](std::size_t size, void *value, std::size_t *sizeRet) {
    return api.clGetDeviceInfo(d, what, size, value, sizeRet);
  });
}

/// A .icd file names the library on its first line (as in /etc/OpenCL/vendors); anything else is the library.
std::string libraryOf(const std::string &icd) {
  if (icd.size() < 4 || icd.compare(icd.size() - 4, 4, ".icd") != 0)
    return icd;
  std::ifstream in(icd);
  std::string line;
  std::getline(in, line);
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\n'))
    line.pop_back();
  return line.empty() ? icd : line;
}

} // namespace

format::Expected<OpenClDriver> OpenClDriver::open(const std::optional<std::string> &icd,
                                                  std::uint32_t platform, std::uint32_t device) {
  OpenClDriver driver;
  if (icd) {
    driver.m_direct = true;
    driver.m_icdPath = libraryOf(*icd);
    // RTLD_LOCAL: the driver's symbols stay its own (it may export cl* names that the loader also has).
    void *library = dlopen(driver.m_icdPath.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library)
      return format::fail("--icd: cannot load " + driver.m_icdPath + ": " + dlerror());
    // cl_khr_icd: an ICD exports clIcdGetPlatformIDsKHR, or at least hands it out through
    // clGetExtensionFunctionAddress. The library stays loaded for the life of the process (drivers start
    // threads; unloading one under them is not safe).
    driver.m_icdPlatforms =
        reinterpret_cast<clIcdGetPlatformIDsKHR_fn>(dlsym(library, "clIcdGetPlatformIDsKHR"));
    if (!driver.m_icdPlatforms) {
      using GetAddress = void *(*)(const char *);
      auto getAddress = reinterpret_cast<GetAddress>(dlsym(library, "clGetExtensionFunctionAddress"));
      if (getAddress)
        driver.m_icdPlatforms =
            reinterpret_cast<clIcdGetPlatformIDsKHR_fn>(getAddress("clIcdGetPlatformIDsKHR"));
    }
    if (!driver.m_icdPlatforms)
      return format::fail("--icd: " + driver.m_icdPath + " is not an OpenCL ICD (no clIcdGetPlatformIDsKHR)");
  } else {
    driver.m_loader = loaderTable();
  }
  if (auto picked = driver.pick(platform, device); !picked)
    return format::fail(picked.error());
  return driver;
}

format::Status OpenClDriver::pick(std::uint32_t platform, std::uint32_t device) {
  cl_uint count = 0;
  cl_int status =
      m_direct ? m_icdPlatforms(0, nullptr, &count) : m_loader.clGetPlatformIDs(0, nullptr, &count);
  if (status != CL_SUCCESS || count == 0)
    return format::fail(std::string("no OpenCL platform") + (m_direct ? " from " + m_icdPath : "") +
                        " (status " + std::to_string(status) + ")");
  std::vector<cl_platform_id> platforms(count);
  status = m_direct ? m_icdPlatforms(count, platforms.data(), nullptr)
                    : m_loader.clGetPlatformIDs(count, platforms.data(), nullptr);
  if (status != CL_SUCCESS)
    return format::fail("listing the OpenCL platforms failed with status " + std::to_string(status));
  if (platform >= count)
    return format::fail("--platform " + std::to_string(platform) + ": " +
                        (count == 1 ? std::string("there is one platform, number 0")
                                    : "there are " + std::to_string(count) + " platforms, numbered from 0"));
  m_platform = platforms[platform];
  const cl_icd_dispatch &p = api(m_platform);
  m_platformName = platformString(p, m_platform, CL_PLATFORM_NAME);
  cl_uint devices = 0;
  status = p.clGetDeviceIDs(m_platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &devices);
  if (status != CL_SUCCESS || devices == 0)
    return format::fail("platform " + std::to_string(platform) + " (" + m_platformName + ") has no device");
  std::vector<cl_device_id> ids(devices);
  if (p.clGetDeviceIDs(m_platform, CL_DEVICE_TYPE_ALL, devices, ids.data(), nullptr) != CL_SUCCESS)
    return format::fail("listing the devices of " + m_platformName + " failed");
  if (device >= devices)
    return format::fail("--device " + std::to_string(device) + ": " + m_platformName + " has " +
                        (devices == 1 ? std::string("one device, number 0")
                                      : std::to_string(devices) + " devices, numbered from 0"));
  m_device = ids[device];
  const cl_icd_dispatch &d = api(m_device);
  m_deviceName = deviceString(d, m_device, CL_DEVICE_NAME);
  m_deviceVersion = deviceString(d, m_device, CL_DEVICE_VERSION);
  cl_uint bits = 0;
  if (d.clGetDeviceInfo(m_device, CL_DEVICE_ADDRESS_BITS, sizeof bits, &bits, nullptr) == CL_SUCCESS && bits)
    m_addressBits = bits;
  cl_bool little = CL_TRUE;
  if (d.clGetDeviceInfo(m_device, CL_DEVICE_ENDIAN_LITTLE, sizeof little, &little, nullptr) == CL_SUCCESS)
    m_littleEndian = little == CL_TRUE;
  cl_uint align = 0;
  if (d.clGetDeviceInfo(m_device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align, &align, nullptr) ==
          CL_SUCCESS &&
      align >= 8)
    m_alignBytes = align / 8;
  return {};
}

std::string OpenClDriver::description() const {
  std::string text = m_deviceName + " (" + m_platformName;
  if (m_direct)
    text += ", " + m_icdPath;
  return text + ")";
}

} // namespace clcapture::replay
