//===- TraceLayout.h - The record sites of an instrumented kernel -*- C++ -*-===//
//
// What clcapture-instrument tells the reader of a trace buffer (docs/device-debugging.md, "The layout"): the
// functions it instrumented and, for every record site, where it is, what it records and in how many 32-bit
// words. JSON (`clcapture-trace-layout/1`): clcapture-instrument writes it, clcapture-debug reads it; neither
// Clang nor Oclgrind here, so both programs link this.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Expected.h"

#include <optional>
#include <string>
#include <vector>

namespace clcapture::trace {

/// How a recorded value's words are read (the layout's "class").
enum class ValueClass { Int, UInt, Float, Double, Half, Bool, Pointer, Bytes };

/// One value of a record.
struct TraceValue {
  std::string name; ///< a variable, an lvalue's source text, "condition" or "return"
  std::string type; ///< as the program spells it ("float4", "size_t", "struct P")
  ValueClass valueClass = ValueClass::Int;
  unsigned size = 0;                    ///< bytes recorded (a float3's 16, a pointer's 8)
  unsigned lanes = 1;                   ///< a vector's component count
  bool declares = false;                ///< the site declares the variable: its scope begins
  bool lvalue = false;                  ///< `name` is an expression's text, not a variable
  std::optional<unsigned> scopeEndLine; ///< with `declares`: the line of the `}` that ends the scope

  unsigned words() const { return (size + 3) / 4; }
};

enum class SiteKind { Entry, Statement, Condition, Barrier, Return };

/// One place that records: a call of `clcapture_rec_<id>` in the instrumented source.
struct TraceSite {
  unsigned id = 0;
  SiteKind kind = SiteKind::Statement;
  std::string function;
  unsigned line = 0;
  unsigned column = 0;
  std::string text; ///< the statement (condition, function head) as written, blanks collapsed
  std::vector<TraceValue> values;

  /// The record's length: site, work-item, sequence, then every value's words.
  unsigned words() const;
};

struct TraceFunction {
  std::string name;
  bool kernel = false;
  unsigned line = 0;
  unsigned endLine = 0;
};

struct TraceLayout {
  std::string kernel;
  std::string source;
  std::string recordItems;
  unsigned traceArgument = 0;
  std::vector<TraceFunction> functions;
  std::vector<TraceSite> sites; ///< site i has id i

  /// The site with this id, or nullptr (a damaged trace names one that does not exist).
  const TraceSite *site(unsigned id) const { return id < sites.size() ? &sites[id] : nullptr; }
};

constexpr unsigned kTraceHeaderWords = 4;
constexpr unsigned kRecordHeaderWords = 3;

const char *siteKindName(SiteKind kind);
const char *valueClassName(ValueClass c);

/// The layout as JSON text (docs/device-debugging.md, "The layout"), keys in the documented order.
std::string layoutJson(const TraceLayout &layout);

/// Reads a layout (JSON text); fails naming what is missing or wrong (a site out of order, a record length
/// that its values do not add up to, an unknown kind or class).
format::Expected<TraceLayout> parseTraceLayout(const std::string &json);

} // namespace clcapture::trace
