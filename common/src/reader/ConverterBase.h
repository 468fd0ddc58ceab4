//===- ConverterBase.h - What the JSON-to-model converters share -*- C++ -*-===//
//
// Internal to clcapture_format's readers: InstantiationConverter (captures.json) and SidecarConverter
// (captures.meta.json) both report through a Reporter, and any error marks the conversion as failed.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Reporter.h"

#include <string>

namespace clcapture::format::reader {

/// What both converters share: errors go to the reporter and mark the conversion as failed.
class ConverterBase {
public:
  explicit ConverterBase(Reporter &r) : m_r(r) {}
  bool ok() const { return m_ok; }

protected:
  void fail(const std::string &path, std::string message) {
    m_r.error(path, std::move(message));
    m_ok = false;
  }
  Reporter &m_r;
  bool m_ok = true;
};

} // namespace clcapture::format::reader
