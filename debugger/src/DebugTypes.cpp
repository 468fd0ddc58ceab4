//===- DebugTypes.cpp - The kernel's types as its debug information states them ---===//
#include "DebugTypes.h"

#include <algorithm>
#include <llvm/BinaryFormat/Dwarf.h>
#include <llvm/IR/DebugInfoMetadata.h>

namespace clcapture::debug {

const char *addressSpaceName(AddressSpace space) {
  switch (space) {
  case AddressSpace::Private:
    return "private";
  case AddressSpace::Global:
    return "global";
  case AddressSpace::Constant:
    return "constant";
  case AddressSpace::Local:
    return "local";
  }
  return "private";
}

namespace {

bool isQualifier(unsigned tag) {
  return tag == llvm::dwarf::DW_TAG_typedef || tag == llvm::dwarf::DW_TAG_const_type ||
         tag == llvm::dwarf::DW_TAG_volatile_type || tag == llvm::dwarf::DW_TAG_restrict_type ||
         tag == llvm::dwarf::DW_TAG_atomic_type;
}

// Multi-dimensional arrays have one subrange per dimension; counts of the ones after `skip`.
std::uint64_t subrangeCount(const llvm::DICompositeType *array, unsigned index) {
  auto elements = array->getElements();
  if (index >= elements.size())
    return 0;
  const auto *range = llvm::dyn_cast_or_null<llvm::DISubrange>(elements[index]);
  if (!range)
    return 0;
  if (auto *count = range->getCount().dyn_cast<llvm::ConstantInt *>())
    return count->getZExtValue();
  return 0;
}

} // namespace

const llvm::DIType *stripQualifiers(const llvm::DIType *type) {
  while (const auto *derived = llvm::dyn_cast_or_null<llvm::DIDerivedType>(type)) {
    if (!isQualifier(derived->getTag()))
      break;
    type = derived->getBaseType();
  }
  return type;
}

TypeShape shapeOf(const llvm::DIType *type) {
  type = stripQualifiers(type);
  if (!type)
    return TypeShape::Void;
  if (const auto *basic = llvm::dyn_cast<llvm::DIBasicType>(type)) {
    switch (basic->getEncoding()) {
    case llvm::dwarf::DW_ATE_signed:
      return TypeShape::Signed;
    case llvm::dwarf::DW_ATE_unsigned:
      return TypeShape::Unsigned;
    case llvm::dwarf::DW_ATE_float:
      return TypeShape::Float;
    case llvm::dwarf::DW_ATE_boolean:
      return TypeShape::Bool;
    case llvm::dwarf::DW_ATE_signed_char:
    case llvm::dwarf::DW_ATE_unsigned_char:
      return TypeShape::Char;
    default:
      return TypeShape::Other;
    }
  }
  if (const auto *derived = llvm::dyn_cast<llvm::DIDerivedType>(type))
    return derived->getTag() == llvm::dwarf::DW_TAG_pointer_type ? TypeShape::Pointer : TypeShape::Other;
  if (const auto *composite = llvm::dyn_cast<llvm::DICompositeType>(type)) {
    switch (composite->getTag()) {
    case llvm::dwarf::DW_TAG_array_type:
      return composite->isVector() ? TypeShape::Vector : TypeShape::Array;
    case llvm::dwarf::DW_TAG_structure_type:
      return TypeShape::Struct;
    case llvm::dwarf::DW_TAG_union_type:
      return TypeShape::Union;
    case llvm::dwarf::DW_TAG_enumeration_type:
      return TypeShape::Enum;
    default:
      return TypeShape::Other;
    }
  }
  return TypeShape::Other;
}

std::size_t byteSize(const llvm::DIType *type) {
  type = stripQualifiers(type);
  if (!type)
    return 0;
  if (shapeOf(type) == TypeShape::Array) {
    auto info = elementsOf(type);
    if (info && info->count)
      return static_cast<std::size_t>(info->count) * info->elementBytes;
  }
  return static_cast<std::size_t>(type->getSizeInBits() / 8);
}

std::string typeName(const llvm::DIType *type) {
  if (!type)
    return "void";
  if (const auto *derived = llvm::dyn_cast<llvm::DIDerivedType>(type)) {
    switch (derived->getTag()) {
    case llvm::dwarf::DW_TAG_typedef:
      return derived->getName().str();
    case llvm::dwarf::DW_TAG_const_type:
      return "const " + typeName(derived->getBaseType());
    case llvm::dwarf::DW_TAG_volatile_type:
      return "volatile " + typeName(derived->getBaseType());
    case llvm::dwarf::DW_TAG_restrict_type:
    case llvm::dwarf::DW_TAG_atomic_type:
      return typeName(derived->getBaseType());
    case llvm::dwarf::DW_TAG_pointer_type: {
      std::string space = addressSpaceName(pointeeSpace(type));
      return space + " " + typeName(derived->getBaseType()) + " *";
    }
    default:
      return derived->getName().str();
    }
  }
  if (const auto *composite = llvm::dyn_cast<llvm::DICompositeType>(type)) {
    switch (composite->getTag()) {
    case llvm::dwarf::DW_TAG_array_type: {
      if (composite->isVector())
        return typeName(composite->getBaseType()) + std::to_string(subrangeCount(composite, 0));
      std::string dims;
      for (unsigned i = 0; i < composite->getElements().size(); ++i)
        dims += "[" + std::to_string(subrangeCount(composite, i)) + "]";
      return typeName(composite->getBaseType()) + " " + dims;
    }
    case llvm::dwarf::DW_TAG_structure_type:
      return "struct " + composite->getName().str();
    case llvm::dwarf::DW_TAG_union_type:
      return "union " + composite->getName().str();
    case llvm::dwarf::DW_TAG_enumeration_type:
      return "enum " + composite->getName().str();
    default:
      return composite->getName().str();
    }
  }
  return type->getName().str();
}

const llvm::DIType *pointeeOf(const llvm::DIType *pointer) {
  const auto *derived = llvm::dyn_cast_or_null<llvm::DIDerivedType>(stripQualifiers(pointer));
  return derived ? derived->getBaseType() : nullptr;
}

AddressSpace pointeeSpace(const llvm::DIType *pointer) {
  const auto *derived = llvm::dyn_cast_or_null<llvm::DIDerivedType>(stripQualifiers(pointer));
  if (!derived)
    return AddressSpace::Private;
  auto space = derived->getDWARFAddressSpace();
  if (!space || *space > 3)
    return AddressSpace::Private;
  return static_cast<AddressSpace>(*space);
}

std::optional<ElementInfo> elementsOf(const llvm::DIType *arrayOrVector, unsigned droppedDims) {
  const auto *composite = llvm::dyn_cast_or_null<llvm::DICompositeType>(stripQualifiers(arrayOrVector));
  if (!composite || composite->getTag() != llvm::dwarf::DW_TAG_array_type)
    return std::nullopt;
  unsigned dims = static_cast<unsigned>(composite->getElements().size());
  if (droppedDims >= std::max(dims, 1u))
    return std::nullopt;
  ElementInfo info;
  info.count = subrangeCount(composite, droppedDims);
  // int a[4][8]: a's elements are rows of 8 ints (the same type, one dimension dropped), a row's are ints.
  std::uint64_t rest = 1;
  for (unsigned i = droppedDims + 1; i < dims; ++i)
    rest *= subrangeCount(composite, i);
  info.element = droppedDims + 1 < dims ? nullptr : composite->getBaseType();
  info.elementBytes = static_cast<std::size_t>(rest) * byteSize(composite->getBaseType());
  if (composite->isVector() && info.count && composite->getSizeInBits())
    info.elementBytes =
        static_cast<std::size_t>(composite->getSizeInBits() / 8 / (info.count == 3 ? 4 : info.count));
  return info;
}

std::optional<MemberInfo> memberOf(const llvm::DIType *aggregate, const std::string &name) {
  const auto *composite = llvm::dyn_cast_or_null<llvm::DICompositeType>(stripQualifiers(aggregate));
  if (!composite)
    return std::nullopt;
  for (const llvm::Metadata *element : composite->getElements()) {
    const auto *member = llvm::dyn_cast_or_null<llvm::DIDerivedType>(element);
    if (!member || member->getTag() != llvm::dwarf::DW_TAG_member)
      continue;
    if (member->getName() == name)
      return MemberInfo{member->getBaseType(), static_cast<std::size_t>(member->getOffsetInBits() / 8)};
    if (member->getName().empty()) // an anonymous struct or union inside: its members are this one's
      if (auto inner = memberOf(member->getBaseType(), name))
        return MemberInfo{inner->type,
                          static_cast<std::size_t>(member->getOffsetInBits() / 8) + inner->offset};
  }
  return std::nullopt;
}

} // namespace clcapture::debug
