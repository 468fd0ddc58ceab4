//===- DriverSet.h - The real OpenCL drivers behind the capture library -*- C++ -*-===//
//
// docs/contract.md §1: the real driver comes from CLCAPTURE_ICD (a library path, an .icd file or a folder of
// them) or else the system vendors folder, never from the capture library itself (the launcher points the
// loader's OCL_ICD_VENDORS at us, so that variable cannot name the real drivers). Each driver is dlopen'ed
// privately and asked for its platforms through the ICD entry point, exactly as a loader would.
//
//===----------------------------------------------------------------------===//
#pragma once

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <string>
#include <vector>

namespace clcapture::layer {

struct Driver {
  std::string library; ///< as named by the .icd file or CLCAPTURE_ICD
  void *handle = nullptr;
  clIcdGetPlatformIDsKHR_fn getPlatformIDs = nullptr;
  void *(CL_API_CALL *getExtensionFunctionAddress)(const char *) = nullptr;
  std::vector<cl_platform_id> platforms;
};

/// Library names to try, in order: from CLCAPTURE_ICD when set, else from /etc/OpenCL/vendors/*.icd.
/// `problems` collects what was skipped and why (unreadable .icd files, empty folders).
std::vector<std::string> driverCandidates(const char *clcaptureIcd, const std::string &vendorsDir,
                                          std::vector<std::string> &problems);

/// Whether two paths name the same file (symlinks and other paths resolved); false when either is empty
/// or missing. The layer skips itself with it; the launcher's pre-flight and doctor do the same.
bool sameFile(const std::string &a, const std::string &b);

/// The file a dlopen handle came from, as the dynamic linker found it; empty when unknown.
std::string loadedPath(void *handle);

/// The platform's OpenCL version as 10 × major + minor (1.2 → 12), from CL_PLATFORM_VERSION; 10 if
/// unreadable.
int platformVersion(cl_platform_id platform);

/// All drivers that load and report at least one platform; loaded once, kept for the life of the process.
class DriverSet {
public:
  static DriverSet &instance();

  const std::vector<Driver> &drivers() const { return m_drivers; }
  /// Every platform of every driver, in driver order.
  std::vector<cl_platform_id> platforms() const;
  /// What went wrong while loading (already logged); empty when every candidate loaded.
  const std::vector<std::string> &problems() const { return m_problems; }

private:
  DriverSet();
  std::vector<Driver> m_drivers;
  std::vector<std::string> m_problems;
};

} // namespace clcapture::layer
