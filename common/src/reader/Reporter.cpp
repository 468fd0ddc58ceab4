//===- Reporter.cpp - Diagnostics about one file (and one record of it) ---===//

#include "Reporter.h"

#include "DiagnosticText.h"

namespace clcapture::format::reader {

void Reporter::unknownKey(const std::string &key, const std::string &where) {
  std::string message = "unknown key " + inQuotes(key.substr(key.rfind('.') + 1)) + " in " + where;
  if (m_options.strict)
    error(key, std::move(message));
  else
    warning(key, std::move(message) + "; ignored");
}

void Reporter::add(Severity severity, const std::string &key, std::string message) {
  Diagnostic d;
  d.severity = severity;
  d.file = m_file;
  d.instantiation = m_instantiation;
  d.keyPath = key;
  d.message = std::move(message);
  m_out.add(std::move(d));
}

} // namespace clcapture::format::reader
