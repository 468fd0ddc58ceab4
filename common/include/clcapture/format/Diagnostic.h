//===- Diagnostic.h - Precise messages about capture files ------*- C++ -*-===//
//
// A diagnostic names the file, the instantiation and the key path it is about, so that a user can go straight
// to the problem: `captures.json: instantiation 3: kernel_arguments[1].value: expected a hex string starting
// with 0x, got "12"`. Parse errors carry line and column instead.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace clcapture::format {

enum class Severity { Warning, Error };

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string file;                         ///< display name of the file, e.g. "captures.json"
  std::optional<std::size_t> line, column;  ///< for syntax errors (1-based)
  std::optional<std::size_t> instantiation; ///< index of the record the message is about
  std::string keyPath;                      ///< e.g. "kernel_arguments[1].value"; empty for the whole record
  std::string message;                      ///< lower-case, no final period

  /// `file[:line:col]: [warning: ][instantiation N: ][key: ]message`
  std::string str() const;
};

/// True when any of `diagnostics` is an error (warnings do not count).
bool containsErrors(const std::vector<Diagnostic> &diagnostics);

/// Collects diagnostics, capping the number of errors so a hopeless file does not flood the user.
class DiagnosticList {
public:
  explicit DiagnosticList(std::size_t maxErrors = 100) : m_maxErrors(maxErrors) {}

  void add(Diagnostic d);
  bool hasErrors() const { return m_errorCount > 0; }
  std::size_t errorCount() const { return m_errorCount; }
  bool full() const { return m_errorCount >= m_maxErrors; }
  const std::vector<Diagnostic> &all() const { return m_items; }
  std::vector<Diagnostic> take() { return std::move(m_items); }
  /// Every diagnostic's str(), one per line.
  std::string text() const;

private:
  std::size_t m_maxErrors;
  std::size_t m_errorCount = 0;
  std::size_t m_dropped = 0;
  std::vector<Diagnostic> m_items;
};

} // namespace clcapture::format
