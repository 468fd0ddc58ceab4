//===- DiagnosticText.cpp - How the reader's messages spell values and key paths -===//

#include "DiagnosticText.h"

namespace clcapture::format::reader {

std::string describe(const Json &v) {
  switch (v.type()) {
  case Json::value_t::object:
    return "an object";
  case Json::value_t::array:
    return "an array";
  case Json::value_t::null:
    return "null";
  case Json::value_t::string: {
    std::string s = v.dump(-1, ' ', false, Json::error_handler_t::replace);
    return s.size() > 60 ? s.substr(0, 57) + "...\"" : s;
  }
  default:
    return v.dump(-1, ' ', false, Json::error_handler_t::replace);
  }
}

std::string inQuotes(std::string_view s) {
  return "\"" + std::string(s) + "\"";
}

std::string join(const std::string &path, const std::string &key) {
  return path.empty() ? key : path + "." + key;
}

std::string at(const std::string &path, std::size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

} // namespace clcapture::format::reader
