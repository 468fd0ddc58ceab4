//===- JsonEmitter.h - Deterministic, readable JSON layout ------*- C++ -*-===//
//
// nlohmann's dump() either puts everything on one line or every array element on its own line. Captures are
// read by people attaching them to bug reports, so containers that fit on one line (sizes, arguments) stay
// on one line and the rest are broken per member. The layout depends only on the value: byte-stable.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace clcapture::format {

/// Containers whose one-line form ends by this column (indentation and key included) stay on one line.
constexpr std::size_t kJsonInlineWidth = 100;

constexpr std::size_t kAtIndent = static_cast<std::size_t>(-1);

/// Emits `value`; continuation lines are indented by `indent` spaces (the first line is not: it starts at
/// `firstColumn`, by default right at the indentation).
std::string emitJson(const nlohmann::ordered_json &value, int indent = 0,
                     std::size_t firstColumn = kAtIndent);

} // namespace clcapture::format
