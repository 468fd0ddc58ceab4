//===- MemFlags.cpp - cl_mem_flags <-> CL_MEM_* names --------------------===//

#include "clcapture/format/MemFlags.h"

#include <cstdio>
#include <cstdlib>

namespace clcapture::format {

const std::vector<MemFlagName> &knownMemFlags() {
  // OpenCL 3.0 API §5.2.1, table "List of supported memory flag values" (values from cl.h / cl_ext.h).
  // Never destroyed: the capture layer's exit drain may still name flags after static destructors ran.
  static const auto *kFlags = new std::vector<MemFlagName>{
      {1ull << 0, "CL_MEM_READ_WRITE"},      {1ull << 1, "CL_MEM_WRITE_ONLY"},
      {1ull << 2, "CL_MEM_READ_ONLY"},       {1ull << 3, "CL_MEM_USE_HOST_PTR"},
      {1ull << 4, "CL_MEM_ALLOC_HOST_PTR"},  {1ull << 5, "CL_MEM_COPY_HOST_PTR"},
      {1ull << 7, "CL_MEM_HOST_WRITE_ONLY"}, {1ull << 8, "CL_MEM_HOST_READ_ONLY"},
      {1ull << 9, "CL_MEM_HOST_NO_ACCESS"},  {1ull << 10, "CL_MEM_SVM_FINE_GRAIN_BUFFER"},
      {1ull << 11, "CL_MEM_SVM_ATOMICS"},    {1ull << 12, "CL_MEM_KERNEL_READ_AND_WRITE"},
  };
  return *kFlags;
}

std::vector<std::string> memFlagNames(std::uint64_t flags) {
  std::vector<std::string> names;
  for (unsigned bit = 0; bit < 64; ++bit) {
    std::uint64_t mask = 1ull << bit;
    if (!(flags & mask))
      continue;
    const char *name = nullptr;
    for (const auto &known : knownMemFlags())
      if (known.bit == mask)
        name = known.name;
    if (name) {
      names.emplace_back(name);
    } else {
      char buf[24];
      std::snprintf(buf, sizeof buf, "0x%llX", static_cast<unsigned long long>(mask));
      names.emplace_back(buf);
    }
  }
  return names;
}

std::optional<std::uint64_t> memFlagBit(std::string_view name) {
  for (const auto &known : knownMemFlags())
    if (name == known.name)
      return known.bit;
  // A vendor bit written as "0x…": exactly one bit set.
  if (name.size() > 2 && name[0] == '0' && name[1] == 'x' && name.size() <= 18) {
    std::string digits(name.substr(2));
    char *end = nullptr;
    unsigned long long v = std::strtoull(digits.c_str(), &end, 16);
    if (end && *end == '\0' && v != 0 && (v & (v - 1)) == 0)
      return static_cast<std::uint64_t>(v);
  }
  return std::nullopt;
}

} // namespace clcapture::format
