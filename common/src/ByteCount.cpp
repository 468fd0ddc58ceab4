//===- ByteCount.cpp - Byte counts as users write them -===//

#include "clcapture/format/ByteCount.h"

#include <cerrno>
#include <cstdlib>

namespace clcapture::format {

std::optional<std::uint64_t> parseByteCount(const std::string &text) {
  if (text.empty() || text[0] < '0' || text[0] > '9')
    return std::nullopt;
  errno = 0;
  char *end = nullptr;
  unsigned long long value = std::strtoull(text.c_str(), &end, 10);
  if (errno == ERANGE)
    return std::nullopt;
  std::string suffix(end);
  unsigned shift = 0;
  if (suffix == "K" || suffix == "k")
    shift = 10;
  else if (suffix == "M" || suffix == "m")
    shift = 20;
  else if (suffix == "G" || suffix == "g")
    shift = 30;
  else if (!suffix.empty())
    return std::nullopt;
  if (shift && value > (UINT64_MAX >> shift))
    return std::nullopt;
  return static_cast<std::uint64_t>(value) << shift;
}

} // namespace clcapture::format
