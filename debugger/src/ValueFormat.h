//===- ValueFormat.h - Values written as gdb writes them --*- C++ -*-===//
//
// Integers in decimal (or /x hex, /o octal, /t binary, /d decimal, /c character), chars as `65 'A'`, floats
// in the shortest text that reads back to the same bits, pointers as `(global int *) 0x…`, arrays and
// vectors as `{1, 2, 3}` (the first 200 elements), structs as `{x = 1, y = 2}`.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ExpressionEvaluator.h"

#include <string>

namespace clcapture::debug {

enum class NumberFormat { Natural, Hex, Octal, Binary, Decimal, Character };

/// The format letter of `print/F` and `x/NF`; nullopt for an unknown letter.
std::optional<NumberFormat> numberFormat(char letter);

std::string formatScalar(const Scalar &value, const llvm::DIType *type, NumberFormat format);
/// The whole value (reading its memory through the evaluator's view); unreadable memory is written as
/// `<cannot read N bytes at global 0x…>`.
std::string formatValue(const ExpressionEvaluator &evaluator, const Value &value, NumberFormat format);

} // namespace clcapture::debug
