//===- Diagnostic.cpp - Precise messages about capture files -------------===//

#include "clcapture/format/Diagnostic.h"

namespace clcapture::format {

std::string Diagnostic::str() const {
  std::string s = file;
  if (line) {
    s += ':' + std::to_string(*line);
    if (column)
      s += ':' + std::to_string(*column);
  }
  s += ": ";
  if (severity == Severity::Warning)
    s += "warning: ";
  if (instantiation)
    s += "instantiation " + std::to_string(*instantiation) + ": ";
  if (!keyPath.empty())
    s += keyPath + ": ";
  s += message;
  return s;
}

bool containsErrors(const std::vector<Diagnostic> &diagnostics) {
  for (const auto &d : diagnostics)
    if (d.severity == Severity::Error)
      return true;
  return false;
}

void DiagnosticList::add(Diagnostic d) {
  if (d.severity == Severity::Error) {
    if (full()) {
      ++m_dropped;
      if (m_dropped == 1)
        m_items.push_back(
            Diagnostic{Severity::Error, d.file, {}, {}, {}, {}, "too many errors; stopping here"});
      return;
    }
    ++m_errorCount;
  }
  m_items.push_back(std::move(d));
}

std::string DiagnosticList::text() const {
  std::string s;
  for (const auto &d : m_items)
    s += d.str() + '\n';
  return s;
}

} // namespace clcapture::format
