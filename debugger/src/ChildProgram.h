//===- ChildProgram.h - Another clcapture program's answer --*- C++ -*-===//
//
// clcapture-debug asks other clcapture programs for what it must not compute in its own process:
// clcapture-verify's witnesses (LLVM 16 stays out of a process that holds Oclgrind's LLVM 14) and
// clcapture-replay's outputs on a real device (a driver's LLVM too). clcapture::cli::findToolProgram finds
// them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace clcapture::debug {

/// Runs `argv` (argv[0] a path), its standard error discarded (`withErrors`: sent with its output); its
/// standard output and exit status (-1: it could not run or was killed). The process may have threads
/// (Oclgrind's worker): everything the child needs is made before fork(), after which it makes only
/// async-signal-safe calls.
std::pair<std::string, int> runProgram(const std::vector<std::string> &argv, bool withErrors = false);

} // namespace clcapture::debug
