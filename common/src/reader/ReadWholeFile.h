//===- ReadWholeFile.h - A capture file's text, or why it cannot be read -*- C++ -*-===//
//
// Internal to clcapture_format's readers (captures.json and the sidecar).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace clcapture::format::reader {

/// The file's bytes; nullopt with `error` set ("file does not exist", "cannot read the file") otherwise.
std::optional<std::string> readWholeFile(const std::filesystem::path &path, std::string &error);

} // namespace clcapture::format::reader
