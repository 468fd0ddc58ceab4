//===- MemFlags.h - cl_mem_flags <-> CL_MEM_* names -------------*- C++ -*-===//
//
// The GPUVerify format stores buffer flags as an array of names. The bit values are fixed by the OpenCL
// specification (cl.h); they are repeated here so that common/ does not need the OpenCL headers, and a test
// checks them against <CL/cl.h>.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clcapture::format {

struct MemFlagName {
  std::uint64_t bit;
  const char *name;
};

/// Every flag clcapture knows, in bit order.
const std::vector<MemFlagName> &knownMemFlags();

/// Names of the set bits, in bit order. Bits without a name are written as "0x…" so nothing is lost.
std::vector<std::string> memFlagNames(std::uint64_t flags);

/// Bit of one name ("CL_MEM_READ_ONLY" or a "0x…" bit written by memFlagNames); nullopt if unknown.
std::optional<std::uint64_t> memFlagBit(std::string_view name);

} // namespace clcapture::format
