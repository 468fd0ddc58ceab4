//===- CacheFolder.cpp - A cache folder kept under a size bound, least recently used out first -===//

#include "clcapture/format/CacheFolder.h"

#include <algorithm>
#include <system_error>
#include <tuple>
#include <vector>

namespace clcapture::format {

namespace fs = std::filesystem;

namespace {

struct Entry {
  fs::file_time_type time;
  std::uint64_t size;
  fs::path path;
};

bool endsWith(const std::string &name, const std::string &suffix) {
  return name.size() >= suffix.size() &&
         name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// One file of the folder: an entry (added to `entries` unless kept), a stale temporary (removed) or neither.
void visit(const fs::directory_entry &file, const CachePruning &how, fs::file_time_type now,
           std::vector<Entry> &entries, std::uint64_t &total) {
  std::error_code ec;
  if (!file.is_regular_file(ec))
    return;
  auto time = file.last_write_time(ec);
  if (ec)
    return;
  auto size = file.file_size(ec);
  if (ec)
    return;
  std::string name = file.path().filename().string();
  if (how.staleTemporaries && name.find(".tmp-") != std::string::npos) {
    if (now - time > *how.staleTemporaries)
      fs::remove(file.path(), ec);
    return;
  }
  if (!endsWith(name, how.suffix))
    return;
  total += size;
  if (how.keep.empty() || name != how.keep)
    entries.push_back(Entry{time, size, file.path()});
}

} // namespace

PruneOutcome pruneCacheFolder(const fs::path &folder, const CachePruning &how) {
  std::vector<Entry> entries;
  std::uint64_t total = 0;
  const auto now = fs::file_time_type::clock::now();
  std::error_code ec;
  if (how.recursive) {
    for (fs::recursive_directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
      visit(*it, how, now, entries, total);
  } else {
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
      visit(*it, how, now, entries, total);
  }
  PruneOutcome outcome;
  outcome.bytesLeft = total;
  if (total <= how.maxBytes)
    return outcome;
  outcome.overBound = true;
  std::sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) {
    return std::tie(a.time, a.path) < std::tie(b.time, b.path);
  });
  for (const Entry &e : entries) {
    if (total <= how.targetBytes)
      break;
    std::error_code removeError;
    if (fs::remove(e.path, removeError)) {
      total -= std::min(total, e.size);
      ++outcome.removed;
    }
  }
  outcome.bytesLeft = total;
  return outcome;
}

} // namespace clcapture::format
