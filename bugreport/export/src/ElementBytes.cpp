//===- ElementBytes.cpp - Element values <-> their bytes, exactly ---------===//

#include "clcapture/export/ElementBytes.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <sstream>

namespace clcapture::exporter {

std::uint64_t loadUnsigned(const unsigned char *p, std::size_t size, format::Endianness order) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < size; ++i) {
    std::size_t at = order == format::Endianness::Little ? size - 1 - i : i;
    v = (v << 8) | p[at];
  }
  return v;
}

void storeUnsigned(std::uint64_t v, std::size_t size, format::Endianness order, unsigned char *out) {
  for (std::size_t i = 0; i < size; ++i) {
    std::size_t at = order == format::Endianness::Little ? i : size - 1 - i;
    out[at] = static_cast<unsigned char>(v & 0xFF);
    v >>= 8;
  }
}

std::int64_t signExtend(std::uint64_t bits, std::size_t size) {
  if (size >= 8)
    return static_cast<std::int64_t>(bits);
  std::uint64_t sign = std::uint64_t{1} << (size * 8 - 1);
  std::uint64_t mask = (std::uint64_t{1} << (size * 8)) - 1;
  bits &= mask;
  if (bits & sign)
    return -static_cast<std::int64_t>((~bits & mask) + 1);
  return static_cast<std::int64_t>(bits);
}

namespace {

/// What istream >> T does with Oclgrind's text: libstdc++ parses floating text with strtof/strtod.
template <typename T> bool readsBack(const std::string &text, T value) {
  std::istringstream in(text);
  in.imbue(std::locale::classic());
  T parsed{};
  in >> parsed;
  return !in.fail() && std::memcmp(&parsed, &value, sizeof(T)) == 0;
}

/// The shortest of `digits` (9 for float, 17 for double) significant digits and 17 that reads back.
template <typename T> std::optional<std::string> floatText(T value, int digits) {
  if (!std::isfinite(value))
    return std::nullopt;
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*g", digits, static_cast<double>(value));
  if (readsBack(buffer, value))
    return std::string(buffer);
  std::snprintf(buffer, sizeof buffer, "%.17g", static_cast<double>(value));
  if (readsBack(buffer, value))
    return std::string(buffer);
  return std::nullopt;
}

} // namespace

std::optional<std::string> elementText(std::uint64_t bits, const ClType &element) {
  switch (element.elementClass) {
  case ElementClass::Signed:
    return std::to_string(signExtend(bits, element.elementSize));
  case ElementClass::Unsigned:
  case ElementClass::Half:
    return std::to_string(bits);
  case ElementClass::Float:
    break;
  }
  if (element.elementSize == 4) {
    auto narrow = static_cast<std::uint32_t>(bits);
    float f;
    std::memcpy(&f, &narrow, sizeof f);
    return floatText(f, 9);
  }
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return floatText(d, 17);
}

NumberValue NumberValue::integer(std::int64_t v) {
  NumberValue n;
  n.negative = v < 0;
  n.magnitude = n.negative ? static_cast<std::uint64_t>(-(v + 1)) + 1 : static_cast<std::uint64_t>(v);
  return n;
}

NumberValue NumberValue::unsignedInteger(std::uint64_t v) {
  NumberValue n;
  n.magnitude = v;
  return n;
}

NumberValue NumberValue::realNumber(double v) {
  NumberValue n;
  n.isInteger = false;
  n.real = v;
  return n;
}

std::string NumberValue::str() const {
  if (!isInteger) {
    std::ostringstream out;
    out.imbue(std::locale::classic());
    out.precision(17);
    out << real;
    return out.str();
  }
  return (negative ? "-" : "") + std::to_string(magnitude);
}

std::optional<std::uint64_t> elementBits(const NumberValue &value, const ClType &element, std::string &why) {
  if (element.elementClass == ElementClass::Float) {
    double d = 0;
    if (value.isInteger) {
      // Integers that a double holds exactly (all up to 2^53).
      if (value.magnitude > (std::uint64_t{1} << 53)) {
        why = value.str() + " has no exact " + element.element + " value";
        return std::nullopt;
      }
      d = static_cast<double>(value.magnitude);
      if (value.negative)
        d = -d;
    } else {
      d = value.real;
    }
    if (!std::isfinite(d)) {
      why = "not a finite number";
      return std::nullopt;
    }
    if (element.elementSize == 4) {
      if (std::fabs(d) > static_cast<double>(std::numeric_limits<float>::max())) {
        why = value.str() + " is beyond float's range";
        return std::nullopt;
      }
      auto f = static_cast<float>(d);
      std::uint32_t bits;
      std::memcpy(&bits, &f, sizeof bits);
      return bits;
    }
    std::uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    return bits;
  }
  std::uint64_t magnitude = value.magnitude;
  bool negative = value.negative;
  if (!value.isInteger) {
    double r = value.real;
    if (!std::isfinite(r) || std::trunc(r) != r || std::fabs(r) >= 18446744073709551616.0) {
      why = value.str() + " is not a whole number";
      return std::nullopt;
    }
    negative = r < 0;
    magnitude = static_cast<std::uint64_t>(std::fabs(r));
  }
  unsigned bitsWide = static_cast<unsigned>(element.elementSize * 8);
  std::uint64_t mask = bitsWide >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bitsWide) - 1;
  bool isSigned = element.elementClass == ElementClass::Signed;
  std::uint64_t maxPositive = isSigned ? mask >> 1 : mask;
  std::uint64_t maxNegative = isSigned ? (mask >> 1) + 1 : 0;
  if ((!negative && magnitude > maxPositive) || (negative && magnitude > maxNegative && magnitude != 0)) {
    why = value.str() + " is out of " + element.name + "'s range";
    return std::nullopt;
  }
  std::uint64_t bits = negative ? (~magnitude + 1) & mask : magnitude;
  return bits;
}

} // namespace clcapture::exporter
