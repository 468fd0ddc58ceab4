//===- CapturePath.h - Paths inside a capture folder ------------*- C++ -*-===//
//
// captures.json names files relative to itself. A capture attached to a bug report is untrusted input, so a
// path must stay inside the folder: not absolute, no ".." component, and (when the file exists) not a link
// that resolves outside.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace clcapture::format {

/// Why `relative` may not be used as a capture-relative path, or nullopt if it is fine (lexical check only).
std::optional<std::string> lexicalPathProblem(std::string_view relative);

/// Lexical check, then: the file exists and, links resolved, lies inside `baseDir`.
std::optional<std::string> containedFileProblem(const std::filesystem::path &baseDir,
                                                std::string_view relative);

} // namespace clcapture::format
