//===- SidecarConverter.h - captures.meta.json into the typed model -*- C++ -*-===//
//
// Internal to clcapture_format's readers. The sidecar is clcapture's own: later versions may add keys, so
// unknown ones are warnings; a missing or mistyped key is an error with its key path. Launch entries
// arrive here with their repeats already expanded (SidecarRepeats.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ConverterBase.h"
#include "DiagnosticText.h"
#include "clcapture/format/Instantiation.h"
#include "clcapture/format/Sidecar.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>

namespace clcapture::format::reader {

class SidecarConverter : public ConverterBase {
public:
  using ConverterBase::ConverterBase;

  /// One entry of `launches` (repeats expanded).
  LaunchFacts launch(const Json &v, const std::string &path);
  /// The whole sidecar (its header and, when present in `v`, its launches); nullopt after an error.
  std::optional<Sidecar> sidecar(const Json &v);

private:
  void keys(const Json &obj, const std::string &path, const std::set<std::string> &known);
  const Json *get(const Json &obj, const std::string &path, const char *key, bool required = true);
  std::string str(const Json &obj, const std::string &path, const char *key, bool required = true);
  std::optional<std::string> optStr(const Json &obj, const std::string &path, const char *key);
  std::uint64_t num(const Json &obj, const std::string &path, const char *key, bool required = true);
  std::optional<std::uint64_t> optNum(const Json &obj, const std::string &path, const char *key);
  /// An array of 1 to 3 integers from `min`, or nullopt when the key is absent (or after an error).
  std::optional<Dims> optDims(const Json &obj, const std::string &path, const char *key, std::uint64_t min);
  bool object(const Json &v, const std::string &path);

  DeviceFacts device(const Json &v, const std::string &path);
  ArgumentFacts argument(const Json &v, const std::string &path);
  HostCallFacts hostCall(const Json &v, const std::string &path);
  /// A launch's `aliases` (at key path `p`): groups of at least two indices into f.arguments.
  void aliasGroups(const Json &aliases, const std::string &p, LaunchFacts &f);
  /// The header's `process` object.
  void process(const Json &proc, ProcessFacts &p);
};

} // namespace clcapture::format::reader
