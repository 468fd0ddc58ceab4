//===- JsonEmitter.cpp - Deterministic, readable JSON layout -------------===//

#include "clcapture/format/JsonEmitter.h"

namespace clcapture::format {
namespace {

using Json = nlohmann::ordered_json;

std::string scalarText(const Json &v) {
  // replace: an invalid UTF-8 sequence from an application's string never makes the writer throw.
  return v.dump(-1, ' ', false, Json::error_handler_t::replace);
}

/// One-line form with ", " and ": " separators.
std::string inlineText(const Json &v) {
  if (v.is_object()) {
    std::string s = "{";
    bool first = true;
    for (const auto &[key, member] : v.items()) {
      if (!first)
        s += ", ";
      first = false;
      s += scalarText(Json(key)) + ": " + inlineText(member);
    }
    return s + "}";
  }
  if (v.is_array()) {
    std::string s = "[";
    bool first = true;
    for (const auto &element : v) {
      if (!first)
        s += ", ";
      first = false;
      s += inlineText(element);
    }
    return s + "]";
  }
  return scalarText(v);
}

/// `column` is where the value starts on its first line (after the indentation and any `"key": `).
void emit(const Json &v, int indent, std::size_t column, std::string &out) {
  bool container = v.is_object() || v.is_array();
  if (!container || v.empty()) {
    out += inlineText(v);
    return;
  }
  std::string oneLine = inlineText(v);
  if (column + oneLine.size() <= kJsonInlineWidth) {
    out += oneLine;
    return;
  }
  const std::string inner(static_cast<std::size_t>(indent + 2), ' ');
  out += v.is_object() ? "{\n" : "[\n";
  bool first = true;
  if (v.is_object()) {
    for (const auto &[key, member] : v.items()) {
      if (!first)
        out += ",\n";
      first = false;
      std::string prefix = inner + scalarText(Json(key)) + ": ";
      out += prefix;
      emit(member, indent + 2, prefix.size(), out);
    }
  } else {
    for (const auto &element : v) {
      if (!first)
        out += ",\n";
      first = false;
      out += inner;
      emit(element, indent + 2, inner.size(), out);
    }
  }
  out += '\n' + std::string(static_cast<std::size_t>(indent), ' ') + (v.is_object() ? "}" : "]");
}

} // namespace

std::string emitJson(const nlohmann::ordered_json &value, int indent, std::size_t firstColumn) {
  std::string out;
  emit(value, indent, firstColumn == kAtIndent ? static_cast<std::size_t>(indent) : firstColumn, out);
  return out;
}

} // namespace clcapture::format
