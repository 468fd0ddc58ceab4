// CL_MEM_* names: the bit values clcapture repeats must be the ones in the OpenCL headers.
#include "clcapture/format/MemFlags.h"

#include <CL/cl.h>
#include <catch2/catch.hpp>

using namespace clcapture::format;

TEST_CASE("mem flags: bit values match CL/cl.h", "[memflags]") {
  CHECK(*memFlagBit("CL_MEM_READ_WRITE") == CL_MEM_READ_WRITE);
  CHECK(*memFlagBit("CL_MEM_WRITE_ONLY") == CL_MEM_WRITE_ONLY);
  CHECK(*memFlagBit("CL_MEM_READ_ONLY") == CL_MEM_READ_ONLY);
  CHECK(*memFlagBit("CL_MEM_USE_HOST_PTR") == CL_MEM_USE_HOST_PTR);
  CHECK(*memFlagBit("CL_MEM_ALLOC_HOST_PTR") == CL_MEM_ALLOC_HOST_PTR);
  CHECK(*memFlagBit("CL_MEM_COPY_HOST_PTR") == CL_MEM_COPY_HOST_PTR);
  CHECK(*memFlagBit("CL_MEM_HOST_WRITE_ONLY") == CL_MEM_HOST_WRITE_ONLY);
  CHECK(*memFlagBit("CL_MEM_HOST_READ_ONLY") == CL_MEM_HOST_READ_ONLY);
  CHECK(*memFlagBit("CL_MEM_HOST_NO_ACCESS") == CL_MEM_HOST_NO_ACCESS);
  CHECK(*memFlagBit("CL_MEM_SVM_FINE_GRAIN_BUFFER") == CL_MEM_SVM_FINE_GRAIN_BUFFER);
  CHECK(*memFlagBit("CL_MEM_SVM_ATOMICS") == CL_MEM_SVM_ATOMICS);
  CHECK(*memFlagBit("CL_MEM_KERNEL_READ_AND_WRITE") == CL_MEM_KERNEL_READ_AND_WRITE);
}

TEST_CASE("mem flags: names in bit order, unknown bits kept as hex", "[memflags]") {
  CHECK(memFlagNames(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR) ==
        std::vector<std::string>{"CL_MEM_READ_ONLY", "CL_MEM_COPY_HOST_PTR"});
  CHECK(memFlagNames(0).empty());
  std::uint64_t vendor = 1ull << 40;
  auto names = memFlagNames(CL_MEM_READ_WRITE | vendor);
  REQUIRE(names.size() == 2);
  CHECK(names[1] == "0x10000000000");
  CHECK(*memFlagBit(names[1]) == vendor);
  CHECK_FALSE(memFlagBit("CL_MEM_BOGUS"));
  CHECK_FALSE(memFlagBit("0x3")); // two bits: not one flag
}
