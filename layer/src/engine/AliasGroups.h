//===- AliasGroups.h - Which arguments of a launch refer to overlapping memory -*- C++ -*-===//
//
// docs/contract.md §3 sidecar `aliases`: arguments that are the same memory object, or sub-buffers / SVM
// pointers whose byte ranges overlap in one root object, are one group; the analyzer treats their accesses as
// accesses to the same memory.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <vector>

namespace clcapture::layer {

/// Memory an argument refers to: the root object (a buffer or an SVM allocation) and the byte range in it.
struct MemoryRange {
  bool svm = false;
  std::uint64_t root = 0;
  std::uint64_t begin = 0, end = 0;
  std::uint32_t argument = 0;
};

/// Groups of arguments whose ranges overlap in the same root object (union of overlapping pairs), each
/// sorted, the list sorted; arguments alone are left out.
std::vector<std::vector<std::uint32_t>> aliasGroups(const std::vector<MemoryRange> &ranges);

} // namespace clcapture::layer
