//===- BufferComparison.h - Replayed bytes against captured ones -*- C++ -*-===//
//
// Integers (and anything whose type is not a floating-point one) compare bit for bit. float, double and
// half values, and vectors of them, compare within N units in the last place:
//  - the distance of two finite values is the number of representable values between them (their bit
//    patterns mapped onto one ordered integer line), so N = 0 is bit equality;
//  - +0 and -0 are 1 ulp apart: equal under --ulp 1 or more, different under --ulp 0;
//  - two NaNs are the same whatever their payloads; a NaN and a number always differ;
//  - infinities are one ulp beyond the largest finite value.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Instantiation.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clcapture::replay {

enum class ValueKind { Bytes, Integer, Float };

/// How to read a buffer: the scalar unit compared (a vector's lane), and the element an index counts.
struct ElementType {
  ValueKind kind = ValueKind::Bytes;
  std::size_t unitBytes = 1;    ///< bytes of one compared value (a lane)
  std::size_t elementBytes = 0; ///< bytes of one element (float4: 16, float3: 16); 0: unknown (a struct)
  std::string name;             ///< "float", "int4", … or "" when unknown
};

/// The pointee of a pointer argument's CL_KERNEL_ARG_TYPE_NAME ("float4*", "const uint *" → uint).
ElementType elementTypeOf(std::string_view pointerTypeName);

struct Difference {
  std::uint64_t offset = 0;             ///< byte offset of the differing value
  std::optional<std::uint64_t> element; ///< its element index, when the element size is known
  std::string replayed, captured;       ///< the two values, as hex (device byte order read as integer)
};

struct Comparison {
  bool same = true;
  std::optional<std::string> sizeMismatch; ///< "replayed 512 bytes, captured 256"
  std::uint64_t differing = 0;             ///< values (units) outside the tolerance
  std::uint64_t compared = 0;              ///< values compared
  std::vector<Difference> first;           ///< the first few differences, in offset order
};

/// Compares `replayed` with `captured` value by value; at most `keep` differences are listed.
Comparison compareBuffers(const std::vector<std::uint8_t> &replayed,
                          const std::vector<std::uint8_t> &captured, const ElementType &type,
                          std::uint64_t ulp, format::Endianness order, std::size_t keep = 5);

/// Units in the last place between two IEEE values of `bytes` bytes (2, 4 or 8) given as their bit patterns;
/// nullopt when exactly one of them is NaN. Both NaN: 0. +0 and -0: 1.
std::optional<std::uint64_t> ulpDistance(std::uint64_t a, std::uint64_t b, std::size_t bytes);

/// "3 of 128 float values differ, first at byte 12 (element 3): 0x… replayed, 0x… captured"
std::string describe(const Comparison &c, const ElementType &type);

} // namespace clcapture::replay
