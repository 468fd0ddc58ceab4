//===- TraceLayout.cpp - The record sites of an instrumented kernel, as JSON ===//

#include "TraceLayout.h"

#include <nlohmann/json.hpp>

namespace clcapture::instrument {

using Json = nlohmann::ordered_json;

unsigned TraceSite::words() const {
  unsigned total = kRecordHeaderWords;
  for (const TraceValue &v : values)
    total += v.words();
  return total;
}

const char *siteKindName(SiteKind kind) {
  switch (kind) {
  case SiteKind::Entry:
    return "entry";
  case SiteKind::Statement:
    return "statement";
  case SiteKind::Condition:
    return "condition";
  case SiteKind::Barrier:
    return "barrier";
  case SiteKind::Return:
    return "return";
  }
  return "statement";
}

const char *valueClassName(ValueClass c) {
  switch (c) {
  case ValueClass::Int:
    return "int";
  case ValueClass::UInt:
    return "uint";
  case ValueClass::Float:
    return "float";
  case ValueClass::Double:
    return "double";
  case ValueClass::Half:
    return "half";
  case ValueClass::Bool:
    return "bool";
  case ValueClass::Pointer:
    return "pointer";
  case ValueClass::Bytes:
    return "bytes";
  }
  return "bytes";
}

namespace {

Json valueJson(const TraceValue &v) {
  Json j{{"name", v.name},         {"type", v.type},     {"class", valueClassName(v.valueClass)},
         {"size", v.size},         {"words", v.words()}, {"lanes", v.lanes},
         {"declares", v.declares}, {"lvalue", v.lvalue}};
  if (v.declares && v.scopeEndLine)
    j["scope_end_line"] = *v.scopeEndLine;
  return j;
}

} // namespace

std::string layoutJson(const TraceLayout &layout) {
  Json functions = Json::array();
  for (const TraceFunction &f : layout.functions)
    functions.push_back({{"name", f.name}, {"kernel", f.kernel}, {"line", f.line}, {"end_line", f.endLine}});
  Json sites = Json::array();
  for (const TraceSite &s : layout.sites) {
    Json values = Json::array();
    for (const TraceValue &v : s.values)
      values.push_back(valueJson(v));
    sites.push_back({{"id", s.id},
                     {"kind", siteKindName(s.kind)},
                     {"function", s.function},
                     {"line", s.line},
                     {"column", s.column},
                     {"text", s.text},
                     {"words", s.words()},
                     {"values", std::move(values)}});
  }
  Json j{{"format", "clcapture-trace-layout/1"},
         {"kernel", layout.kernel},
         {"source", layout.source},
         {"trace_argument", layout.traceArgument},
         {"header_words", kTraceHeaderWords},
         {"record_items", layout.recordItems},
         {"functions", std::move(functions)},
         {"sites", std::move(sites)}};
  // Invalid UTF-8 in a statement's text (a Latin-1 comment) is replaced, never a throw.
  return j.dump(1, ' ', false, Json::error_handler_t::replace) + "\n";
}

} // namespace clcapture::instrument
