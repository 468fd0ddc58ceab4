//===- ExpressionEvaluator.cpp - A parsed expression's value in one work-item -===//
#include "ExpressionEvaluator.h"

#include <WorkGroup.h>
#include <WorkItem.h>
#include <cctype>
#include <cmath>
#include <cstring>
#include <llvm/BinaryFormat/Dwarf.h>
#include <llvm/IR/DebugInfoMetadata.h>

namespace clcapture::debug {

namespace fmt = clcapture::format;

namespace {

Scalar signedScalar(std::int64_t v) {
  Scalar s;
  s.kind = Scalar::Kind::Signed;
  s.s = v;
  s.bytes = 8;
  return s;
}

Scalar unsignedScalar(std::uint64_t v) {
  Scalar s;
  s.kind = Scalar::Kind::Unsigned;
  s.u = v;
  s.bytes = 8;
  return s;
}

double asDouble(const Scalar &s) {
  switch (s.kind) {
  case Scalar::Kind::Signed:
    return static_cast<double>(s.s);
  case Scalar::Kind::Float:
    return s.f;
  default:
    return static_cast<double>(s.u);
  }
}

std::uint64_t asBits(const Scalar &s) {
  switch (s.kind) {
  case Scalar::Kind::Signed:
    return static_cast<std::uint64_t>(s.s);
  case Scalar::Kind::Float:
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(s.f));
  default:
    return s.u;
  }
}

bool isZero(const Scalar &s) {
  return s.kind == Scalar::Kind::Float ? s.f == 0 : asBits(s) == 0;
}

const char *const kComponents = "xyzw";

// A vector component's index: x y z w, s0..sF (case-insensitive), nullopt for anything else.
std::optional<std::size_t> componentIndex(const std::string &name) {
  if (name.size() == 1)
    if (const char *at = std::strchr(kComponents, name[0]); at && name[0])
      return static_cast<std::size_t>(at - kComponents);
  if (name.size() == 2 && (name[0] == 's' || name[0] == 'S')) {
    char c = static_cast<char>(std::tolower(static_cast<unsigned char>(name[1])));
    if (c >= '0' && c <= '9')
      return static_cast<std::size_t>(c - '0');
    if (c >= 'a' && c <= 'f')
      return static_cast<std::size_t>(c - 'a' + 10);
  }
  return std::nullopt;
}

} // namespace

double halfToDouble(std::uint16_t h) {
  int exponent = (h >> 10) & 0x1f;
  int mantissa = h & 0x3ff;
  double value = exponent == 0    ? std::ldexp(mantissa, -24)
                 : exponent == 31 ? (mantissa ? NAN : INFINITY)
                                  : std::ldexp(mantissa | 0x400, exponent - 25);
  return (h & 0x8000) ? -value : value;
}

std::optional<Scalar> decodeScalar(const llvm::DIType *type, const std::uint8_t *bytes, std::size_t size) {
  TypeShape shape = shapeOf(type);
  Scalar s;
  s.bytes = size;
  std::uint64_t raw = 0;
  if (size > 8)
    return std::nullopt;
  std::memcpy(&raw, bytes, size);
  switch (shape) {
  case TypeShape::Signed:
  case TypeShape::Enum:
  case TypeShape::Char: {
    bool isSigned =
        shape != TypeShape::Char || llvm::cast<llvm::DIBasicType>(stripQualifiers(type))->getEncoding() ==
                                        llvm::dwarf::DW_ATE_signed_char;
    if (!isSigned) {
      s.kind = Scalar::Kind::Unsigned;
      s.u = raw;
      return s;
    }
    s.kind = Scalar::Kind::Signed;
    unsigned shift = static_cast<unsigned>(64 - 8 * size);
    s.s = shift >= 64 ? 0 : static_cast<std::int64_t>(raw << shift) >> shift;
    return s;
  }
  case TypeShape::Unsigned:
  case TypeShape::Bool:
    s.kind = Scalar::Kind::Unsigned;
    s.u = raw;
    return s;
  case TypeShape::Float:
    s.kind = Scalar::Kind::Float;
    if (size == 4) {
      float f;
      std::memcpy(&f, bytes, 4);
      s.f = f;
      s.singlePrecision = true;
    } else if (size == 8) {
      std::memcpy(&s.f, bytes, 8);
    } else if (size == 2) {
      s.f = halfToDouble(static_cast<std::uint16_t>(raw));
      s.singlePrecision = true;
    } else {
      return std::nullopt;
    }
    return s;
  case TypeShape::Pointer:
    s.kind = Scalar::Kind::Pointer;
    s.u = raw;
    s.pointee = pointeeOf(type);
    s.space = pointeeSpace(type);
    return s;
  default:
    return std::nullopt;
  }
}

std::size_t valueBytes(const Value &value) {
  if (value.droppedDims == 0)
    return byteSize(value.type);
  auto outer = elementsOf(value.type, value.droppedDims - 1);
  return outer ? outer->elementBytes : 0;
}

fmt::Expected<Scalar> ExpressionEvaluator::scalarOf(const Value &value) const {
  if (value.scalar)
    return *value.scalar;
  if (!value.place)
    return fmt::fail("the value has no storage");
  std::size_t size = byteSize(value.type);
  TypeShape shape = shapeOf(value.type);
  if (shape == TypeShape::Array || shape == TypeShape::Vector || shape == TypeShape::Struct ||
      shape == TypeShape::Union || size == 0 || size > 8)
    return fmt::fail("a value of type " + typeName(value.type) + " is not a number");
  std::uint8_t bytes[8] = {};
  if (!m_view.read(*value.place, size, bytes))
    return fmt::fail("cannot read " + std::to_string(size) + " bytes at " +
                     addressSpaceName(value.place->space) + " address 0x" + [&] {
                       char text[32];
                       std::snprintf(text, sizeof text, "%zx", value.place->address);
                       return std::string(text);
                     }());
  auto decoded = decodeScalar(value.type, bytes, size);
  if (!decoded)
    return fmt::fail("a value of type " + typeName(value.type) + " is not a number");
  return *decoded;
}

fmt::Expected<bool> ExpressionEvaluator::truth(const Value &value) const {
  auto s = scalarOf(value);
  if (!s)
    return fmt::fail(s.error());
  return !isZero(*s);
}

fmt::Expected<Value> ExpressionEvaluator::dereference(const Value &pointer) const {
  auto p = scalarOf(pointer);
  if (!p)
    return fmt::fail(p.error());
  if (p->kind != Scalar::Kind::Pointer)
    return fmt::fail("attempt to take the contents of a non-pointer value");
  if (!p->pointee)
    return fmt::fail("attempt to take the contents of a void pointer");
  if (p->u == 0)
    return fmt::fail("the pointer is NULL");
  Value v;
  v.type = p->pointee;
  v.place = Place{p->space, static_cast<std::size_t>(p->u)};
  return v;
}

fmt::Expected<Value> ExpressionEvaluator::index(const Value &base, const Scalar &at) const {
  if (at.kind == Scalar::Kind::Float || at.kind == Scalar::Kind::Pointer)
    return fmt::fail("an array index must be an integer");
  std::int64_t i = at.kind == Scalar::Kind::Signed ? at.s : static_cast<std::int64_t>(at.u);
  TypeShape shape = shapeOf(base.type);
  if (shape == TypeShape::Pointer || (base.scalar && base.scalar->kind == Scalar::Kind::Pointer)) {
    auto p = scalarOf(base);
    if (!p)
      return fmt::fail(p.error());
    if (!p->pointee)
      return fmt::fail("cannot index a void pointer");
    Value v;
    v.type = p->pointee;
    v.place = Place{p->space,
                    static_cast<std::size_t>(p->u + static_cast<std::uint64_t>(i) * byteSize(p->pointee))};
    return v;
  }
  if (shape == TypeShape::Array || shape == TypeShape::Vector) {
    auto info = elementsOf(base.type, base.droppedDims);
    if (!info || !base.place)
      return fmt::fail("cannot index this value");
    if (info->count && (i < 0 || static_cast<std::uint64_t>(i) >= info->count))
      return fmt::fail("index " + std::to_string(i) + " is outside " + typeName(base.type) + " (0.." +
                       std::to_string(info->count - 1) + ")");
    Value v;
    v.type = info->element ? info->element : base.type;
    v.droppedDims = info->element ? 0 : base.droppedDims + 1;
    v.place =
        Place{base.place->space, base.place->address + static_cast<std::size_t>(i) * info->elementBytes};
    return v;
  }
  return fmt::fail("cannot index a value of type " + typeName(base.type));
}

fmt::Expected<Value> ExpressionEvaluator::member(const Value &base, const std::string &name) const {
  TypeShape shape = shapeOf(base.type);
  if (!base.place)
    return fmt::fail("the value has no storage");
  if (shape == TypeShape::Vector) {
    auto component = componentIndex(name);
    auto info = elementsOf(base.type);
    if (!component || !info || *component >= (info->count == 3 ? 3 : info->count))
      return fmt::fail("no component '" + name + "' in " + typeName(base.type));
    Value v;
    v.type = info->element;
    v.place = Place{base.place->space, base.place->address + *component * info->elementBytes};
    return v;
  }
  if (shape != TypeShape::Struct && shape != TypeShape::Union)
    return fmt::fail("a value of type " + typeName(base.type) + " has no members");
  auto m = memberOf(base.type, name);
  if (!m)
    return fmt::fail("there is no member named " + name + " in " + typeName(base.type));
  Value v;
  v.type = m->type;
  v.place = Place{base.place->space, base.place->address + m->offset};
  return v;
}

fmt::Expected<Value> ExpressionEvaluator::call(const Expr &expr) const {
  static const char *const functions[] = {"get_global_id", "get_local_id", "get_group_id", "get_local_size"};
  bool known = false;
  for (const char *f : functions)
    known = known || expr.text == f;
  if (!known)
    return fmt::fail("only the work-item functions can be called (" + expr.text + " is not one)");
  if (expr.operands.size() != 1)
    return fmt::fail(expr.text + " takes one argument, the dimension");
  auto d = evaluate(*expr.operands[0]);
  if (!d)
    return fmt::fail(d.error());
  auto dim = scalarOf(*d);
  if (!dim)
    return fmt::fail(dim.error());
  std::uint64_t k = asBits(*dim);
  const oclgrind::WorkItem &item = m_view.item();
  if (k > 2) {
    // OpenCL: the ids of a dimension past the work dimension are 0, the sizes 1.
    return Value{nullptr, std::nullopt, unsignedScalar(expr.text == "get_local_size" ? 1 : 0)};
  }
  unsigned dimension = static_cast<unsigned>(k);
  std::uint64_t v = 0;
  if (expr.text == "get_global_id")
    v = item.getGlobalID()[dimension];
  else if (expr.text == "get_local_id")
    v = item.getLocalID()[dimension];
  else if (expr.text == "get_group_id")
    v = item.getWorkGroup()->getGroupID()[dimension];
  else
    v = item.getWorkGroup()->getGroupSize()[dimension];
  return Value{nullptr, std::nullopt, unsignedScalar(v)};
}

fmt::Expected<Scalar> arithmetic(const std::string &op, const Scalar &a, const Scalar &b) {
  // Pointer ± integer, pointer - pointer.
  if (a.kind == Scalar::Kind::Pointer && (op == "+" || op == "-") && b.kind != Scalar::Kind::Pointer &&
      b.kind != Scalar::Kind::Float) {
    Scalar r = a;
    std::uint64_t scale = a.pointee ? byteSize(a.pointee) : 1;
    r.u = op == "+" ? a.u + asBits(b) * scale : a.u - asBits(b) * scale;
    return r;
  }
  if (b.kind == Scalar::Kind::Pointer && op == "+" && a.kind != Scalar::Kind::Float)
    return arithmetic(op, b, a);
  if (a.kind == Scalar::Kind::Pointer && b.kind == Scalar::Kind::Pointer && op == "-") {
    std::uint64_t scale = a.pointee && byteSize(a.pointee) ? byteSize(a.pointee) : 1;
    return signedScalar(static_cast<std::int64_t>(a.u - b.u) / static_cast<std::int64_t>(scale));
  }
  if (op == "&&")
    return signedScalar(!isZero(a) && !isZero(b));
  if (op == "||")
    return signedScalar(!isZero(a) || !isZero(b));
  bool floating = a.kind == Scalar::Kind::Float || b.kind == Scalar::Kind::Float;
  bool isUnsigned = !floating && (a.kind != Scalar::Kind::Signed || b.kind != Scalar::Kind::Signed);
  if (op == "==" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=") {
    int order = 0;
    if (floating) {
      double x = asDouble(a), y = asDouble(b);
      order = x < y ? -1 : x > y ? 1 : 0;
      if (std::isnan(x) || std::isnan(y))
        return signedScalar(op == "!=");
    } else if (isUnsigned) {
      order = asBits(a) < asBits(b) ? -1 : asBits(a) > asBits(b) ? 1 : 0;
    } else {
      order = a.s < b.s ? -1 : a.s > b.s ? 1 : 0;
    }
    bool r = op == "=="   ? order == 0
             : op == "!=" ? order != 0
             : op == "<"  ? order < 0
             : op == "<=" ? order <= 0
             : op == ">"  ? order > 0
                          : order >= 0;
    return signedScalar(r);
  }
  if (floating) {
    double x = asDouble(a), y = asDouble(b);
    Scalar r;
    r.kind = Scalar::Kind::Float;
    r.singlePrecision = (a.kind != Scalar::Kind::Float || a.singlePrecision) &&
                        (b.kind != Scalar::Kind::Float || b.singlePrecision);
    if (op == "+")
      r.f = x + y;
    else if (op == "-")
      r.f = x - y;
    else if (op == "*")
      r.f = x * y;
    else if (op == "/")
      r.f = x / y;
    else
      return fmt::fail("operator " + op + " needs integers");
    return r;
  }
  std::uint64_t x = asBits(a), y = asBits(b);
  if ((op == "/" || op == "%") && y == 0)
    return fmt::fail("division by zero");
  if (isUnsigned) {
    std::uint64_t r = op == "+"    ? x + y
                      : op == "-"  ? x - y
                      : op == "*"  ? x * y
                      : op == "/"  ? x / y
                      : op == "%"  ? x % y
                      : op == "&"  ? x & y
                      : op == "|"  ? x | y
                      : op == "^"  ? x ^ y
                      : op == "<<" ? (y < 64 ? x << y : 0)
                                   : (y < 64 ? x >> y : 0);
    return unsignedScalar(r);
  }
  std::int64_t sx = a.s, sy = b.s;
  if ((op == "/" || op == "%") && sx == INT64_MIN && sy == -1)
    return fmt::fail("the division overflows");
  std::int64_t r = op == "+"    ? static_cast<std::int64_t>(x + y)
                   : op == "-"  ? static_cast<std::int64_t>(x - y)
                   : op == "*"  ? static_cast<std::int64_t>(x * y)
                   : op == "/"  ? sx / sy
                   : op == "%"  ? sx % sy
                   : op == "&"  ? sx & sy
                   : op == "|"  ? sx | sy
                   : op == "^"  ? sx ^ sy
                   : op == "<<" ? (sy >= 0 && sy < 64 ? static_cast<std::int64_t>(x << sy) : 0)
                                : (sy >= 0 && sy < 64 ? sx >> sy : (sx < 0 ? -1 : 0));
  return signedScalar(r);
}

fmt::Expected<Value> ExpressionEvaluator::evaluate(const Expr &expr) const {
  switch (expr.kind) {
  case Expr::Kind::Integer:
    return Value{nullptr, std::nullopt,
                 expr.unsignedLiteral ? unsignedScalar(expr.integer)
                                      : signedScalar(static_cast<std::int64_t>(expr.integer))};
  case Expr::Kind::Real: {
    Scalar s;
    s.kind = Scalar::Kind::Float;
    s.f = expr.singlePrecision ? static_cast<double>(static_cast<float>(expr.real)) : expr.real;
    s.singlePrecision = expr.singlePrecision;
    return Value{nullptr, std::nullopt, s};
  }
  case Expr::Kind::Name: {
    auto variable = m_view.find(expr.text);
    if (!variable)
      return fmt::fail("no symbol \"" + expr.text + "\" in the current context");
    return Value{variable->type, variable->place, std::nullopt};
  }
  case Expr::Kind::Call:
    return call(expr);
  default:
    break;
  }
  auto first = evaluate(*expr.operands[0]);
  if (!first)
    return first;
  switch (expr.kind) {
  case Expr::Kind::Index: {
    auto at = evaluate(*expr.operands[1]);
    if (!at)
      return at;
    auto i = scalarOf(*at);
    if (!i)
      return fmt::fail(i.error());
    return index(*first, *i);
  }
  case Expr::Kind::Member:
    return member(*first, expr.text);
  case Expr::Kind::Arrow: {
    auto target = dereference(*first);
    if (!target)
      return target;
    return member(*target, expr.text);
  }
  case Expr::Kind::Deref:
    return dereference(*first);
  case Expr::Kind::AddressOf: {
    if (!first->place)
      return fmt::fail("attempt to take the address of a value not in memory");
    Scalar p;
    p.kind = Scalar::Kind::Pointer;
    p.u = first->place->address;
    p.pointee = first->type;
    p.space = first->place->space;
    return Value{nullptr, std::nullopt, p};
  }
  case Expr::Kind::Unary: {
    auto s = scalarOf(*first);
    if (!s)
      return fmt::fail(s.error());
    Scalar r = *s;
    if (expr.text == "!")
      return Value{nullptr, std::nullopt, signedScalar(isZero(*s))};
    if (expr.text == "+")
      return Value{nullptr, std::nullopt, r};
    if (s->kind == Scalar::Kind::Pointer)
      return fmt::fail("operator " + expr.text + " cannot take a pointer");
    if (expr.text == "-") {
      if (r.kind == Scalar::Kind::Float)
        r.f = -r.f;
      else if (r.kind == Scalar::Kind::Signed)
        r.s = static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(r.s));
      else
        r.u = 0 - r.u;
      return Value{nullptr, std::nullopt, r};
    }
    if (r.kind == Scalar::Kind::Float)
      return fmt::fail("operator ~ needs an integer");
    if (r.kind == Scalar::Kind::Signed)
      r.s = ~r.s;
    else
      r.u = ~r.u;
    return Value{nullptr, std::nullopt, r};
  }
  case Expr::Kind::Binary: {
    auto a = scalarOf(*first);
    if (!a)
      return fmt::fail(a.error());
    // && and || stop early, as in C (the right side may not be readable).
    if ((expr.text == "&&" && isZero(*a)) || (expr.text == "||" && !isZero(*a)))
      return Value{nullptr, std::nullopt, signedScalar(expr.text == "||")};
    auto second = evaluate(*expr.operands[1]);
    if (!second)
      return second;
    auto b = scalarOf(*second);
    if (!b)
      return fmt::fail(b.error());
    auto r = arithmetic(expr.text, *a, *b);
    if (!r)
      return fmt::fail(r.error());
    return Value{nullptr, std::nullopt, *r};
  }
  default:
    return fmt::fail("cannot evaluate this expression");
  }
}

fmt::Expected<void> ExpressionEvaluator::assign(const Value &target, const Scalar &value) const {
  if (!target.place)
    return fmt::fail("the left side of the assignment is not a variable or memory");
  TypeShape shape = shapeOf(target.type);
  std::size_t size = byteSize(target.type);
  std::uint8_t bytes[8] = {};
  switch (shape) {
  case TypeShape::Float: {
    double d = asDouble(value);
    if (size == 4) {
      float f = static_cast<float>(d);
      std::memcpy(bytes, &f, 4);
    } else if (size == 8) {
      std::memcpy(bytes, &d, 8);
    } else {
      return fmt::fail("assigning to half is not supported");
    }
    break;
  }
  case TypeShape::Signed:
  case TypeShape::Unsigned:
  case TypeShape::Char:
  case TypeShape::Enum:
  case TypeShape::Pointer: {
    if (shape != TypeShape::Pointer && value.kind == Scalar::Kind::Pointer)
      return fmt::fail("cannot assign a pointer to a value of type " + typeName(target.type));
    std::uint64_t raw = value.kind == Scalar::Kind::Float
                            ? static_cast<std::uint64_t>(static_cast<std::int64_t>(value.f))
                            : asBits(value);
    std::memcpy(bytes, &raw, size);
    break;
  }
  case TypeShape::Bool:
    bytes[0] = isZero(value) ? 0 : 1;
    break;
  default:
    return fmt::fail("cannot assign to a value of type " + typeName(target.type) +
                     " (only numbers and pointers)");
  }
  if (size == 0 || size > 8 || !m_view.write(*target.place, bytes, size))
    return fmt::fail("cannot write the value's memory");
  return {};
}

} // namespace clcapture::debug
