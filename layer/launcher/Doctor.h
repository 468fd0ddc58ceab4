//===- Doctor.h - clcapture doctor: would capture work here, and if not, why -*- C++ -*-===//
//
// docs/contract.md §1: loaders, drivers, platforms and devices as an application sees them through the
// capture library. Under the environment the launcher would set (LaunchEnvironment.h): the capture library
// and the drivers loaded as in the pre-flight (Preflight.h); then, in a child process, libOpenCL.so.1 loaded
// as the dynamic linker resolves it (which file, ocl-icd or the Khronos loader), its platforms and devices
// listed through it (like `clinfo -l`), libclcapture.so looked for in that process's /proc/self/maps and in
// front of each platform. Ends with one verdict line, "capture would work" (exit 0) or "capture would NOT
// work: <reason and fix>" (exit 1).
//
//===----------------------------------------------------------------------===//
#pragma once

namespace clcapture::launcher {

/// `clcapture doctor [--icd PATH] [--layer]`; argv[0] is "doctor". Returns the exit status.
int runDoctor(int argc, char **argv);

} // namespace clcapture::launcher
