//===- CapturedWordRanges.cpp - The range of a large read-only buffer's captured words ----===//
//
// capturedWordRanges: one pass over a capture file for each width, kept for the process.
//
//===----------------------------------------------------------------------===//

#include "CapturedWordRanges.h"

#include "clcapture/format/CaptureBlobs.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

namespace clcapture::encode::detail {

namespace {

WordRange rangeOf(const std::string &bytes, unsigned width, bool little) {
  WordRange r{~0ull, 0, INT64_MAX, INT64_MIN};
  unsigned bits = 8 * width;
  const auto *data = reinterpret_cast<const unsigned char *>(bytes.data());
  for (std::size_t at = 0; at + width <= bytes.size(); at += width) {
    std::uint64_t word = composeWord(data + at, width, little);
    std::int64_t sword = bits == 64 ? static_cast<std::int64_t>(word)
                                    : static_cast<std::int64_t>(word << (64 - bits)) >> (64 - bits);
    r.umin = std::min(r.umin, word);
    r.umax = std::max(r.umax, word);
    r.smin = std::min(r.smin, sword);
    r.smax = std::max(r.smax, sword);
  }
  return r;
}

} // namespace

std::shared_ptr<const CapturedWords> capturedWordRanges(const std::filesystem::path &data,
                                                        std::uint64_t origin, bool littleEndian) {
  // Keyed by the file's path, size and time as well: a loose file's name need not be its contents' hash (a
  // capture written by hand, a test that rewrites one), and a stale range would be a wrong fact.
  static std::mutex mutex;
  static std::map<std::tuple<std::string, std::uint64_t, bool, std::uint64_t, std::int64_t>,
                  std::shared_ptr<const CapturedWords>>
      scanned;
  static std::uint64_t kept = 0;
  std::error_code error;
  auto written = std::filesystem::last_write_time(data, error);
  std::int64_t stamp = error ? 0 : static_cast<std::int64_t>(written.time_since_epoch().count());
  std::optional<std::uint64_t> size = format::captureFileSize(data);
  auto key = std::make_tuple(data.string(), origin, littleEndian, size.value_or(0), stamp);
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = scanned.find(key); it != scanned.end())
      return it->second;
  }
  if (size && *size <= kMaxScannedWordBytes) {
    if (auto bytes = format::readCaptureFile(data)) {
      auto words = std::make_shared<CapturedWords>();
      words->origin = origin;
      words->size = bytes->size();
      for (unsigned w = 0; w < 4; ++w) {
        unsigned width = 1u << w;
        if (bytes->size() >= width)
          words->byWidth[w] = rangeOf(*bytes, width, littleEndian);
      }
      std::lock_guard<std::mutex> lock(mutex);
      if (kept + bytes->size() <= kMaxKeptBytes) {
        kept += bytes->size();
        words->bytes = std::make_shared<const std::string>(std::move(*bytes));
      }
      scanned.emplace(key, words);
      return words;
    }
  }
  std::lock_guard<std::mutex> lock(mutex);
  scanned.emplace(key, nullptr); // unreadable or too large: no ranges, and not asked again
  return nullptr;
}

} // namespace clcapture::encode::detail
