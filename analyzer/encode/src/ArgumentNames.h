//===- ArgumentNames.h - What the user calls a kernel's arguments -*- C++ -*-===//
//
// Internal to encode/: the names and OpenCL C types of a kernel's arguments, and the member names of a struct
// passed by value, for object names and witnesses.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/model/LaunchConfig.h"

#include <cstdint>
#include <map>
#include <string>

namespace llvm {
class Argument;
class Function;
} // namespace llvm

namespace clcapture::encode::detail {

/// The top-level members of a struct passed by value, by byte offset, from the kernel's debug info
/// (empty without it).
std::map<std::uint64_t, std::string> memberNames(llvm::Argument &arg);

/// The argument's source name: the capture's, else the debug info's, else argN.
std::string argumentName(const llvm::Argument &arg, const model::LaunchConfig &launch);

/// The OpenCL C type of parameter `no` in OpenCL's spelling ("int", "uint", "int2"), from Clang's
/// kernel_arg_base_type (typedefs resolved: "unsigned int", "int __attribute__((ext_vector_type(2)))"), or ""
/// when the metadata is missing.
std::string argumentType(const llvm::Function &kernel, unsigned no);

} // namespace clcapture::encode::detail
