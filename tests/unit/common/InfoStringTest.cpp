// The string answer of a clGet*Info query, asked size first (opencl/InfoString.h), without OpenCL.
#include "clcapture/opencl/InfoString.h"

#include <catch2/catch.hpp>
#include <cstring>

using clcapture::opencl::infoString;

namespace {

/// A query answering `answer` (its bytes as they are, NULs included), failing with `failOn` (0: size
/// query, 1: fill, other: never).
auto query(const std::string &answer, int failOn = -1) {
  return [answer, failOn, call = 0](std::size_t size, void *value, std::size_t *sizeRet) mutable -> int {
    if (call++ == failOn)
      return -30; // CL_INVALID_VALUE
    if (sizeRet)
      *sizeRet = answer.size();
    if (value) {
      if (size < answer.size())
        return -30;
      std::memcpy(value, answer.data(), answer.size());
    }
    return 0;
  };
}

} // namespace

TEST_CASE("info string: size, then text, without the terminating NULs", "[info-string]") {
  CHECK(infoString(query(std::string("Portable Computing Language\0", 28))) == "Portable Computing Language");
  CHECK(infoString(query(std::string("OpenCL 3.0\0\0\0", 13))) == "OpenCL 3.0");
  CHECK(infoString(query(std::string("\0", 1))).empty());
  CHECK(infoString(query("")).empty());
  CHECK(infoString(query(std::string("no nul"))) == "no nul");
}

TEST_CASE("info string: a failing query gives the empty string", "[info-string]") {
  CHECK(infoString(query(std::string("name\0", 5), 0)).empty());
  CHECK(infoString(query(std::string("name\0", 5), 1)).empty());
}
