//===- DebugTypes.h - The kernel's types as its debug information states them -*- C++ -*-===//
//
// A variable's type comes from the DWARF-style metadata clang attaches at -O0 (llvm::DIType): qualifiers and
// typedefs are looked through for layout, kept for the name; a pointer's address space is its
// dwarfAddressSpace (SPIR numbering: 0 private, 1 global, 2 constant, 3 local; none means private, OpenCL
// C 1.2's default for Oclgrind's OpenCL C 1.2).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace llvm {
class DIType;
class DIDerivedType;
class DICompositeType;
} // namespace llvm

namespace clcapture::debug {

enum class AddressSpace : unsigned { Private = 0, Global = 1, Constant = 2, Local = 3 };
const char *addressSpaceName(AddressSpace space);

enum class TypeShape {
  Void,
  Signed,
  Unsigned,
  Float,
  Bool,
  Char,
  Pointer,
  Array,
  Vector,
  Struct,
  Union,
  Enum,
  Other
};

/// `type` without typedefs, const, volatile, restrict or _Atomic (nullptr stays nullptr: void).
const llvm::DIType *stripQualifiers(const llvm::DIType *type);
TypeShape shapeOf(const llvm::DIType *type);
/// Bytes one value of `type` takes (a 3-lane vector: 4 lanes); 0 for void and unknown sizes.
std::size_t byteSize(const llvm::DIType *type);
/// How C writes the type: "int", "size_t", "global float *", "int [16]", "float4", "struct point".
std::string typeName(const llvm::DIType *type);

/// A pointer's pointee (nullptr for void *) and the address space it points into.
const llvm::DIType *pointeeOf(const llvm::DIType *pointer);
AddressSpace pointeeSpace(const llvm::DIType *pointer);

/// An array's or vector's elements: their type and number and the bytes of one. A multi-dimensional array
/// seen with its first `droppedDims` dimensions indexed away: int a[4][8] with none dropped has 4 elements of
/// 32 bytes whose type is a[…] with one dropped (`element` nullptr: the same type, one more dimension
/// dropped); with one dropped, 8 ints.
struct ElementInfo {
  const llvm::DIType *element = nullptr;
  std::uint64_t count = 0;
  std::size_t elementBytes = 0;
};
std::optional<ElementInfo> elementsOf(const llvm::DIType *arrayOrVector, unsigned droppedDims = 0);

/// A struct's or union's member by name: its type and byte offset.
struct MemberInfo {
  const llvm::DIType *type = nullptr;
  std::size_t offset = 0;
};
std::optional<MemberInfo> memberOf(const llvm::DIType *aggregate, const std::string &name);

} // namespace clcapture::debug
