//===- Reporter.h - Diagnostics about one file (and one record of it) -*- C++ -*-===//
//
// Internal to clcapture_format's readers: every reader and the shared validation report through a
// Reporter, which stamps the file's display name and the current instantiation on each message.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Diagnostic.h"
#include "clcapture/format/ReadOptions.h"

#include <cstddef>
#include <optional>
#include <string>

namespace clcapture::format::reader {

/// Reports diagnostics about one file (and, when set, one record of it).
class Reporter {
public:
  Reporter(DiagnosticList &out, std::string file, const ReadOptions &options)
      : m_out(out), m_file(std::move(file)), m_options(options) {}

  void setInstantiation(std::optional<std::size_t> index) { m_instantiation = index; }
  void error(const std::string &key, std::string message) { add(Severity::Error, key, std::move(message)); }
  void warning(const std::string &key, std::string message) {
    add(Severity::Warning, key, std::move(message));
  }
  /// Unknown keys: errors in strict mode (GPUVerify's loader rejects them), otherwise warnings.
  void unknownKey(const std::string &key, const std::string &where);
  const ReadOptions &options() const { return m_options; }
  const std::string &file() const { return m_file; }
  DiagnosticList &list() { return m_out; }

private:
  void add(Severity severity, const std::string &key, std::string message);

  DiagnosticList &m_out;
  std::string m_file;
  const ReadOptions &m_options;
  std::optional<std::size_t> m_instantiation;
};

} // namespace clcapture::format::reader
