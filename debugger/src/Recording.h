//===- Recording.h - What an instrumented launch recorded, by work-item -*- C++ -*-===//
//
// docs/device-debugging.md: clcapture-instrument's layout (the sites and the values each records) and the
// trace buffer one instrumented run filled, decoded into each recorded work-item's statements in the order
// it ran them. A recording is self-contained (`--save-trace FILE`: the layout, the kernel's source, the
// NDRange, the device, the used words of the trace): it opens and steps where the device is not.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Expected.h"
#include "clcapture/trace/TraceLayout.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clcapture::debug {

/// One executed statement of one work-item.
struct Record {
  const trace::TraceSite *site = nullptr;
  std::uint32_t sequence = 0;
  std::size_t firstWord = 0; ///< where its values start in Recording::words()
  unsigned epoch = 0;        ///< barriers the work-item had passed before it
  unsigned depth = 0;        ///< call depth (the kernel: 0), from the functions the records go through
};

using Id3 = std::array<std::uint64_t, 3>;

/// The NDRange the recording ran.
struct RecordedRange {
  Id3 global{1, 1, 1};
  Id3 local{1, 1, 1};
  Id3 offset{0, 0, 0};
  unsigned dims = 1;
  /// The work-item with this linear id (x + y·Gx + z·Gx·Gy, without offset): its global id.
  Id3 globalId(std::uint64_t linear) const;
  Id3 localId(std::uint64_t linear) const;
  Id3 groupId(std::uint64_t linear) const;
  std::uint64_t linear(const Id3 &globalId) const;
};

/// Facts about the run, kept in a saved recording.
struct RecordingOrigin {
  std::string device;
  std::string capture;            ///< the capture it was made from
  std::size_t launch = 0;         ///< the instantiation
  std::uint32_t run = 1;          ///< which run of --repeat
  std::string kernelSource;       ///< the captured kernel file's text (what `list` shows)
  std::string kernelFileName;     ///< as shown
  std::string instrumentedSource; ///< what ran (so that a maintainer can run the same in the interpreter)
  bool outputsSame = true;        ///< the instrumented run wrote what the plain one wrote
  std::string outputsDifference;
  double seconds = 0;
};

class Recording {
public:
  /// Decodes `traceBytes` (the whole trace buffer, little-endian words) under `layout`. Fails on a record
  /// naming a site the layout lacks or running past the used words (a damaged trace).
  static format::Expected<Recording> decode(trace::TraceLayout layout,
                                            const std::vector<std::uint8_t> &traceBytes, RecordedRange range,
                                            RecordingOrigin origin);
  /// `--save-trace FILE` and its reader (JSON, "clcapture-recording/1", the trace's used words in base64).
  format::Status save(const std::filesystem::path &file) const;
  static format::Expected<Recording> load(const std::filesystem::path &file);

  const trace::TraceLayout &layout() const { return m_layout; }
  const RecordedRange &range() const { return m_range; }
  const RecordingOrigin &origin() const { return m_origin; }
  /// The recorded work-items (linear ids), in order.
  std::vector<std::uint64_t> items() const;
  /// A work-item's records in the order it ran them (empty: not recorded).
  const std::vector<Record> &records(std::uint64_t item) const;
  /// A record's value `slot`'s words.
  const std::uint32_t *valueWords(const Record &record, std::size_t slot) const;
  std::uint64_t wordsUsed() const { return m_wordsUsed; }
  std::uint64_t capacityWords() const { return m_capacityWords; }
  std::uint64_t recordsDropped() const { return m_recordsDropped; }
  std::size_t recordCount() const { return m_recordCount; }
  /// Work-items whose sequence numbers have gaps or whose last records did not fit (a short trace).
  const std::vector<std::uint64_t> &shortItems() const { return m_shortItems; }
  /// One line saying what was recorded: how many work-items, statements, and what did not fit.
  std::string summary() const;

private:
  /// Each work-item's records found in the trace, sorted, with their depth and barrier interval; false for a
  /// damaged trace (a record naming a site the layout lacks, or running past the used words).
  bool index();
  trace::TraceLayout m_layout;
  RecordedRange m_range;
  RecordingOrigin m_origin;
  std::vector<std::uint32_t> m_words; ///< the trace's used words after the header
  std::map<std::uint64_t, std::vector<Record>> m_byItem;
  std::uint64_t m_wordsUsed = 0, m_capacityWords = 0, m_recordsDropped = 0;
  std::size_t m_recordCount = 0;
  std::vector<std::uint64_t> m_shortItems;
};

} // namespace clcapture::debug
