//===- ErrorMessages.h - The error diagnostics of a read, as text, for assertions -*- C++ -*-===//
#pragma once

#include "clcapture/format/Diagnostic.h"

#include <string>
#include <vector>

namespace clcapture::test {

/// The text of every Error-severity diagnostic, in order (warnings left out).
inline std::vector<std::string> errorMessages(const std::vector<format::Diagnostic> &diagnostics) {
  std::vector<std::string> out;
  for (const auto &d : diagnostics)
    if (d.severity == format::Severity::Error)
      out.push_back(d.str());
  return out;
}

/// The same, one line each, as one text (for comparing a whole read's errors).
inline std::string errorText(const std::vector<format::Diagnostic> &diagnostics) {
  std::string s;
  for (const std::string &line : errorMessages(diagnostics))
    s += line + "\n";
  return s;
}

} // namespace clcapture::test
