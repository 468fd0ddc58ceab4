//===- OpenClTypes.h - OpenCL C type names, their sizes and element types -*- C++ -*-===//
//
// Both exports need to know what a kernel argument's type is made of: Oclgrind's .sim writes values of one
// of ten element types (char … double), and a PySchedCL spec gives buffer sizes in elements of a named type.
// Sizes follow OpenCL 1.2 §6.1.1-§6.1.2 (a 3-lane vector takes the room of 4 lanes); size_t and friends
// follow the device's address bits.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace clcapture::exporter {

/// How the bytes of one element read as a number.
enum class ElementClass { Signed, Unsigned, Float, Half };

/// A built-in scalar or vector type (structs, images and pointers are not ClTypes).
struct ClType {
  std::string name;    ///< normalised: "int", "uint4", "size_t", "atomic_int"
  std::string element; ///< the element in Oclgrind's and numpy's terms: "int", "float", "ushort" for half
  ElementClass elementClass = ElementClass::Signed;
  std::size_t elementSize = 0; ///< bytes
  unsigned lanes = 1;          ///< 1, 2, 3, 4, 8 or 16

  /// Bytes of one value (OpenCL 1.2 §6.1.5: a 3-lane vector is aligned and sized as 4 lanes).
  std::size_t size() const { return elementSize * (lanes == 3 ? 4 : lanes); }
  /// Elements in one value's bytes (4 for a 3-lane vector: the padding lane is stored too).
  unsigned storedLanes() const { return lanes == 3 ? 4 : lanes; }
  /// The name PySchedCL's numpy_types table knows for the same bytes: atomic_int → int, size_t → ulong.
  std::string specName() const;
};

/// Collapses whitespace, drops qualifiers (const, volatile, restrict, address and access qualifiers) and
/// spells integer types the OpenCL way: "unsigned int" → "uint", "long int" → "long", "signed char" → "char".
/// A trailing '*' stays (with no space before it): "const __global float *" → "float*".
std::string normalizeTypeName(std::string_view spelled);

/// The pointee of a pointer type name ("float*" → "float"), or nullopt when `typeName` is no pointer.
std::optional<std::string> pointeeOf(const std::string &typeName);

/// The built-in type called `name` (after normalizeTypeName), or nullopt for structs, unions, typedefs of
/// them, images, pointers and names clcapture does not know.
std::optional<ClType> lookupClType(std::string_view name, std::uint32_t addressBits = 64);

} // namespace clcapture::exporter
