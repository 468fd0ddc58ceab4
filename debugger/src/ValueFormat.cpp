//===- ValueFormat.cpp - Values written as gdb writes them --------------------===//
#include "ValueFormat.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <llvm/IR/DebugInfoMetadata.h>

namespace clcapture::debug {

namespace {

constexpr std::uint64_t kElementLimit = 200;

std::string hex(std::uint64_t v) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(v));
  return text;
}

std::string shortestFloat(double v, bool single) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v < 0 ? "-inf" : "inf";
  char text[64];
  auto result = single ? std::to_chars(text, text + sizeof text, static_cast<float>(v))
                       : std::to_chars(text, text + sizeof text, v);
  return std::string(text, result.ptr);
}

std::string character(std::uint64_t code) {
  unsigned char c = static_cast<unsigned char>(code);
  switch (c) {
  case '\0':
    return "'\\000'";
  case '\n':
    return "'\\n'";
  case '\t':
    return "'\\t'";
  case '\'':
    return "'\\''";
  case '\\':
    return "'\\\\'";
  default:
    break;
  }
  if (c >= 32 && c < 127)
    return std::string("'") + static_cast<char>(c) + "'";
  char text[8];
  std::snprintf(text, sizeof text, "'\\%03o'", c);
  return text;
}

std::uint64_t masked(const Scalar &s) {
  std::uint64_t bits = s.kind == Scalar::Kind::Signed ? static_cast<std::uint64_t>(s.s) : s.u;
  if (s.bytes < 8)
    bits &= (std::uint64_t{1} << (8 * s.bytes)) - 1;
  return bits;
}

} // namespace

std::optional<NumberFormat> numberFormat(char letter) {
  switch (letter) {
  case 'x':
    return NumberFormat::Hex;
  case 'o':
    return NumberFormat::Octal;
  case 't':
    return NumberFormat::Binary;
  case 'd':
    return NumberFormat::Decimal;
  case 'c':
    return NumberFormat::Character;
  case 'u':
    return NumberFormat::Decimal;
  default:
    return std::nullopt;
  }
}

std::string formatScalar(const Scalar &s, const llvm::DIType *type, NumberFormat format) {
  if (s.kind == Scalar::Kind::Pointer) {
    std::string name =
        type ? typeName(type) : std::string(addressSpaceName(s.space)) + " " + typeName(s.pointee) + " *";
    return "(" + name + ") " + hex(s.u);
  }
  if (s.kind == Scalar::Kind::Float && format == NumberFormat::Natural)
    return shortestFloat(s.f, s.singlePrecision);
  Scalar v = s;
  if (v.kind == Scalar::Kind::Float) { // /x of a float: its value converted, as gdb does
    v.kind = Scalar::Kind::Signed;
    v.s = static_cast<std::int64_t>(s.f);
    v.bytes = 8;
  }
  switch (format) {
  case NumberFormat::Hex:
    return hex(masked(v));
  case NumberFormat::Octal: {
    char text[32];
    std::snprintf(text, sizeof text, "0%llo", static_cast<unsigned long long>(masked(v)));
    return text;
  }
  case NumberFormat::Binary: {
    std::uint64_t bits = masked(v);
    std::string text;
    for (; bits; bits >>= 1)
      text.insert(text.begin(), (bits & 1) ? '1' : '0');
    return text.empty() ? "0" : text;
  }
  case NumberFormat::Character:
    return std::to_string(v.kind == Scalar::Kind::Signed ? v.s : static_cast<std::int64_t>(v.u)) + " " +
           character(masked(v));
  case NumberFormat::Decimal:
  case NumberFormat::Natural:
    break;
  }
  TypeShape shape = shapeOf(type);
  if (shape == TypeShape::Bool)
    return v.u ? "true" : "false";
  std::string number = v.kind == Scalar::Kind::Signed ? std::to_string(v.s) : std::to_string(v.u);
  if (shape == TypeShape::Char && format == NumberFormat::Natural)
    return number + " " + character(masked(v));
  if (shape == TypeShape::Enum && format == NumberFormat::Natural)
    if (const auto *e = llvm::dyn_cast_or_null<llvm::DICompositeType>(stripQualifiers(type)))
      for (const llvm::Metadata *element : e->getElements())
        if (const auto *enumerator = llvm::dyn_cast_or_null<llvm::DIEnumerator>(element))
          if (enumerator->getValue().getSExtValue() == v.s)
            return enumerator->getName().str();
  return number;
}

std::string formatValue(const ExpressionEvaluator &evaluator, const Value &value, NumberFormat format) {
  if (value.scalar)
    return formatScalar(*value.scalar, value.type, format);
  TypeShape shape = shapeOf(value.type);
  if (!value.place)
    return "<no value>";
  if (shape == TypeShape::Array || shape == TypeShape::Vector) {
    auto info = elementsOf(value.type, value.droppedDims);
    if (!info)
      return "<an array>";
    std::uint64_t count = shape == TypeShape::Vector && info->count == 3 ? 3 : info->count;
    std::string text = "{";
    for (std::uint64_t i = 0; i < count && i < kElementLimit; ++i) {
      Value element{info->element ? info->element : value.type,
                    Place{value.place->space, value.place->address + i * info->elementBytes}, std::nullopt,
                    info->element ? 0u : value.droppedDims + 1};
      text += (i ? ", " : "") + formatValue(evaluator, element, format);
    }
    if (count > kElementLimit)
      text += "...";
    return text + "}";
  }
  if (shape == TypeShape::Struct || shape == TypeShape::Union) {
    const auto *composite = llvm::cast<llvm::DICompositeType>(stripQualifiers(value.type));
    std::string text = "{";
    bool first = true;
    for (const llvm::Metadata *element : composite->getElements()) {
      const auto *m = llvm::dyn_cast_or_null<llvm::DIDerivedType>(element);
      if (!m || m->getTag() != llvm::dwarf::DW_TAG_member)
        continue;
      Value field{m->getBaseType(),
                  Place{value.place->space, value.place->address + m->getOffsetInBits() / 8}, std::nullopt};
      text += (first ? "" : ", ") + m->getName().str() + " = " + formatValue(evaluator, field, format);
      first = false;
    }
    return text + "}";
  }
  auto s = evaluator.scalarOf(value);
  if (!s)
    return "<" + s.error() + ">";
  return formatScalar(*s, value.type, format);
}

} // namespace clcapture::debug
