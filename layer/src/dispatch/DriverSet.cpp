//===- DriverSet.cpp - The real OpenCL drivers behind the capture library -===//

#include "dispatch/DriverSet.h"

#include "dispatch/DispatchPatcher.h"
#include "dispatch/Downstream.h"
#include "dispatch/Hooks.h"
#include "process/CallSite.h"
#include "process/Log.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <link.h>

extern "C" const char clcaptureIdentity[];

namespace clcapture::layer {

namespace fs = std::filesystem;

namespace {

/// The first line of an .icd file, trimmed: the driver library's name or path.
std::string readIcdFile(const fs::path &path, std::vector<std::string> &problems) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) {
    problems.push_back("cannot read " + path.string());
    return {};
  }
  auto notSpace = [](unsigned char c) { return !std::isspace(c); };
  line.erase(line.begin(), std::find_if(line.begin(), line.end(), notSpace));
  line.erase(std::find_if(line.rbegin(), line.rend(), notSpace).base(), line.end());
  if (line.empty())
    problems.push_back(path.string() + " names no library");
  return line;
}

void addFolder(const fs::path &dir, std::vector<std::string> &out, std::vector<std::string> &problems) {
  std::error_code ec;
  std::vector<fs::path> icds;
  for (const auto &entry : fs::directory_iterator(dir, ec))
    if (entry.path().extension() == ".icd")
      icds.push_back(entry.path());
  if (ec) {
    problems.push_back("cannot list " + dir.string() + ": " + ec.message());
    return;
  }
  std::sort(icds.begin(), icds.end()); // ocl-icd's order: deterministic platform order
  for (const auto &icd : icds) {
    std::string lib = readIcdFile(icd, problems);
    if (!lib.empty())
      out.push_back(lib);
  }
}

/// Our own library's path, to recognise ourselves among the candidates.
std::string selfPath() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void *>(&clcaptureIdentity), &info) && info.dli_fname)
    return info.dli_fname;
  return {};
}

} // namespace

bool sameFile(const std::string &a, const std::string &b) {
  std::error_code ec;
  return !a.empty() && !b.empty() && fs::equivalent(a, b, ec) && !ec;
}

std::string loadedPath(void *handle) {
  link_map *map = nullptr;
  if (handle && ::dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && *map->l_name)
    return map->l_name;
  return {};
}

std::vector<std::string> driverCandidates(const char *clcaptureIcd, const std::string &vendorsDir,
                                          std::vector<std::string> &problems) {
  std::vector<std::string> out;
  if (clcaptureIcd && *clcaptureIcd) {
    fs::path p(clcaptureIcd);
    std::error_code ec;
    if (fs::is_directory(p, ec))
      addFolder(p, out, problems);
    else if (p.extension() == ".icd") {
      std::string lib = readIcdFile(p, problems);
      if (!lib.empty())
        out.push_back(lib);
    } else
      out.push_back(p.string());
    if (out.empty())
      problems.push_back(std::string("CLCAPTURE_ICD=") + clcaptureIcd + " names no driver");
    return out;
  }
  addFolder(vendorsDir, out, problems);
  if (out.empty())
    problems.push_back("no driver found in " + vendorsDir + " (set CLCAPTURE_ICD)");
  return out;
}

DriverSet &DriverSet::instance() {
  // Loaded on first use, never unloaded: drivers keep threads and atexit handlers of their own.
  static DriverSet *set = new DriverSet();
  return *set;
}

DriverSet::DriverSet() {
  const std::string self = selfPath();
  for (const std::string &lib :
       driverCandidates(std::getenv("CLCAPTURE_ICD"), "/etc/OpenCL/vendors", m_problems)) {
    if (sameFile(lib, self)) {
      m_problems.push_back("skipped " + lib + ": it is the capture library itself");
      continue;
    }
    void *handle = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char *why = dlerror();
      m_problems.push_back("cannot load driver " + lib + ": " + (why ? why : "unknown error"));
      continue;
    }
    // A copy of clcapture under another name: the marker symbol gives it away.
    if (dlsym(handle, "clcaptureIdentity")) {
      m_problems.push_back("skipped " + lib + ": it is a capture library");
      continue;
    }
    Driver d;
    d.library = lib;
    d.handle = handle;
    d.getExtensionFunctionAddress =
        reinterpret_cast<void *(CL_API_CALL *)(const char *)>(dlsym(handle, "clGetExtensionFunctionAddress"));
    if (d.getExtensionFunctionAddress)
      d.getPlatformIDs = reinterpret_cast<clIcdGetPlatformIDsKHR_fn>(
          d.getExtensionFunctionAddress("clIcdGetPlatformIDsKHR"));
    if (!d.getPlatformIDs)
      d.getPlatformIDs = reinterpret_cast<clIcdGetPlatformIDsKHR_fn>(dlsym(handle, "clIcdGetPlatformIDsKHR"));
    if (!d.getPlatformIDs) {
      m_problems.push_back("skipped " + lib + ": not an ICD (no clIcdGetPlatformIDsKHR)");
      continue;
    }
    cl_uint count = 0;
    if (d.getPlatformIDs(0, nullptr, &count) != CL_SUCCESS || count == 0) {
      m_problems.push_back("skipped " + lib + ": it reports no platform");
      continue;
    }
    d.platforms.resize(count);
    if (d.getPlatformIDs(count, d.platforms.data(), nullptr) != CL_SUCCESS) {
      m_problems.push_back("skipped " + lib + ": clIcdGetPlatformIDsKHR failed");
      continue;
    }
    addDriverModule(reinterpret_cast<const void *>(d.getPlatformIDs));
    // Hooks go into the driver's own table before the application can see any of its handles, unless the
    // layer front end already captures in this process (then the shim only forwards).
    if (claimFrontEnd(FrontEnd::Icd))
      for (cl_platform_id platform : d.platforms)
        DispatchPatcher::instance().patch(*reinterpret_cast<cl_icd_dispatch **>(platform),
                                          TableLimits{platformVersion(platform)}, &hooks::installHooks);
    else
      log(LogLevel::Info, "the OPENCL_LAYERS layer captures in this process; the shim ICD only forwards");
    log(LogLevel::Info,
        "forwarding to " + lib + " (" + std::to_string(count) + " platform" + (count == 1 ? "" : "s") + ")");
    m_drivers.push_back(std::move(d));
  }
  for (const auto &p : m_problems)
    log(LogLevel::Warning, p);
}

int platformVersion(cl_platform_id platform) {
  // OpenCL 1.2 §4.1: CL_PLATFORM_VERSION is "OpenCL<space><major.minor><space><platform-specific>".
  char text[256] = {0};
  const cl_icd_dispatch *table = *reinterpret_cast<cl_icd_dispatch *const *>(platform);
  int major = 1, minor = 0;
  if (table->clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof text - 1, text, nullptr) == CL_SUCCESS)
    std::sscanf(text, "OpenCL %d.%d", &major, &minor);
  return major * 10 + minor;
}

std::vector<cl_platform_id> DriverSet::platforms() const {
  std::vector<cl_platform_id> all;
  for (const auto &d : m_drivers)
    all.insert(all.end(), d.platforms.begin(), d.platforms.end());
  return all;
}

} // namespace clcapture::layer
