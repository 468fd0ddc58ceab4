//===- SessionText.h - How the debugger reads its commands' arguments -*- C++ -*-===//
//
// Small parsers every command uses: spaces trimmed, a number (decimal, 0x hex, 0 octal), words, and gdb's
// `/NF` suffix of print and x (a count and a format letter).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ValueFormat.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clcapture::debug {

std::string trim(const std::string &s);
/// The whole of `text` as an unsigned number; nullopt for anything else.
std::optional<std::uint64_t> number(const std::string &text);
std::vector<std::string> words(const std::string &text);
/// "/8x expr" → count "8", format Hex, rest "expr"; false for an unknown format letter.
bool splitFormat(const std::string &arguments, NumberFormat &format, std::string &rest, std::string &count);

} // namespace clcapture::debug
