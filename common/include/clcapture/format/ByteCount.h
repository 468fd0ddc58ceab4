//===- ByteCount.h - Byte counts as users write them -*- C++ -*-===//
//
// One spelling of a size for every tool: CLCAPTURE_MAX_BYTES, CLCAPTURE_DATA, CLCAPTURE_MIN_FREE (the
// layer) and `clcapture pack --data` read a whole decimal number with an optional K, M or G suffix (powers
// of 1024, either case): 4096, 64K, 1M, 4G.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace clcapture::format {

/// The count, or nothing for an empty text, a sign, a fraction, an unknown suffix or a value past 2^64.
std::optional<std::uint64_t> parseByteCount(const std::string &text);

} // namespace clcapture::format
