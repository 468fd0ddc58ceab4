//===- BufferComparison.cpp - Replayed bytes against captured ones --------===//

#include "clcapture/replay/BufferComparison.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

namespace clcapture::replay {

namespace {

std::string stripWords(std::string_view text) {
  // "const float4 *" → "float4": drop the pointer, qualifiers and address-space words.
  std::string s(text);
  s.erase(std::remove(s.begin(), s.end(), '*'), s.end());
  std::istringstream in(s);
  std::string word, kept;
  while (in >> word) {
    if (word == "const" || word == "volatile" || word == "restrict" || word == "global" ||
        word == "__global" || word == "constant" || word == "__constant" || word == "local" ||
        word == "__local")
      continue;
    kept += kept.empty() ? word : " " + word;
  }
  if (kept == "unsigned int" || kept == "unsigned")
    return "uint";
  if (kept == "unsigned char")
    return "uchar";
  if (kept == "unsigned short")
    return "ushort";
  if (kept == "unsigned long")
    return "ulong";
  return kept;
}

std::uint64_t readUnit(const std::uint8_t *p, std::size_t n, format::Endianness order) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t at = order == format::Endianness::Little ? n - 1 - i : i;
    v = (v << 8) | p[at];
  }
  return v;
}

std::string hex(std::uint64_t v, std::size_t bytes) {
  static const char *digits = "0123456789ABCDEF";
  std::string s = "0x";
  for (std::size_t i = bytes * 2; i-- > 0;)
    s += digits[(v >> (4 * i)) & 0xF];
  return s;
}

} // namespace

ElementType elementTypeOf(std::string_view pointerTypeName) {
  ElementType t;
  std::string name = stripWords(pointerTypeName);
  std::size_t digits = name.size();
  while (digits > 0 && name[digits - 1] >= '0' && name[digits - 1] <= '9')
    --digits;
  std::string base = name.substr(0, digits);
  std::size_t lanes = 1;
  if (digits < name.size()) {
    lanes = static_cast<std::size_t>(std::stoul(name.substr(digits)));
    if (lanes != 2 && lanes != 3 && lanes != 4 && lanes != 8 && lanes != 16)
      return t;
  }
  static const std::map<std::string, std::pair<ValueKind, std::size_t>> kTypes = {
      {"char", {ValueKind::Integer, 1}},   {"uchar", {ValueKind::Integer, 1}},
      {"short", {ValueKind::Integer, 2}},  {"ushort", {ValueKind::Integer, 2}},
      {"int", {ValueKind::Integer, 4}},    {"uint", {ValueKind::Integer, 4}},
      {"long", {ValueKind::Integer, 8}},   {"ulong", {ValueKind::Integer, 8}},
      {"size_t", {ValueKind::Integer, 8}}, {"half", {ValueKind::Float, 2}},
      {"float", {ValueKind::Float, 4}},    {"double", {ValueKind::Float, 8}}};
  auto it = kTypes.find(base);
  if (it == kTypes.end())
    return t;
  t.kind = it->second.first;
  t.unitBytes = it->second.second;
  // OpenCL 1.2 §6.1.5: a 3-component vector is aligned and sized as a 4-component one.
  t.elementBytes = t.unitBytes * (lanes == 3 ? 4 : lanes);
  t.name = name;
  return t;
}

std::optional<std::uint64_t> ulpDistance(std::uint64_t a, std::uint64_t b, std::size_t bytes) {
  const std::uint64_t signBit = std::uint64_t{1} << (bytes * 8 - 1);
  const std::uint64_t infinity = bytes == 2 ? 0x7C00u : bytes == 4 ? 0x7F800000u : 0x7FF0000000000000u;
  const std::uint64_t magA = a & ~signBit, magB = b & ~signBit;
  const bool nanA = magA > infinity, nanB = magB > infinity;
  if (nanA || nanB)
    return nanA && nanB ? std::optional<std::uint64_t>(0) : std::nullopt;
  if (a == b)
    return 0;
  // Sign-magnitude onto one ordered line: same sign, the magnitudes' difference; opposite signs, their sum.
  const bool sameSign = (a & signBit) == (b & signBit);
  std::uint64_t d = sameSign ? (magA > magB ? magA - magB : magB - magA) : magA + magB;
  return d == 0 ? 1 : d; // +0 and -0: one apart
}

Comparison compareBuffers(const std::vector<std::uint8_t> &replayed,
                          const std::vector<std::uint8_t> &captured, const ElementType &type,
                          std::uint64_t ulp, format::Endianness order, std::size_t keep) {
  Comparison c;
  if (replayed.size() != captured.size()) {
    c.same = false;
    c.sizeMismatch =
        "replayed " + std::to_string(replayed.size()) + " bytes, captured " + std::to_string(captured.size());
  }
  const std::size_t common = std::min(replayed.size(), captured.size());
  auto record = [&](std::size_t offset, std::size_t unit) {
    c.same = false;
    ++c.differing;
    if (c.first.size() >= keep)
      return;
    Difference d;
    d.offset = offset;
    if (type.elementBytes)
      d.element = offset / type.elementBytes;
    d.replayed = hex(readUnit(&replayed[offset], unit, order), unit);
    d.captured = hex(readUnit(&captured[offset], unit, order), unit);
    c.first.push_back(std::move(d));
  };
  const std::size_t unit = type.unitBytes;
  std::size_t offset = 0;
  for (; offset + unit <= common; offset += unit) {
    ++c.compared;
    if (std::equal(&replayed[offset], &replayed[offset] + unit, &captured[offset]))
      continue;
    if (type.kind == ValueKind::Float) {
      auto d = ulpDistance(readUnit(&replayed[offset], unit, order), readUnit(&captured[offset], unit, order),
                           unit);
      if (d && *d <= ulp)
        continue;
    }
    record(offset, unit);
  }
  for (; offset < common; ++offset) { // a tail shorter than one value: bytes
    ++c.compared;
    if (replayed[offset] != captured[offset])
      record(offset, 1);
  }
  return c;
}

std::string describe(const Comparison &c, const ElementType &type) {
  if (c.same)
    return "same";
  std::string text;
  if (c.sizeMismatch)
    text = "size differs (" + *c.sizeMismatch + ")";
  if (c.differing > 0) {
    if (!text.empty())
      text += "; ";
    // Lanes of a vector are counted one by one: "3 of 512 float values" for a float4 buffer.
    std::string base = type.name.substr(0, type.name.find_first_of("0123456789"));
    std::string what = type.kind == ValueKind::Bytes ? "bytes" : base + " values";
    text += std::to_string(c.differing) + " of " + std::to_string(c.compared) + " " + what + " differ";
    const Difference &d = c.first.front();
    text += ", first at byte " + std::to_string(d.offset);
    if (d.element)
      text += " (element " + std::to_string(*d.element) + ")";
    text += ": " + d.replayed + " replayed, " + d.captured + " captured";
  }
  return text;
}

} // namespace clcapture::replay
