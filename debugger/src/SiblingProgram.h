//===- SiblingProgram.h - The clcapture programs this one runs --*- C++ -*-===//
//
// clcapture-debug asks other clcapture programs for what it must not compute in its own process:
// clcapture-verify's witnesses (LLVM 16 stays out of a process that holds Oclgrind's LLVM 14) and
// clcapture-replay's outputs on a real device (a driver's LLVM too). They are run as programs: the one beside
// this executable (build/bin, an installed bin), else the one on PATH.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace clcapture::debug {

/// The path of program `name` beside this executable when it is there, else `name` (found on PATH).
std::string siblingProgram(const std::string &name);

/// Runs `argv` (argv[0] found on PATH when it has no '/'), its standard error discarded; its standard output
/// and exit status (-1: it could not run or was killed).
std::pair<std::string, int> runProgram(const std::vector<std::string> &argv);

} // namespace clcapture::debug
