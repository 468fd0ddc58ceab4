//===- SessionText.cpp - How the debugger reads its commands' arguments -------===//
#include "SessionText.h"

#include <cctype>
#include <cstdlib>
#include <sstream>

namespace clcapture::debug {

std::string trim(const std::string &s) {
  std::size_t b = s.find_first_not_of(" \t");
  std::size_t e = s.find_last_not_of(" \t");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

std::optional<std::uint64_t> number(const std::string &text) {
  std::string t = trim(text);
  if (t.empty() || !std::isdigit(static_cast<unsigned char>(t[0])))
    return std::nullopt;
  char *end = nullptr;
  unsigned long long v = std::strtoull(t.c_str(), &end, 0);
  if (*end != '\0')
    return std::nullopt;
  return static_cast<std::uint64_t>(v);
}

std::vector<std::string> words(const std::string &text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;)
    out.push_back(w);
  return out;
}

bool splitFormat(const std::string &arguments, NumberFormat &format, std::string &rest, std::string &count) {
  format = NumberFormat::Natural;
  rest = trim(arguments);
  if (rest.empty() || rest[0] != '/')
    return true;
  std::size_t end = rest.find_first_of(" \t");
  std::string spec = rest.substr(1, end == std::string::npos ? std::string::npos : end - 1);
  rest = end == std::string::npos ? std::string() : trim(rest.substr(end));
  std::size_t digits = 0;
  while (digits < spec.size() && std::isdigit(static_cast<unsigned char>(spec[digits])))
    ++digits;
  count = spec.substr(0, digits);
  for (char c : spec.substr(digits)) {
    auto f = numberFormat(c);
    if (!f && c != 'w' && c != 'g' && c != 'b' && c != 'h')
      return false;
    if (f)
      format = *f;
  }
  return true;
}

} // namespace clcapture::debug
