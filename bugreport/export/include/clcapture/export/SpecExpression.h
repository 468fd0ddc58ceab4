//===- SpecExpression.h - The Python expressions of a PySchedCL spec -*- C++ -*-===//
//
// PySchedCL evaluates `globalWorkSize`, buffer sizes and `varArguments` values with Python's eval() in a
// scope where `dataset`, `size_percent` and its helper functions are defined (pyschedcl.py). An import has
// no such scope: it evaluates integer arithmetic (+ - * / // % **, parentheses, unary signs, decimal and
// hex literals) over names the user defines (`--define dataset=1024`), Python 2 semantics for `/` on
// integers (floor division). Anything else (a call such as partition_round(…), an undefined name) is not
// evaluated, and the failure names what was missing.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clcapture::exporter {

using Defines = std::map<std::string, std::int64_t>;

struct EvalResult {
  std::optional<std::int64_t> value;
  std::string why;                   ///< when no value: e.g. "'dataset' is not defined"
  std::optional<std::string> symbol; ///< the undefined name or called function that stopped it
};

/// Evaluates one integer expression.
EvalResult evaluateInteger(std::string_view expression, const Defines &defines);

/// Evaluates a Python list expression of integers ("[1024, 1]", "[dataset, dataset]") or a single integer
/// expression (PySchedCL takes `1024` as `[1024]`). The first failing element stops it.
struct ListResult {
  std::optional<std::vector<std::int64_t>> values;
  std::string why;
  std::optional<std::string> symbol;
};
ListResult evaluateIntegerList(std::string_view expression, const Defines &defines);

/// Formats sizes as the Python list expression the spec uses: "[1024, 1]".
std::string pythonList(const std::vector<std::uint64_t> &values);

/// Parses `NAME=INTEGER` (a --define); nullopt when malformed.
std::optional<std::pair<std::string, std::int64_t>> parseDefine(std::string_view text);

} // namespace clcapture::exporter
