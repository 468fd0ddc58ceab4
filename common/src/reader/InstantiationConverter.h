//===- InstantiationConverter.h - A captures.json record into the typed model -*- C++ -*-===//
//
// Internal to clcapture_format's readers: the first of the reader's two passes per record. JSON types
// become an Instantiation, every type error reported with its key path; GPUVerify's format rules on the
// values are the second pass (InstantiationValidation.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ConverterBase.h"
#include "DiagnosticText.h"
#include "clcapture/format/Instantiation.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>

namespace clcapture::format::reader {

class InstantiationConverter : public ConverterBase {
public:
  using ConverterBase::ConverterBase;

  /// One record of captures.json; nullopt after reporting why it cannot be converted.
  std::optional<Instantiation> instantiation(const Json &v);

private:
  void checkKeys(const Json &obj, const std::string &path, const std::set<std::string> &allowed,
                 const std::string &where);
  const Json *member(const Json &obj, const std::string &path, const char *key, bool required);
  std::optional<std::string> string(const Json &v, const std::string &path);
  std::optional<std::uint64_t> integer(const Json &v, const std::string &path, std::uint64_t min);
  std::optional<Dims> dims(const Json &v, const std::string &path, std::uint64_t min);
  std::optional<KernelArgument> argument(const Json &v, const std::string &path);
  std::optional<HostApiCall> hostApiCall(const Json &v, const std::string &path);
};

} // namespace clcapture::format::reader
