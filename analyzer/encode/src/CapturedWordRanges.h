//===- CapturedWordRanges.h - The range of a large read-only buffer's captured words -*- C++ -*-===//
//
// Internal to encode/: docs/semantics.md row 13d. A read-only buffer whose captured bytes are too many to
// read exactly (row 13b: open bytes) still holds only its captured words: setUpReadOnlyTables records, for
// each captured region, the least and the greatest word of each width (1, 2, 4, 8 bytes) at the offsets
// origin + k·width; loadValue states that a read of that width at such an offset lies between them, and
// reads a word at a constant offset exactly
// (an integer, or a floating-point value's bits).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace clcapture::encode::detail {

/// The `size`-byte word at `bytes` (size at most 8), composed in the device's byte order.
inline std::uint64_t composeWord(const unsigned char *bytes, unsigned size, bool little) {
  std::uint64_t word = 0;
  for (unsigned i = 0; i < size; ++i)
    word |= static_cast<std::uint64_t>(bytes[little ? i : size - 1 - i]) << (8 * i);
  return word;
}

/// The least and the greatest captured word of one width, unsigned and signed (as the width's integer).
struct WordRange {
  std::uint64_t umin = 0, umax = 0;
  std::int64_t smin = 0, smax = 0;
};

/// One captured region of a buffer: its bytes lie at [origin, origin + size) of the memory object.
struct CapturedWords {
  std::uint64_t origin = 0, size = 0;
  /// By width 1, 2, 4, 8 bytes (index 0–3): the range of the words at origin + k·width that lie wholly
  /// inside the region; nullopt when the region is shorter than the width.
  std::array<std::optional<WordRange>, 4> byWidth;
  /// The region's bytes, kept while the process keeps at most kMaxKeptBytes of them (null past that): a
  /// read at a constant offset reads its word exactly (row 13d).
  std::shared_ptr<const std::string> bytes;
  const std::optional<WordRange> &of(unsigned width) const {
    static const std::optional<WordRange> none;
    return width == 1   ? byWidth[0]
           : width == 2 ? byWidth[1]
           : width == 4 ? byWidth[2]
           : width == 8 ? byWidth[3]
                        : none;
  }
};

/// Buffers up to this many captured bytes are scanned (64 MiB: one pass a width, once a process).
inline constexpr std::uint64_t kMaxScannedWordBytes = 64ull << 20;
/// The captured bytes a process keeps for reads at constant offsets, all regions together.
inline constexpr std::uint64_t kMaxKeptBytes = 64ull << 20;

/// The word ranges of the capture file `data` (the bytes of [origin, origin + its size)), words composed in
/// the device's byte order; null when the file cannot be read or is larger than kMaxScannedWordBytes.
/// Scanned once per file (path, size and time) and process (a launch's queries share it).
std::shared_ptr<const CapturedWords> capturedWordRanges(const std::filesystem::path &data,
                                                        std::uint64_t origin, bool littleEndian);

} // namespace clcapture::encode::detail
