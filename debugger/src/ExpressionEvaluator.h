//===- ExpressionEvaluator.h - A parsed expression's value in one work-item -*- C++ -*-===//
//
// Values are places in the work-item's memories with a debug type (what a name, a[i], s.m or *p gives), or
// scalars computed from them with C's usual arithmetic simplified to 64 bits (signed, unsigned, double,
// pointer; pointer ± integer scales by the pointee's size). `set var` assigns a scalar to a place of scalar
// type, converted as C converts on assignment.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "DebugTypes.h"
#include "ExpressionParser.h"
#include "WorkItemView.h"
#include "clcapture/format/Expected.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class DIType;
} // namespace llvm

namespace clcapture::debug {

struct Scalar {
  enum class Kind { Signed, Unsigned, Float, Pointer };
  Kind kind = Kind::Signed;
  std::int64_t s = 0;
  std::uint64_t u = 0; ///< Unsigned and Pointer
  double f = 0;
  std::size_t bytes = 8;
  bool singlePrecision = false;
  const llvm::DIType *pointee = nullptr; ///< Pointer
  AddressSpace space = AddressSpace::Private;
};

struct Value {
  const llvm::DIType *type = nullptr; ///< the debug type, when the value has one
  std::optional<Place> place;         ///< where it lives (an lvalue)
  std::optional<Scalar> scalar;       ///< a computed value (an rvalue)
  unsigned droppedDims = 0;           ///< a row of a multi-dimensional array: its leading dimensions indexed
};

/// The bytes a value takes (a row of a multi-dimensional array: the row's).
std::size_t valueBytes(const Value &value);

/// Half-precision bits as a double (OpenCL's half storage type).
double halfToDouble(std::uint16_t bits);

/// C's binary operators on two scalars (the usual conversions, in 64 bits; pointer ± integer, pointer -
/// pointer).
format::Expected<Scalar> arithmetic(const std::string &op, const Scalar &a, const Scalar &b);

class ExpressionEvaluator {
public:
  explicit ExpressionEvaluator(const WorkItemView &view) : m_view(view) {}

  format::Expected<Value> evaluate(const Expr &expr) const;
  /// The value as a scalar (loading it from its place); fails for aggregates.
  format::Expected<Scalar> scalarOf(const Value &value) const;
  /// Whether the value is non-zero (conditions).
  format::Expected<bool> truth(const Value &value) const;
  /// Stores `value` into `target` (a place of scalar type), converted to the target's type.
  format::Expected<void> assign(const Value &target, const Scalar &value) const;

  const WorkItemView &view() const { return m_view; }

private:
  format::Expected<Value> index(const Value &base, const Scalar &at) const;
  format::Expected<Value> member(const Value &base, const std::string &name) const;
  format::Expected<Value> dereference(const Value &pointer) const;
  format::Expected<Value> call(const Expr &expr) const;

  const WorkItemView &m_view;
};

/// Decodes the bytes of a scalar-typed value (little-endian, as Oclgrind stores them).
std::optional<Scalar> decodeScalar(const llvm::DIType *type, const std::uint8_t *bytes, std::size_t size);

} // namespace clcapture::debug
