//===- JsonArrayFile.h - A JSON file that grows by appending array elements -*- C++ -*-===//
//
// The file is `head elements tail`, e.g. "[\n" … "\n]\n". Appending writes ",\n<element>\n<tail>" with one
// pwrite() at the end of the last element, so the file is valid JSON after every append, and a process killed
// during an append leaves a file that is only cut short. recoverTruncatedJson() turns such a file back into
// valid JSON holding every element completed before the cut.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Expected.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace clcapture::format {

class JsonArrayFile {
public:
  /// Creates (or truncates) `path` holding `head` + `tail`: an empty array.
  static Expected<std::unique_ptr<JsonArrayFile>> create(const std::filesystem::path &path, std::string head,
                                                         std::string tail);
  /// The same for a file that must not exist yet (O_EXCL): null, with `existed` set, when it does.
  static Expected<std::unique_ptr<JsonArrayFile>>
  createNew(const std::filesystem::path &path, std::string head, std::string tail, bool &existed);
  ~JsonArrayFile();
  JsonArrayFile(const JsonArrayFile &) = delete;
  JsonArrayFile &operator=(const JsonArrayFile &) = delete;

  /// Appends one element (already serialized and indented). Not thread-safe: the caller serialises.
  Status append(std::string_view element);
  std::uint64_t size() const { return m_count; }

private:
  JsonArrayFile(int fd, std::string tail, std::uint64_t end);
  static Expected<std::unique_ptr<JsonArrayFile>>
  createWith(const std::filesystem::path &path, std::string head, std::string tail, int flags, bool *existed);
  int m_fd;
  std::string m_tail;
  std::uint64_t m_endOfElements; ///< offset just past the last element (or the head)
  std::uint64_t m_count = 0;
};

struct RecoveredJson {
  std::string text;          ///< valid JSON: the prefix up to the last complete record, closed again
  std::size_t records = 0;   ///< complete records kept
  std::size_t cutOffset = 0; ///< where the original text was cut
};

/// For `text` cut short inside a JSON value: keeps every complete value that sits at nesting depth
/// `recordDepth` (1: elements of a top-level array; 2: elements of an array inside the top-level object) and
/// closes the open containers. nullopt when the text does not look like a cut-short JSON value.
std::optional<RecoveredJson> recoverTruncatedJson(std::string_view text, int recordDepth);

} // namespace clcapture::format
