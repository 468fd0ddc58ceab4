//===- ExpressionParser.h - The C expressions the debugger's commands take -*- C++ -*-===//
//
// `print`, `set var`, `x` and breakpoint conditions take C expressions over the kernel's names: literals,
// names, a[i], s.m, p->m, *p, &x, unary - ! ~, * / % + - << >> < <= > >= == != & ^ | && ||, parentheses, and
// the work-item functions get_global_id(d), get_local_id(d), get_group_id(d), get_local_size(d). Parsing
// needs no kernel (so the parser can be fuzzed alone); a malformed expression gets one message naming where
// it fails.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Expected.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace clcapture::debug {

struct Expr {
  enum class Kind { Integer, Real, Name, Index, Member, Arrow, Deref, AddressOf, Unary, Binary, Call };
  Kind kind = Kind::Integer;
  std::string text;             ///< Name/Call: the name; Member/Arrow: the member; Unary/Binary: the operator
  std::uint64_t integer = 0;    ///< Integer
  bool unsignedLiteral = false; ///< Integer with a u suffix, or too large for long
  double real = 0;              ///< Real
  bool singlePrecision = false; ///< Real with an f suffix
  std::vector<std::unique_ptr<Expr>> operands;
};

/// Parses the whole of `text` as one expression.
format::Expected<std::unique_ptr<Expr>> parseExpression(const std::string &text);

/// An expression written back as C (for messages: "breakpoint condition `l == 3`").
std::string spell(const Expr &expr);

} // namespace clcapture::debug
