//===- Doctor.cpp - clcapture doctor: would capture work here, and if not, why -===//

#include "Doctor.h"

#include "ChildProbe.h"
#include "LaunchEnvironment.h"
#include "Preflight.h"
#include "clcapture/opencl/InfoString.h"
#include "dispatch/DriverSet.h"

#include <CL/cl_icd.h>
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;
using nlohmann::json;

namespace clcapture::launcher {

using layer::sameFile;

namespace {

constexpr int kLoaderSeconds = 120;
constexpr const char *kLoaderName = "libOpenCL.so.1";
// LayerExports.cpp's info line when clInitLayer installed the hooks in front of the loader.
constexpr const char *kLayerActiveLine = "OPENCL_LAYERS layer in front of the loader";

// cl_loader_info (ocl-icd, Khronos loader 2023+): clGetICDLoaderInfoOCLICD, through
// clGetExtensionFunctionAddress.
using cl_icdl_info = cl_uint;
constexpr cl_icdl_info CL_ICDL_OCL_VERSION = 1, CL_ICDL_VERSION = 2, CL_ICDL_NAME = 3, CL_ICDL_VENDOR = 4;
using GetLoaderInfo = cl_int(CL_API_CALL *)(cl_icdl_info, size_t, void *, size_t *);

/// The loader's entry points an application calls first, looked up with dlsym (the launcher never links
/// libOpenCL).
struct LoaderApi {
  void *(CL_API_CALL *getExtensionFunctionAddress)(const char *) = nullptr;
  cl_int(CL_API_CALL *getPlatformIDs)(cl_uint, cl_platform_id *, cl_uint *) = nullptr;
  cl_int(CL_API_CALL *getPlatformInfo)(cl_platform_id, cl_platform_info, size_t, void *, size_t *) = nullptr;
  cl_int(CL_API_CALL *getDeviceIDs)(cl_platform_id, cl_device_type, cl_uint, cl_device_id *,
                                    cl_uint *) = nullptr;
  cl_int(CL_API_CALL *getDeviceInfo)(cl_device_id, cl_device_info, size_t, void *, size_t *) = nullptr;
};

std::string platformString(const LoaderApi &api, cl_platform_id platform, cl_platform_info param) {
  if (!api.getPlatformInfo)
    return {};
  return opencl::infoString(
      [&](size_t n, void *v, size_t *r) { return api.getPlatformInfo(platform, param, n, v, r); });
}

std::string deviceString(const LoaderApi &api, cl_device_id device, cl_device_info param) {
  if (!api.getDeviceInfo)
    return {};
  return opencl::infoString(
      [&](size_t n, void *v, size_t *r) { return api.getDeviceInfo(device, param, n, v, r); });
}

std::string loaderInfo(GetLoaderInfo query, cl_icdl_info param) {
  return opencl::infoString([&](size_t n, void *v, size_t *r) { return query(param, n, v, r); });
}

std::string deviceType(cl_device_type type) {
  std::string out;
  auto add = [&](cl_device_type bit, const char *name) {
    if (type & bit)
      out += std::string(out.empty() ? "" : "+") + name;
  };
  add(CL_DEVICE_TYPE_CPU, "CPU");
  add(CL_DEVICE_TYPE_GPU, "GPU");
  add(CL_DEVICE_TYPE_ACCELERATOR, "accelerator");
  add(CL_DEVICE_TYPE_CUSTOM, "custom");
  return out.empty() ? "other" : out;
}

/// The file of /proc/self/maps that is `library` (same file, whatever the path it was loaded by).
std::string mappedAs(const std::string &library) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    auto slash = line.find('/');
    if (slash != std::string::npos && sameFile(line.substr(slash), library))
      return line.substr(slash);
  }
  return {};
}

// Runs in the child, under the launch environment: what an application linked with -lOpenCL would see.
void probeLoader(const std::string &library, const std::string &logFile, const Emit &emit) {
  // The layer's own account of what it did goes to a file the parent reads.
  ::setenv("CLCAPTURE_LOG", "info", 1);
  ::setenv("CLCAPTURE_LOG_FILE", logFile.c_str(), 1);
  void *loader = ::dlopen(kLoaderName, RTLD_NOW | RTLD_LOCAL);
  if (!loader) {
    const char *why = ::dlerror();
    emit({{"step", "loader"}, {"loaded", false}, {"error", why ? why : "unknown error"}});
    return;
  }
  json record{{"step", "loader"}, {"loaded", true}};
  if (std::string path = layer::loadedPath(loader); !path.empty())
    record["path"] = path;
  LoaderApi api;
  api.getExtensionFunctionAddress = reinterpret_cast<decltype(api.getExtensionFunctionAddress)>(
      ::dlsym(loader, "clGetExtensionFunctionAddress"));
  api.getPlatformIDs = reinterpret_cast<decltype(api.getPlatformIDs)>(::dlsym(loader, "clGetPlatformIDs"));
  api.getPlatformInfo = reinterpret_cast<decltype(api.getPlatformInfo)>(::dlsym(loader, "clGetPlatformInfo"));
  api.getDeviceIDs = reinterpret_cast<decltype(api.getDeviceIDs)>(::dlsym(loader, "clGetDeviceIDs"));
  api.getDeviceInfo = reinterpret_cast<decltype(api.getDeviceInfo)>(::dlsym(loader, "clGetDeviceInfo"));
  if (api.getExtensionFunctionAddress)
    if (auto info =
            reinterpret_cast<GetLoaderInfo>(api.getExtensionFunctionAddress("clGetICDLoaderInfoOCLICD"))) {
      record["name"] = loaderInfo(info, CL_ICDL_NAME);
      record["version"] = loaderInfo(info, CL_ICDL_VERSION);
      record["vendor"] = loaderInfo(info, CL_ICDL_VENDOR);
      record["opencl"] = loaderInfo(info, CL_ICDL_OCL_VERSION);
    }
  emit(record);
  if (!api.getPlatformIDs) {
    emit({{"step", "platforms"},
          {"status", CL_INVALID_OPERATION},
          {"count", 0},
          {"error", std::string(kLoaderName) + " exports no clGetPlatformIDs"}});
    return;
  }

  cl_uint count = 0;
  cl_int status = api.getPlatformIDs(0, nullptr, &count);
  std::vector<cl_platform_id> platforms(status == CL_SUCCESS ? count : 0);
  if (!platforms.empty())
    status = api.getPlatformIDs(count, platforms.data(), nullptr);
  emit({{"step", "platforms"}, {"status", status}, {"count", status == CL_SUCCESS ? count : 0}});
  for (std::size_t i = 0; status == CL_SUCCESS && i < platforms.size(); ++i) {
    cl_platform_id platform = platforms[i];
    json p{{"step", "platform"},
           {"index", i},
           {"name", platformString(api, platform, CL_PLATFORM_NAME)},
           {"vendor", platformString(api, platform, CL_PLATFORM_VENDOR)},
           {"version", platformString(api, platform, CL_PLATFORM_VERSION)}};
    // cl_khr_icd: every handle starts with its driver's dispatch table; the shim ICD patches the driver's
    // table in place (DispatchPatcher), so a launch entry that lives in libclcapture.so means the launches go
    // through it.
    const cl_icd_dispatch *table = *reinterpret_cast<cl_icd_dispatch *const *>(platform);
    Dl_info where{};
    if (table && ::dladdr(reinterpret_cast<void *>(table->clEnqueueNDRangeKernel), &where) &&
        where.dli_fname) {
      p["launch_entry_in"] = where.dli_fname;
      p["patched"] = sameFile(where.dli_fname, library);
    }
    cl_uint deviceCount = 0;
    cl_int deviceStatus = api.getDeviceIDs
                              ? api.getDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &deviceCount)
                              : CL_INVALID_OPERATION;
    std::vector<cl_device_id> devices(deviceStatus == CL_SUCCESS ? deviceCount : 0);
    if (!devices.empty())
      deviceStatus = api.getDeviceIDs(platform, CL_DEVICE_TYPE_ALL, deviceCount, devices.data(), nullptr);
    p["device_status"] = deviceStatus;
    json list = json::array();
    for (cl_device_id device : devices) {
      cl_device_type type = 0;
      if (api.getDeviceInfo)
        api.getDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
      list.push_back({{"name", deviceString(api, device, CL_DEVICE_NAME)},
                      {"type", deviceType(type)},
                      {"version", deviceString(api, device, CL_DEVICE_VERSION)}});
    }
    p["devices"] = std::move(list);
    emit(p);
  }
  emit({{"step", "maps"}, {"mapped_as", mappedAs(library)}});
}

/// Every libOpenCL.so.1 the dynamic linker could pick: LD_LIBRARY_PATH's folders first, then its cache.
std::vector<std::string> loaderCopies() {
  std::vector<std::string> out;
  auto add = [&](const std::string &path) {
    std::error_code ec;
    if (!fs::exists(path, ec))
      return;
    for (const auto &known : out)
      if (sameFile(known, path))
        return;
    out.push_back(path);
  };
  if (const char *paths = std::getenv("LD_LIBRARY_PATH")) {
    std::stringstream in(paths);
    for (std::string dir; std::getline(in, dir, ':');)
      if (!dir.empty())
        add(dir + "/" + kLoaderName);
  }
  for (const char *ldconfig : {"/sbin/ldconfig", "/usr/sbin/ldconfig"}) {
    if (::access(ldconfig, X_OK) != 0)
      continue;
    std::string command = std::string(ldconfig) + " -p 2>/dev/null";
    if (FILE *pipe = ::popen(command.c_str(), "r")) {
      char line[4096];
      while (std::fgets(line, sizeof line, pipe)) {
        std::string text(line);
        auto arrow = text.find("=> ");
        if (text.find(std::string(kLoaderName) + " (") == std::string::npos || arrow == std::string::npos)
          continue;
        std::string path = text.substr(arrow + 3);
        path.erase(path.find_last_not_of(" \n\r\t") + 1);
        add(path);
      }
      ::pclose(pipe);
    }
    break;
  }
  return out;
}

/// "ocl-icd 2.3.1" or "the Khronos ICD loader 2023.12.14", from cl_loader_info; a guess without it.
std::string loaderKind(const json &loader) {
  std::string vendor = field(loader, "vendor"), name = field(loader, "name"),
              version = field(loader, "version");
  std::string path = field(loader, "path");
  if (vendor.find("OCL Icd") != std::string::npos || vendor.find("ocl-icd") != std::string::npos)
    return "ocl-icd " + version + " (" + name + ", " + vendor + ")";
  if (vendor.find("Khronos") != std::string::npos)
    return "the Khronos ICD loader " + version + " (" + name + ")";
  if (!name.empty())
    return name + " " + version + " (" + vendor + ")";
  std::string guess = "a loader without cl_loader_info: most likely the Khronos ICD loader, older than 2023";
  if (path.find("cuda") != std::string::npos)
    guess += " (CUDA's bundled copy, which has no OPENCL_LAYERS support)";
  return guess;
}

/// The layer log's lines, and whether one of them contains `needle`.
std::vector<std::string> readLines(const std::string &file) {
  std::vector<std::string> lines;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

void printDrivers(const PreflightReport &pre, std::FILE *out) {
  std::fprintf(out, "drivers (%s: %s):\n", pre.source.namedBy.c_str(), pre.source.spec.c_str());
  std::error_code ec;
  if (fs::is_directory(pre.source.spec, ec)) {
    std::vector<fs::path> icds;
    for (const auto &entry : fs::directory_iterator(pre.source.spec, ec))
      if (entry.path().extension() == ".icd")
        icds.push_back(entry.path());
    std::sort(icds.begin(), icds.end());
    for (const auto &icd : icds) {
      std::ifstream in(icd);
      std::string line;
      std::getline(in, line);
      std::fprintf(out, "  %s names %s\n", icd.string().c_str(), line.c_str());
    }
  }
  for (const auto &problem : pre.problems)
    std::fprintf(out, "  problem: %s\n", problem.c_str());
  for (const auto &d : pre.drivers) {
    std::string where = d.path.empty() || d.path == d.name ? "" : " (" + d.path + ")";
    if (!d.loaded) {
      std::string advice = loadFailureAdvice(d.name, d.error);
      std::fprintf(out, "  %s: does NOT load: %s%s%s\n", d.name.c_str(), d.error.c_str(),
                   advice.empty() ? "" : "; ", advice.c_str());
    } else if (!d.usable()) {
      std::fprintf(out, "  %s%s: loads, not used: %s\n", d.name.c_str(), where.c_str(),
                   (!d.error.empty() ? d.error : d.skipped).c_str());
    } else {
      std::fprintf(out, "  %s%s: loads, %d platform%s\n", d.name.c_str(), where.c_str(), d.platforms,
                   d.platforms == 1 ? "" : "s");
    }
  }
  if (pre.drivers.empty())
    std::fprintf(out, "  none found\n");
  if (!pre.failure.empty())
    std::fprintf(out, "  pre-flight: %s\n", pre.failure.c_str());
}

/// The probe child's records, by step.
struct ProbeRecords {
  json loader, platformsList, maps;
  std::vector<json> platforms;
};

ProbeRecords sortRecords(const ProbeResult &probe) {
  ProbeRecords r;
  for (const auto &record : probe.records) {
    std::string step = field(record, "step");
    if (step == "loader")
      r.loader = record;
    else if (step == "platforms")
      r.platformsList = record;
    else if (step == "platform")
      r.platforms.push_back(record);
    else if (step == "maps")
      r.maps = record;
  }
  return r;
}

struct PlatformCounts {
  std::size_t devices = 0; ///< on the platforms behind clcapture or not
  std::size_t behind = 0;  ///< platforms whose launches go through clcapture
};

/// Platforms and devices, as the application sees them.
PlatformCounts printPlatforms(const ProbeRecords &r, const ProbeResult &probe, bool layer,
                              const std::vector<std::string> &layerLog, std::FILE *out) {
  std::fprintf(out, "platforms an application sees through %s:\n", kLoaderName);
  const bool layerActive = std::any_of(layerLog.begin(), layerLog.end(), [](const std::string &line) {
    return line.find(kLayerActiveLine) != std::string::npos;
  });
  PlatformCounts counts;
  for (const auto &p : r.platforms) {
    bool inFront = layer ? layerActive : flagField(p, "patched", false);
    counts.behind += inFront;
    std::fprintf(out, "  platform %zu: %s (%s, %s)%s\n", static_cast<std::size_t>(numberField(p, "index")),
                 field(p, "name").c_str(), field(p, "vendor").c_str(), field(p, "version").c_str(),
                 inFront ? ", behind clcapture" : ", NOT behind clcapture");
    if (!inFront && !layer && p.contains("launch_entry_in"))
      std::fprintf(out, "    its launches go straight to %s\n", field(p, "launch_entry_in").c_str());
    static const json kNone = json::array();
    auto listed = p.find("devices");
    const json &list = listed != p.end() && listed->is_array() ? *listed : kNone;
    if (list.empty())
      std::fprintf(out, "    no device (clGetDeviceIDs: %s)\n",
                   clStatusText(static_cast<int>(numberField(p, "device_status"))).c_str());
    for (std::size_t d = 0; d < list.size(); ++d)
      std::fprintf(out, "    device %zu: %s (%s, %s)\n", d, field(list[d], "name").c_str(),
                   field(list[d], "type").c_str(), field(list[d], "version").c_str());
    counts.devices += list.size();
  }
  if (!r.platformsList.is_null() && r.platforms.empty())
    std::fprintf(out, "  none: clGetPlatformIDs returned %s\n",
                 clStatusText(static_cast<int>(numberField(r.platformsList, "status"))).c_str());
  if (!probe.finished)
    std::fprintf(out, "  the child listing them: %s\n", probe.failure.c_str());
  return counts;
}

/// The first thing that stops capture, with its fix; empty when nothing does.
std::string blockingReason(const PreflightReport &pre, const fs::path &library, const ProbeRecords &r,
                           const ProbeResult &probe, bool layer, bool mapped, PlatformCounts counts) {
  if (!pre.libraryLoads()) {
    std::string advice =
        pre.library.loaded ? std::string() : loadFailureAdvice(library.string(), pre.library.error);
    return "the capture library does not load (" + pre.library.error + ")" +
           (advice.empty() ? "" : ": " + advice) + "; the ICD loader skips it silently";
  }
  if (!r.loader.is_null() && !flagField(r.loader, "loaded", false))
    return std::string("no OpenCL ICD loader: ") + kLoaderName +
           " does not load: install ocl-icd-libopencl1 (Debian/Ubuntu) or ocl-icd (Fedora/RHEL)";
  if (pre.usableDrivers() == 0)
    return noDriverReason(pre);
  if (r.loader.is_null() || r.platformsList.is_null())
    return "listing the platforms through " + std::string(kLoaderName) +
           " failed: the child: " + probe.failure;
  if (r.platforms.empty()) {
    std::string why = "an application would find no platform (clGetPlatformIDs: " +
                      clStatusText(static_cast<int>(numberField(r.platformsList, "status"))) + ")";
    if (!mapped)
      why += layer ? ": the loader did not load libclcapture.so as a layer"
                   : ": the loader did not load libclcapture.so";
    return why + "; the layer's log above says more";
  }
  if (!mapped)
    return layer ? "the loader did not load libclcapture.so as a layer: it lacks OPENCL_LAYERS support "
                   "(e.g. CUDA's bundled Khronos loader): run without --layer"
                 : "the loader did not load libclcapture.so: it reads neither OCL_ICD_VENDORS nor "
                   "OCL_ICD_FILENAMES; run the application with a loader that does (ocl-icd, or the "
                   "Khronos loader)";
  if (counts.behind == 0)
    return layer ? "libclcapture.so is loaded but the loader did not put it in front (clInitLayer was not "
                   "called, or another front end captures): the layer's log above says more"
                 : "libclcapture.so is loaded but no platform goes through it (another driver answers the "
                   "application): set --icd to the driver the application uses";
  if (counts.devices == 0)
    return "the platforms behind clcapture have no device: the driver finds no hardware";
  return {};
}

} // namespace

int runDoctor(int argc, char **argv) {
  CLI::App app{
      "Checks whether clcapture can capture here: the ICD loader an application gets, the drivers, and "
      "the platforms and devices it would see through the capture library; exits 0 when capture would "
      "work, 1 when not.",
      "clcapture doctor"};
  std::string icd;
  bool layer = false;
  app.add_option("--icd", icd, "the real driver: a library, an .icd file or a folder of them (as for a run)");
  app.add_flag("--layer", layer, "check the OPENCL_LAYERS way (clcapture --layer) instead of the shim ICD");
  CLI11_PARSE(app, argc, argv);
  std::FILE *out = stdout;
  std::fflush(nullptr);

  auto verdict = [out](const std::string &reason) {
    if (reason.empty()) {
      std::fprintf(out, "capture would work\n");
      return 0;
    }
    std::fprintf(out, "capture would NOT work: %s\n", reason.c_str());
    return 1;
  };

  fs::path library = findLibrary();
  if (library.empty())
    return verdict("libclcapture.so is not beside the launcher (../lib/): reinstall clcapture, or name the "
                   "library with CLCAPTURE_LIBRARY");
  LaunchEnvironment env(library, layer, icd);
  if (!env.error().empty())
    return verdict(env.error());
  env.apply();

  std::fprintf(out, "clcapture doctor: %s\n",
               layer ? "as an OPENCL_LAYERS layer (--layer)"
                     : "as a shim ICD in front of the driver (the default)");
  std::fprintf(out, "environment the launcher sets:\n");
  for (const auto &[name, value] : env.variables())
    std::fprintf(out, "  %s=%s\n", name.c_str(), value.c_str());

  PreflightReport pre = runPreflight(env, /*countPlatforms=*/true);
  if (pre.libraryLoads()) {
    std::fprintf(out, "capture library: %s: loads\n", library.c_str());
  } else {
    std::string advice =
        pre.library.loaded ? std::string() : loadFailureAdvice(library.string(), pre.library.error);
    std::fprintf(out, "capture library: %s: does NOT load: %s%s%s\n", library.c_str(),
                 pre.library.error.c_str(), advice.empty() ? "" : "; ", advice.c_str());
  }

  // The loader, the platforms and the layer's own log, from one child under the launch environment.
  char logTemplate[] = "/tmp/clcapture-doctor-log-XXXXXX";
  int logFd = ::mkstemp(logTemplate);
  if (logFd >= 0)
    ::close(logFd);
  const std::string logFile = logFd >= 0 ? logTemplate : "/dev/null";
  const std::string libraryPath = library.string();
  ProbeResult probe = runProbe([&](const Emit &emit) { probeLoader(libraryPath, logFile, emit); },
                               ChildOutput::ToStderr, kLoaderSeconds);
  std::vector<std::string> layerLog = readLines(logFile);
  if (logFd >= 0)
    ::unlink(logFile.c_str());

  ProbeRecords records = sortRecords(probe);
  const json &loader = records.loader;

  // Loaders.
  std::string resolved = field(loader, "path");
  if (loader.is_null()) {
    std::fprintf(out, "ICD loader: %s: not checked (the child: %s)\n", kLoaderName, probe.failure.c_str());
  } else if (!flagField(loader, "loaded", false)) {
    std::fprintf(out, "ICD loader: %s does NOT load: %s\n", kLoaderName, field(loader, "error").c_str());
  } else {
    std::fprintf(out, "ICD loader: %s resolves to %s: %s\n", kLoaderName, resolved.c_str(),
                 loaderKind(loader).c_str());
  }
  for (const auto &copy : loaderCopies())
    if (!sameFile(copy, resolved))
      std::fprintf(
          out,
          "  also here: %s (an application with its own RUNPATH or LD_LIBRARY_PATH may load this one "
          "instead; `ldd APP | grep libOpenCL` tells)\n",
          copy.c_str());

  printDrivers(pre, out);

  PlatformCounts counts = printPlatforms(records, probe, layer, layerLog, out);
  const bool mapped = !field(records.maps, "mapped_as").empty();
  std::fprintf(out, "libclcapture.so in that process: %s\n",
               mapped ? ("mapped (" + field(records.maps, "mapped_as") + ")").c_str() : "NOT mapped");
  if (!layerLog.empty()) {
    std::fprintf(out, "its log (CLCAPTURE_LOG=info):\n");
    for (const auto &line : layerLog)
      std::fprintf(out, "  %s\n", line.c_str());
  }

  std::string reason = blockingReason(pre, library, records, probe, layer, mapped, counts);
  if (reason.empty() && counts.behind < records.platforms.size())
    std::fprintf(out, "note: launches on the platforms NOT behind clcapture are not captured\n");
  return verdict(reason);
}

} // namespace clcapture::launcher
