//===- ValueShapes.h - How a value of a type is recorded -*- C++ -*-===//
//
// docs/device-debugging.md, "The trace buffer": a value takes ceil(size / 4) words, its bytes through a union
// with a `uint` array. Scalars and vectors keep their OpenCL type (a 3-vector's size is 16, its padding lane
// zeroed); `bool` is recorded as a `uint` 0/1; a pointer, `size_t`, `ptrdiff_t`, `intptr_t` and `uintptr_t`
// are recorded widened to 64 bits, so a record's length does not depend on the device's address bits; a
// struct or union declared at file scope is recorded as its bytes. Arrays, images, samplers, events and types
// declared inside a function are not recorded (the site does not list them).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "RecordFunctions.h"
#include "clcapture/trace/TraceLayout.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Type.h>
#include <optional>
#include <string>

namespace clcapture::instrument {

/// A recorded value: what the layout says, what the record function takes, what the call passes.
struct SiteValue {
  trace::TraceValue shown;
  RecordParam param;
  std::string argument;
};

class ValueShapes {
public:
  explicit ValueShapes(const clang::ASTContext &context);

  /// A variable (or parameter) `name` of `type`, passed by name; nothing when it cannot be recorded.
  std::optional<SiteValue> named(const std::string &name, clang::QualType type) const;
  /// An lvalue by its source text (`lvalue: true`).
  std::optional<SiteValue> lvalue(const std::string &text, const std::string &shownText,
                                  clang::QualType type) const;
  /// A condition site's first value: `argument` is the int 0/1 the call passes.
  SiteValue condition(std::string argument) const;
  /// A return site's value, of the function's return type: the record function takes and returns that type.
  std::optional<SiteValue> returned(clang::QualType type, std::string argument) const;

private:
  struct Shape {
    trace::ValueClass valueClass = trace::ValueClass::Int;
    unsigned size = 0;
    unsigned lanes = 1;
    std::string paramType; ///< spelled with file-scope names only
    std::string storeType;
    bool castArgument = false; ///< a pointer: the call passes `(ulong)(x)`
    unsigned padBegin = 0;
    unsigned padEnd = 0;
  };
  std::optional<Shape> shape(clang::QualType type) const;
  std::optional<Shape> scalar(const clang::BuiltinType *builtin) const;
  std::optional<std::string> recordName(const clang::RecordType *record) const;
  std::string shownType(clang::QualType type) const;
  SiteValue value(const Shape &shape, std::string name, std::string type, std::string argument) const;

  const clang::ASTContext &m_context;
};

} // namespace clcapture::instrument
