//===- DiagnosticText.h - How the reader's messages spell values and key paths -*- C++ -*-===//
//
// Internal to clcapture_format's readers (namespace reader): the text pieces every reader diagnostic is
// made of, so that the same value or key path reads the same in every message.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace clcapture::format::reader {

using Json = nlohmann::json;

constexpr std::uint64_t kMaxU64 = std::numeric_limits<std::uint64_t>::max();

/// "got …" text for a JSON value: strings quoted, numbers as written, containers by kind.
std::string describe(const Json &v);

std::string inQuotes(std::string_view s);

/// Key paths: `path.key` (just `key` at the top) and `path[i]`.
std::string join(const std::string &path, const std::string &key);
std::string at(const std::string &path, std::size_t i);

} // namespace clcapture::format::reader
