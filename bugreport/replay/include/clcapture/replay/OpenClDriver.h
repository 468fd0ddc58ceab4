//===- OpenClDriver.h - The OpenCL implementation a replay runs on -*- C++ -*-===//
//
// Two ways to reach a driver, one calling convention: every call goes through a cl_icd_dispatch table.
//  - the system ICD loader (libOpenCL): the table holds the loader's own entry points;
//  - --icd FILE: the ICD library is opened with dlopen and asked for its platforms with
//    clIcdGetPlatformIDsKHR (cl_khr_icd); every call then goes through the dispatch table that the object
//    it is about carries (its first member), as a loader would do, so no loader (ocl-icd or Khronos) and no
//    vendors folder is involved. Handles of one platform are never passed to another (Oclgrind rejects an
//    object whose dispatch table is not its own).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Expected.h"

#include <CL/cl_icd.h>
#include <cstdint>
#include <optional>
#include <string>

namespace clcapture::replay {

class OpenClDriver {
public:
  /// Opens the driver and picks device `device` of platform `platform` (indices from 0). `icd`: a library
  /// path, or a .icd file naming one; nullopt: the system loader.
  static format::Expected<OpenClDriver> open(const std::optional<std::string> &icd, std::uint32_t platform,
                                             std::uint32_t device);

  /// The table to call for an object of this driver (the loader's, or the one the object carries).
  template <typename Handle> const cl_icd_dispatch &api(Handle handle) const {
    if (!m_direct)
      return m_loader;
    return *reinterpret_cast<const DispatchHolder *>(handle)->dispatch;
  }

  cl_platform_id platform() const { return m_platform; }
  cl_device_id device() const { return m_device; }
  const std::string &platformName() const { return m_platformName; }
  const std::string &deviceName() const { return m_deviceName; }
  const std::string &deviceVersion() const { return m_deviceVersion; }
  /// "DEVICE (PLATFORM[, ICD FILE])"
  std::string description() const;
  std::uint32_t addressBits() const { return m_addressBits; }
  bool littleEndian() const { return m_littleEndian; }
  std::uint32_t baseAddressAlignBytes() const { return m_alignBytes; } ///< CL_DEVICE_MEM_BASE_ADDR_ALIGN / 8

private:
  /// Every ICD object starts with its driver's dispatch table (cl_khr_icd).
  struct DispatchHolder {
    const cl_icd_dispatch *dispatch;
  };

  OpenClDriver() = default;
  format::Status pick(std::uint32_t platform, std::uint32_t device);

  bool m_direct = false;
  cl_icd_dispatch m_loader{};
  clIcdGetPlatformIDsKHR_fn m_icdPlatforms = nullptr;
  std::string m_icdPath;
  cl_platform_id m_platform = nullptr;
  cl_device_id m_device = nullptr;
  std::string m_platformName, m_deviceName, m_deviceVersion;
  std::uint32_t m_addressBits = 64;
  bool m_littleEndian = true;
  std::uint32_t m_alignBytes = 1;
};

} // namespace clcapture::replay
