//===- Preflight.cpp - Load the capture library and the drivers as the loader will -===//

#include "Preflight.h"

#include "ChildProbe.h"
#include "dispatch/DriverSet.h"

#include <dlfcn.h>
#include <filesystem>
#include <map>

namespace fs = std::filesystem;

namespace clcapture::launcher {

using layer::loadedPath;
using layer::sameFile;

namespace {

/// Long enough for a GPU driver to find its devices; a driver that takes longer is reported, not waited for.
constexpr int kPreflightSeconds = 60;

std::string dlerrorText() {
  const char *why = ::dlerror();
  return why ? why : "unknown error";
}

/// The entry points the loader will look for: a shim ICD (what ocl-icd and the Khronos loader call) or a
/// layer.
std::vector<const char *> requiredEntries(bool layer) {
  if (layer)
    return {"clGetLayerInfo", "clInitLayer"};
  return {"clIcdGetPlatformIDsKHR", "clGetPlatformInfo", "clGetExtensionFunctionAddress"};
}

// Runs in the child. The library first: a loader loads it before any driver.
void probeLibrary(const std::string &library, bool layer, const Emit &emit) {
  nlohmann::json record{{"step", "library"}, {"name", library}};
  void *handle = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  record["loaded"] = handle != nullptr;
  if (!handle) {
    record["error"] = dlerrorText();
  } else {
    record["path"] = loadedPath(handle);
    std::string missing;
    for (const char *entry : requiredEntries(layer))
      if (!::dlsym(handle, entry))
        missing += std::string(missing.empty() ? "" : ", ") + entry;
    if (!missing.empty())
      record["error"] =
          "it does not export " + missing + ": not a clcapture library, or one of another version";
  }
  emit(record);
}

// Runs in the child, as DriverSet does it in the application.
void probeDriver(const std::string &name, const std::string &library, bool countPlatforms, const Emit &emit) {
  emit({{"step", "loading"}, {"name", name}});
  nlohmann::json record{{"step", "driver"}, {"name", name}};
  void *handle = ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  record["loaded"] = handle != nullptr;
  if (!handle) {
    record["error"] = dlerrorText();
    emit(record);
    return;
  }
  std::string path = loadedPath(handle);
  record["path"] = path;
  if (sameFile(path, library) || sameFile(name, library)) {
    record["skipped"] = "it is the capture library itself";
    emit(record);
    return;
  }
  if (::dlsym(handle, "clcaptureIdentity")) {
    record["skipped"] = "it is a capture library (a copy of libclcapture.so)";
    emit(record);
    return;
  }
  using GetAddress = void *(CL_API_CALL *)(const char *);
  clIcdGetPlatformIDsKHR_fn getPlatformIDs = nullptr;
  if (auto getAddress = reinterpret_cast<GetAddress>(::dlsym(handle, "clGetExtensionFunctionAddress")))
    getPlatformIDs = reinterpret_cast<clIcdGetPlatformIDsKHR_fn>(getAddress("clIcdGetPlatformIDsKHR"));
  if (!getPlatformIDs)
    getPlatformIDs = reinterpret_cast<clIcdGetPlatformIDsKHR_fn>(::dlsym(handle, "clIcdGetPlatformIDsKHR"));
  if (!getPlatformIDs) {
    record["skipped"] = "not an OpenCL ICD: it exports no clIcdGetPlatformIDsKHR";
    emit(record);
    return;
  }
  if (!countPlatforms) {
    emit(record);
    return;
  }
  cl_uint count = 0;
  cl_int status = getPlatformIDs(0, nullptr, &count);
  record["platforms"] = status == CL_SUCCESS ? count : 0;
  if (status != CL_SUCCESS || count == 0)
    record["skipped"] = "it reports no platform (clIcdGetPlatformIDsKHR: " + clStatusText(status) + ")";
  emit(record);
}

LoadCheck toCheck(const nlohmann::json &record) {
  LoadCheck check;
  check.name = field(record, "name");
  check.path = field(record, "path");
  check.loaded = flagField(record, "loaded", false);
  check.error = field(record, "error");
  check.skipped = field(record, "skipped");
  check.platforms = static_cast<int>(numberField(record, "platforms", -1));
  return check;
}

/// The part of dlerror()'s text before ": cannot open shared object file", when it has that form.
std::string unopenedFile(const std::string &error) {
  auto at = error.find(": cannot open shared object file");
  return at == std::string::npos ? std::string() : error.substr(0, at);
}

/// Packages that provide libraries a clcapture build or a driver is known to need.
std::string packageHint(const std::string &soname) {
  static const std::map<std::string, std::string> kPackages = {
      {"libdw.so.1", "libdw1 (Debian/Ubuntu) or elfutils-libs (Fedora/RHEL)"},
      {"libelf.so.1", "libelf1 (Debian/Ubuntu) or elfutils-libelf (Fedora/RHEL)"},
      {"libstdc++.so.6", "libstdc++6 (Debian/Ubuntu) or libstdc++ (Fedora/RHEL)"},
      {"libOpenCL.so.1", "ocl-icd-libopencl1 (Debian/Ubuntu) or ocl-icd (Fedora/RHEL)"},
      {"libz.so.1", "zlib1g (Debian/Ubuntu) or zlib (Fedora/RHEL)"},
      {"libhwloc.so.15", "libhwloc15 (Debian/Ubuntu) or hwloc-libs (Fedora/RHEL)"},
  };
  auto it = kPackages.find(soname);
  return it == kPackages.end() ? std::string() : it->second;
}

} // namespace

std::size_t PreflightReport::usableDrivers() const {
  std::size_t n = 0;
  for (const auto &d : drivers)
    n += d.usable();
  return n;
}

std::size_t PreflightReport::platforms() const {
  std::size_t n = 0;
  for (const auto &d : drivers)
    if (d.usable() && d.platforms > 0)
      n += static_cast<std::size_t>(d.platforms);
  return n;
}

PreflightReport runPreflight(const LaunchEnvironment &env, bool countPlatforms) {
  PreflightReport report;
  report.source = env.drivers();
  report.library.name = env.library().string();
  // Reading .icd files has no side effect: the parent does it, with DriverSet's own code.
  std::vector<std::string> candidates =
      layer::driverCandidates(report.source.spec.c_str(), kSystemVendors, report.problems);
  const std::string library = env.library().string();
  const bool asLayer = env.layer();
  ProbeResult probe = runProbe(
      [&](const Emit &emit) {
        probeLibrary(library, asLayer, emit);
        for (const auto &name : candidates)
          probeDriver(name, library, countPlatforms, emit);
      },
      ChildOutput::Discard, kPreflightSeconds);

  std::string loading; // a driver being loaded when the child stopped
  bool sawLibrary = false;
  for (const auto &record : probe.records) {
    std::string step = field(record, "step");
    if (step == "library") {
      report.library = toCheck(record);
      sawLibrary = true;
    } else if (step == "loading") {
      loading = field(record, "name");
    } else if (step == "driver") {
      report.drivers.push_back(toCheck(record));
      loading.clear();
    } else if (step == "error") {
      report.failure = "pre-flight failed: " + field(record, "error");
    }
  }
  if (!probe.finished && report.failure.empty()) {
    if (!sawLibrary)
      report.failure = "loading " + library + ": the pre-flight child: " + probe.failure;
    else if (!loading.empty())
      report.failure = "loading driver " + loading + ": the pre-flight child: " + probe.failure;
    else
      report.failure = "the pre-flight child: " + probe.failure;
  }
  if (!sawLibrary) {
    report.library.error = report.failure.empty() ? "not checked" : report.failure;
  }
  if (!loading.empty()) {
    LoadCheck crashed;
    crashed.name = loading;
    crashed.error = "loading it: " + probe.failure;
    report.drivers.push_back(crashed);
  }
  return report;
}

std::string loadFailureAdvice(const std::string &name, const std::string &error) {
  const std::string self = fs::path(name).filename().string();
  if (std::string file = unopenedFile(error); !file.empty()) {
    const bool itself = file == name || fs::path(file).filename() == self;
    if (error.find("No such file or directory") != std::string::npos) {
      if (itself && name.find('/') != std::string::npos)
        return name + " does not exist";
      if (itself)
        return self +
               " is not in the dynamic linker's search path (ldconfig -p, LD_LIBRARY_PATH): install it, "
               "or name it by its absolute path";
      std::string packages = packageHint(file);
      return self + " needs " + file + ", which this machine lacks: install " +
             (packages.empty() ? "the package that provides it" : packages) +
             ", or add the folder that holds it to LD_LIBRARY_PATH";
    }
    if (error.find("Permission denied") != std::string::npos)
      return (itself ? self : file) + " cannot be read: check its permissions";
  }
  if (error.find("invalid ELF header") != std::string::npos ||
      error.find("file too short") != std::string::npos)
    return self + " is not a shared library (a damaged file, or not an ELF file at all)";
  if (error.find("wrong ELF class") != std::string::npos)
    return self + " was built for another architecture (32- against 64-bit)";
  if (auto at = error.find("version `");
      at != std::string::npos && error.find("not found", at) != std::string::npos) {
    auto end = error.find('\'', at);
    std::string version = error.substr(at + 9, end == std::string::npos ? std::string::npos : end - at - 9);
    return self + " was built against a newer system library (" + version +
           ") than this machine has: build it on (or for) the oldest system it must run on";
  }
  if (auto at = error.find("undefined symbol: "); at != std::string::npos)
    return self + " refers to " + error.substr(at + 18) +
           ", which no library loaded with it defines: one of its dependencies is of another version";
  return {};
}

std::string noDriverReason(const PreflightReport &report) {
  const DriverSource &source = report.source;
  std::string reason;
  std::error_code ec;
  const bool looksLikePath =
      source.spec.find('/') != std::string::npos || fs::path(source.spec).extension() == ".icd";
  if (looksLikePath && !fs::exists(source.spec, ec)) {
    reason = source.namedBy + " " + source.spec + ": no such file or folder";
  } else if (report.drivers.empty()) {
    reason = "no driver found (" + source.namedBy + ": " + source.spec + ")";
    if (!report.problems.empty())
      reason += ": " + report.problems.front();
  } else {
    reason = "no driver named by " + source.namedBy + " (" + source.spec + ") can be used";
    for (const auto &d : report.drivers) {
      reason += "; " + d.name + ": " + (!d.error.empty() ? d.error : d.skipped);
      if (!d.loaded)
        if (std::string advice = loadFailureAdvice(d.name, d.error); !advice.empty())
          reason += " (" + advice + ")";
    }
  }
  return reason + "; name a driver with --icd: an .icd file, a driver library or a folder of .icd files "
                  "(e.g. --icd /etc/OpenCL/vendors/pocl.icd)";
}

bool reportPreflight(const PreflightReport &report, bool driverWarnings, std::FILE *out) {
  if (!report.libraryLoads()) {
    const LoadCheck &lib = report.library;
    std::fprintf(out, "clcapture: cannot load the capture library %s: %s\n", lib.name.c_str(),
                 lib.error.c_str());
    if (std::string advice = lib.loaded ? std::string() : loadFailureAdvice(lib.name, lib.error);
        !advice.empty())
      std::fprintf(out, "clcapture: %s\n", advice.c_str());
    if (lib.error.find("killed by signal") != std::string::npos)
      std::fprintf(out,
                   "clcapture: loading it crashes the process (a truncated or corrupt file?), and it would "
                   "crash the application the same way; nothing was run (`clcapture doctor` checks the "
                   "whole setup)\n");
    else
      std::fprintf(out, "clcapture: the ICD loader would skip it silently and the application would find no "
                        "platform; nothing was run (`clcapture doctor` checks the whole setup)\n");
    return false;
  }
  if (report.usableDrivers() == 0) {
    std::fprintf(out, "clcapture: %s\n", noDriverReason(report).c_str());
    if (!report.failure.empty())
      std::fprintf(out, "clcapture: %s\n", report.failure.c_str());
    std::fprintf(out, "clcapture: the application would find no platform; nothing was run\n");
    return false;
  }
  if (!driverWarnings)
    return true;
  for (const auto &problem : report.problems)
    std::fprintf(out, "clcapture: warning: %s\n", problem.c_str());
  for (const auto &d : report.drivers) {
    if (d.usable())
      continue;
    if (!d.loaded) {
      std::string advice = loadFailureAdvice(d.name, d.error);
      std::fprintf(out, "clcapture: warning: driver %s does not load: %s%s%s\n", d.name.c_str(),
                   d.error.c_str(), advice.empty() ? "" : "; ", advice.c_str());
    } else {
      std::fprintf(out, "clcapture: warning: driver %s is not used: %s\n", d.name.c_str(),
                   (!d.error.empty() ? d.error : d.skipped).c_str());
    }
  }
  return true;
}

std::string clStatusText(int status) {
  static const std::map<int, const char *> kNames = {
      {0, "CL_SUCCESS"},
      {-1, "CL_DEVICE_NOT_FOUND"},
      {-2, "CL_DEVICE_NOT_AVAILABLE"},
      {-5, "CL_OUT_OF_RESOURCES"},
      {-6, "CL_OUT_OF_HOST_MEMORY"},
      {-30, "CL_INVALID_VALUE"},
      {-32, "CL_INVALID_PLATFORM"},
      {-33, "CL_INVALID_DEVICE"},
      {-1001, "CL_PLATFORM_NOT_FOUND_KHR"},
  };
  auto it = kNames.find(status);
  return std::to_string(status) + (it == kNames.end() ? "" : std::string(" (") + it->second + ")");
}

} // namespace clcapture::launcher
