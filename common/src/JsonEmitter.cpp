//===- JsonEmitter.cpp - Deterministic, readable JSON layout -------------===//

#include "clcapture/format/JsonEmitter.h"

namespace clcapture::format {
namespace {

using Json = nlohmann::ordered_json;

std::string scalarText(const Json &v) {
  // replace: an invalid UTF-8 sequence from an application's string never makes the writer throw.
  return v.dump(-1, ' ', false, Json::error_handler_t::replace);
}

/// Appends the one-line form (", " and ": " separators) to `out`; stops early and returns false once `out`
/// would grow past `limit` characters (a large container is not laid out in full only to be found too wide:
/// that made a 64,000-result report quadratic in its depth).
bool inlineText(const Json &v, std::size_t limit, std::string &out) {
  if (v.is_object() || v.is_array()) {
    out += v.is_object() ? '{' : '[';
    bool first = true;
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (!first)
        out += ", ";
      first = false;
      if (v.is_object())
        out += scalarText(Json(it.key())) + ": ";
      if (out.size() > limit || !inlineText(it.value(), limit, out))
        return false;
    }
    out += v.is_object() ? '}' : ']';
  } else {
    out += scalarText(v);
  }
  return out.size() <= limit;
}

std::string inlineText(const Json &v) {
  std::string s;
  inlineText(v, std::string::npos, s);
  return s;
}

/// `column` is where the value starts on its first line (after the indentation and any `"key": `).
void emit(const Json &v, int indent, std::size_t column, std::string &out) {
  bool container = v.is_object() || v.is_array();
  if (!container || v.empty()) {
    out += inlineText(v);
    return;
  }
  std::string oneLine;
  if (column <= kJsonInlineWidth && inlineText(v, kJsonInlineWidth - column, oneLine)) {
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
