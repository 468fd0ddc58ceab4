//===- ValueShapes.cpp - How a value of a type is recorded ----------------===//

#include "ValueShapes.h"

#include <clang/AST/Decl.h>

namespace clcapture::instrument {

namespace {

/// Whether `type`'s typedefs include one of the types as wide as an address (recorded widened to 64 bits);
/// `isSigned` says which.
bool addressSized(clang::QualType type, bool &isSigned) {
  clang::QualType current = type;
  while (const auto *typedefType = current->getAs<clang::TypedefType>()) {
    llvm::StringRef name = typedefType->getDecl()->getName();
    if (name == "size_t" || name == "uintptr_t") {
      isSigned = false;
      return true;
    }
    if (name == "ptrdiff_t" || name == "intptr_t") {
      isSigned = true;
      return true;
    }
    current = typedefType->desugar();
  }
  return false;
}

} // namespace

ValueShapes::ValueShapes(const clang::ASTContext &context) : m_context(context) {}

std::optional<ValueShapes::Shape> ValueShapes::scalar(const clang::BuiltinType *builtin) const {
  using K = clang::BuiltinType::Kind;
  Shape s;
  switch (builtin->getKind()) {
  case K::Bool:
    s = Shape{trace::ValueClass::Bool, 4, 1, "uint", "uint"};
    return s;
  case K::Char_S:
  case K::SChar:
    s = Shape{trace::ValueClass::Int, 1, 1, "char", "char"};
    break;
  case K::Char_U:
  case K::UChar:
    s = Shape{trace::ValueClass::UInt, 1, 1, "uchar", "uchar"};
    break;
  case K::Short:
    s = Shape{trace::ValueClass::Int, 2, 1, "short", "short"};
    break;
  case K::UShort:
    s = Shape{trace::ValueClass::UInt, 2, 1, "ushort", "ushort"};
    break;
  case K::Int:
    s = Shape{trace::ValueClass::Int, 4, 1, "int", "int"};
    break;
  case K::UInt:
    s = Shape{trace::ValueClass::UInt, 4, 1, "uint", "uint"};
    break;
  case K::Long:
    s = Shape{trace::ValueClass::Int, 8, 1, "long", "long"};
    break;
  case K::ULong:
    s = Shape{trace::ValueClass::UInt, 8, 1, "ulong", "ulong"};
    break;
  case K::Half:
    s = Shape{trace::ValueClass::Half, 2, 1, "half", "half"};
    break;
  case K::Float:
    s = Shape{trace::ValueClass::Float, 4, 1, "float", "float"};
    break;
  case K::Double:
    s = Shape{trace::ValueClass::Double, 8, 1, "double", "double"};
    break;
  default:
    return std::nullopt;
  }
  // The target's size, not an assumption (OpenCL fixes these, but a target could disagree).
  s.size = static_cast<unsigned>(m_context.getTypeSizeInChars(clang::QualType(builtin, 0)).getQuantity());
  return s;
}

std::optional<std::string> ValueShapes::recordName(const clang::RecordType *record) const {
  const clang::RecordDecl *decl = record->getDecl();
  if (!decl || !decl->getDefinition() || !decl->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return std::nullopt;
  if (decl->getIdentifier())
    return std::string(decl->isUnion() ? "union " : "struct ") + decl->getName().str();
  if (const clang::TypedefNameDecl *name = decl->getTypedefNameForAnonDecl())
    if (name->getDeclContext()->getRedeclContext()->isTranslationUnit())
      return name->getName().str();
  return std::nullopt;
}

std::optional<ValueShapes::Shape> ValueShapes::shape(clang::QualType type) const {
  if (type.isNull() || type->isDependentType() || type->isIncompleteType())
    return std::nullopt;
  bool isSigned = false;
  if (addressSized(type, isSigned))
    return isSigned ? Shape{trace::ValueClass::Int, 8, 1, "long", "long"}
                    : Shape{trace::ValueClass::UInt, 8, 1, "ulong", "ulong"};
  const clang::Type *canonical = type.getCanonicalType().getTypePtr();
  if (const auto *builtin = llvm::dyn_cast<clang::BuiltinType>(canonical))
    return scalar(builtin);
  if (const auto *enumType = llvm::dyn_cast<clang::EnumType>(canonical)) {
    const clang::EnumDecl *decl = enumType->getDecl();
    if (!decl->isComplete())
      return std::nullopt;
    return shape(decl->getIntegerType());
  }
  if (canonical->isPointerType()) {
    Shape s{trace::ValueClass::Pointer, 8, 1, "ulong", "ulong"};
    s.castArgument = true;
    return s;
  }
  if (const auto *vector = llvm::dyn_cast<clang::ExtVectorType>(canonical)) {
    const auto *element = vector->getElementType()->getAs<clang::BuiltinType>();
    std::optional<Shape> lane = element ? scalar(element) : std::nullopt;
    unsigned lanes = vector->getNumElements();
    if (!lane || lane->valueClass == trace::ValueClass::Bool ||
        (lanes != 2 && lanes != 3 && lanes != 4 && lanes != 8 && lanes != 16))
      return std::nullopt;
    Shape s = *lane;
    s.lanes = lanes;
    s.paramType = s.storeType = lane->paramType + std::to_string(lanes);
    s.size = static_cast<unsigned>(m_context.getTypeSizeInChars(type).getQuantity());
    if (lanes == 3) { // OpenCL 1.2 §6.1.5: a 3-component vector is stored as 4; the fourth is padding
      s.padBegin = 3 * lane->size;
      s.padEnd = 4 * lane->size;
    }
    return s;
  }
  if (const auto *record = llvm::dyn_cast<clang::RecordType>(canonical)) {
    auto name = recordName(record);
    if (!name)
      return std::nullopt;
    Shape s{trace::ValueClass::Bytes, 0, 1, *name, *name};
    s.size = static_cast<unsigned>(m_context.getTypeSizeInChars(type).getQuantity());
    if (s.size == 0)
      return std::nullopt;
    return s;
  }
  return std::nullopt; // arrays, images, samplers, events, functions
}

std::string ValueShapes::shownType(clang::QualType type) const {
  clang::PrintingPolicy policy = m_context.getPrintingPolicy();
  return type.getUnqualifiedType().getAsString(policy);
}

SiteValue ValueShapes::value(const Shape &shape, std::string name, std::string type,
                             std::string argument) const {
  SiteValue v;
  v.shown.name = std::move(name);
  v.shown.type = std::move(type);
  v.shown.valueClass = shape.valueClass;
  v.shown.size = shape.size;
  v.shown.lanes = shape.lanes;
  v.param = RecordParam{shape.paramType, shape.storeType, shape.size, shape.padBegin, shape.padEnd};
  v.argument = shape.castArgument ? "(ulong)(" + argument + ")" : std::move(argument);
  return v;
}

std::optional<SiteValue> ValueShapes::named(const std::string &name, clang::QualType type) const {
  if (type.isVolatileQualified()) // reading it again would be one more volatile access
    return std::nullopt;
  auto s = shape(type);
  if (!s)
    return std::nullopt;
  return value(*s, name, shownType(type), name);
}

std::optional<SiteValue> ValueShapes::lvalue(const std::string &text, const std::string &shownText,
                                             clang::QualType type) const {
  if (type.isVolatileQualified())
    return std::nullopt;
  auto s = shape(type);
  if (!s)
    return std::nullopt;
  SiteValue v = value(*s, shownText, shownType(type), "(" + text + ")");
  v.shown.lvalue = true;
  return v;
}

SiteValue ValueShapes::condition(std::string argument) const {
  Shape s{trace::ValueClass::Int, 4, 1, "int", "int"};
  return value(s, "condition", "int", std::move(argument));
}

std::optional<SiteValue> ValueShapes::returned(clang::QualType type, std::string argument) const {
  auto s = shape(type);
  if (!s)
    return std::nullopt;
  // The record function returns what it is given, so its parameter has the function's own return type
  // (a file-scope name: the function's declaration spells it there); the bytes stored are the shape's.
  std::string spelled = s->valueClass == trace::ValueClass::Bytes ? s->paramType : shownType(type);
  if (spelled.find('(') != std::string::npos) // "(unnamed struct at …)", a function pointer
    return std::nullopt;
  bool converted = s->valueClass == trace::ValueClass::Bool || s->valueClass == trace::ValueClass::Pointer ||
                   s->castArgument;
  bool isSigned = false;
  converted = converted || addressSized(type, isSigned);
  Shape r = *s;
  r.castArgument = false;
  r.paramType = spelled;
  if (!converted)
    r.storeType = spelled;
  return value(r, "return", shownType(type), std::move(argument));
}

} // namespace clcapture::instrument
