//===- Preflight.h - Load the capture library and the drivers as the loader will -*- C++ -*-===//
//
// An ICD loader skips a library that does not load, silently: the application then finds no platform
// (CL_PLATFORM_NOT_FOUND_KHR) and the capture is just empty. So before running anything the launcher loads
// libclcapture.so and each real driver itself, exactly as the loader and the layer will (dlopen with
// RTLD_NOW | RTLD_LOCAL; the drivers found the way DriverSet finds them; the ICD entry point looked up, and
// for `clcapture doctor` asked for its platforms), in a forked child (ChildProbe.h), and says what failed
// and how to fix it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "LaunchEnvironment.h"

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace clcapture::launcher {

struct LoadCheck {
  std::string name;    ///< as named: the library path, an .icd file's line, CLCAPTURE_ICD
  std::string path;    ///< the file the dynamic linker loaded, when it loaded
  bool loaded = false; ///< dlopen succeeded
  std::string error;   ///< dlerror()'s text, or the entry point the library lacks
  std::string skipped; ///< a driver that loads but will not be used, and why
  int platforms = -1;  ///< the driver's clIcdGetPlatformIDsKHR count; -1: not asked

  bool usable() const { return loaded && error.empty() && skipped.empty(); }
};

struct PreflightReport {
  LoadCheck library; ///< libclcapture.so
  DriverSource source;
  std::vector<std::string> problems; ///< finding the drivers: missing or unreadable .icd files, empty folders
  std::vector<LoadCheck> drivers;    ///< every candidate, in the order the layer (or loader) tries them
  std::string failure;               ///< the child crashed or hung: where, and how

  bool libraryLoads() const { return library.usable(); }
  std::size_t usableDrivers() const;
  std::size_t platforms() const; ///< over the usable drivers (0 when they were not asked)
};

/// Loads env.library() and the drivers env.drivers() names, in a forked child. With `countPlatforms` each
/// driver is also asked for its platforms (a driver with none is not usable); that initialises the driver
/// (NVIDIA's: ~0.2 s on an H100), so a run leaves it to the layer and only `doctor` asks.
PreflightReport runPreflight(const LaunchEnvironment &env, bool countPlatforms);

/// One sentence for a library that does not load: what it lacks and how to fix that, read from dlerror()'s
/// text, e.g. "libclcapture.so needs libdw.so.1, which this machine lacks: install …".
std::string loadFailureAdvice(const std::string &name, const std::string &dlerrorText);

/// Why no driver can be used, with the fix (e.g. "--icd /x.icd: no such file; name …").
std::string noDriverReason(const PreflightReport &report);

/// The launcher's own account before running COMMAND (stderr, `clcapture: ` lines); returns false (after
/// saying why, and the fix) when the command must not run: the capture library does not load, or no driver
/// can be used. Drivers that do not load while others do, and problems finding them, are warnings, printed
/// only with `driverWarnings` (the shim ICD's DriverSet logs the same warnings itself when the application
/// asks for its platforms; an ICD loader says nothing).
bool reportPreflight(const PreflightReport &report, bool driverWarnings, std::FILE *out);

/// An OpenCL status code with its name where known: "-1001 (CL_PLATFORM_NOT_FOUND_KHR)".
std::string clStatusText(int status);

} // namespace clcapture::launcher
