//===- TraceLayout.cpp - The record sites of an instrumented kernel, as JSON ===//

#include "clcapture/trace/TraceLayout.h"

#include <nlohmann/json.hpp>

namespace clcapture::trace {

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

namespace {

template <typename T> T field(const Json &object, const char *name, T fallback) {
  auto it = object.find(name);
  return it == object.end() || it->is_null() ? fallback : it->template get<T>();
}

std::optional<SiteKind> siteKindNamed(const std::string &name) {
  for (SiteKind k :
       {SiteKind::Entry, SiteKind::Statement, SiteKind::Condition, SiteKind::Barrier, SiteKind::Return})
    if (name == siteKindName(k))
      return k;
  return std::nullopt;
}

std::optional<ValueClass> valueClassNamed(const std::string &name) {
  for (ValueClass c : {ValueClass::Int, ValueClass::UInt, ValueClass::Float, ValueClass::Double,
                       ValueClass::Half, ValueClass::Bool, ValueClass::Pointer, ValueClass::Bytes})
    if (name == valueClassName(c))
      return c;
  return std::nullopt;
}

format::Expected<TraceValue> parseValue(const Json &v) {
  TraceValue t;
  t.name = v.at("name").get<std::string>();
  t.type = field<std::string>(v, "type", "");
  auto c = valueClassNamed(field<std::string>(v, "class", "bytes"));
  if (!c)
    return format::fail("value " + t.name + " has an unknown class " + v.value("class", std::string()));
  t.valueClass = *c;
  t.size = v.at("size").get<unsigned>();
  t.lanes = field<unsigned>(v, "lanes", 1);
  t.declares = field<bool>(v, "declares", false);
  t.lvalue = field<bool>(v, "lvalue", false);
  if (v.contains("scope_end_line") && v["scope_end_line"].is_number())
    t.scopeEndLine = v["scope_end_line"].get<unsigned>();
  if (field<unsigned>(v, "words", t.words()) != t.words())
    return format::fail("value " + t.name + " says it takes " +
                        std::to_string(field<unsigned>(v, "words", 0)) + " words; its " +
                        std::to_string(t.size) + " bytes take " + std::to_string(t.words()));
  return t;
}

format::Expected<TraceSite> parseSite(const Json &s, unsigned expectedId) {
  TraceSite site;
  site.id = s.at("id").get<unsigned>();
  if (site.id != expectedId)
    return format::fail("site " + std::to_string(site.id) + " comes where site " +
                        std::to_string(expectedId) + " should (ids are 0, 1, 2, … in order)");
  auto kind = siteKindNamed(s.at("kind").get<std::string>());
  if (!kind)
    return format::fail("site " + std::to_string(site.id) + " has an unknown kind " + s.at("kind").dump());
  site.kind = *kind;
  site.function = field<std::string>(s, "function", "");
  site.line = s.at("line").get<unsigned>();
  site.column = field<unsigned>(s, "column", 0);
  site.text = field<std::string>(s, "text", "");
  for (const Json &v : s.value("values", Json::array())) {
    auto value = parseValue(v);
    if (!value)
      return format::fail("site " + std::to_string(site.id) + ": " + value.error());
    site.values.push_back(std::move(*value));
  }
  if (field<unsigned>(s, "words", site.words()) != site.words())
    return format::fail("site " + std::to_string(site.id) + " says " +
                        std::to_string(field<unsigned>(s, "words", 0)) + " words, its values take " +
                        std::to_string(site.words()));
  return site;
}

} // namespace

format::Expected<TraceLayout> parseTraceLayout(const std::string &text) {
  try {
    Json j = Json::parse(text);
    if (field<std::string>(j, "format", "") != "clcapture-trace-layout/1")
      return format::fail("not a trace layout (its \"format\" is not \"clcapture-trace-layout/1\")");
    if (field<unsigned>(j, "header_words", kTraceHeaderWords) != kTraceHeaderWords)
      return format::fail("the layout's trace header is not " + std::to_string(kTraceHeaderWords) + " words");
    TraceLayout l;
    l.kernel = j.at("kernel").get<std::string>();
    l.source = field<std::string>(j, "source", "");
    l.traceArgument = j.at("trace_argument").get<unsigned>();
    l.recordItems = field<std::string>(j, "record_items", "");
    for (const Json &f : j.value("functions", Json::array()))
      l.functions.push_back(TraceFunction{f.at("name").get<std::string>(), field<bool>(f, "kernel", false),
                                          field<unsigned>(f, "line", 0), field<unsigned>(f, "end_line", 0)});
    for (const Json &s : j.at("sites")) {
      auto site = parseSite(s, static_cast<unsigned>(l.sites.size()));
      if (!site)
        return format::fail(site.error());
      l.sites.push_back(std::move(*site));
    }
    return l;
  } catch (const Json::exception &e) {
    return format::fail(std::string("the trace layout is not valid: ") + e.what());
  }
}

} // namespace clcapture::trace
