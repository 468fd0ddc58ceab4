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

} // namespace clcapture::test
