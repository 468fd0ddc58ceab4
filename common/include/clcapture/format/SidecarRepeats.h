//===- SidecarRepeats.h - Sidecar entries that repeat an earlier launch -*- C++ -*-===//
//
// A launch-heavy program launches the same kernel from the same place thousands of times, and each launch's
// sidecar entry repeated the last one's facts (device, arguments, every host call with its module path):
// ~2.5 KB a launch. Since sidecar format 3 an entry may say what it shares with an earlier one:
//
//   {"launch": 7, "instantiation": 7, "slot": 0, …every key…}   a full entry, remembered as slot 0
//   {"launch": 8, "instantiation": 8, "like": 0}                 slot 0's facts with these keys replaced
//   {"launch": 9, "instantiation": 9, "like": 0, "arguments": ["same", {…}]}
//
// A repeat entry holds `launch`, `instantiation`, `like` and only the keys whose value differs; in
// `arguments`, "same" stands for the slot's argument at that position. It becomes the slot's facts in turn
// (so the next repeat is compared with the latest launch). A key the slot has and the launch lacks cannot be
// said this way: such a launch gets a full entry. Slots are few (kRepeatSlots, reused least recently used
// first) and per kernel, queue and thread, so reader and writer both hold a bounded table, and the file
// stays an append-only stream that a SIGKILL cuts between entries.
//
// Readers: SidecarReader expands repeats entry by entry as it parses them (RepeatExpander); so does
// tools/sidecar_expand.py for scripts, and the launcher's streaming summary keeps its own slot table.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Sidecar.h"

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace clcapture::format {

/// How many slots a writer uses; a reader refuses slot numbers from kMaxRepeatSlot on.
constexpr std::size_t kRepeatSlots = 256;
constexpr std::uint64_t kMaxRepeatSlot = 65536;

/// Writer side: the entry to append for each launch, in launch order.
class SidecarRepeats {
public:
  explicit SidecarRepeats(std::size_t slots = kRepeatSlots) : m_capacity(slots == 0 ? 1 : slots) {}

  struct Entry {
    nlohmann::ordered_json json;
    bool repeat = false;        ///< a `like` entry
    bool sameHostCalls = false; ///< a repeat whose host calls are the slot's (captures.json may omit them)
  };
  Entry entryFor(const LaunchFacts &facts);

private:
  using Key =
      std::tuple<std::uint64_t, std::string, std::uint64_t, std::uint64_t>; // program, kernel, queue, thread
  struct Slot {
    Key key;
    LaunchFacts facts;
    std::uint64_t lastUse = 0;
  };
  std::size_t m_capacity;
  std::vector<Slot> m_slots;
  std::map<Key, std::size_t> m_byKey;
  std::uint64_t m_clock = 0;
};

struct RepeatProblem {
  std::string path; ///< e.g. launches[8].like
  std::string message;
};

/// Reader side, one entry at a time in file order (a streaming reader holds only the slots, never the whole
/// array): replaces a repeat entry by the full entry it stands for and drops the `slot` key. Entries that are
/// not objects are left for the reader to report.
class RepeatExpander {
public:
  /// Expands `entry`, the sidecar's launches[`position`]; problems are appended to `problems`. Returns the
  /// slot whose facts the entry now holds (a full entry's own slot or the slot it repeats), if any.
  std::optional<std::uint64_t> expand(nlohmann::json &entry, std::size_t position,
                                      std::vector<RepeatProblem> &problems);

  /// A repeat that changes nothing but the launch and instantiation numbers (the common case: a kernel
  /// launched in a loop): records them in its slot without copying the slot's facts, and returns the slot.
  /// Anything else (another key, a number that is not an unsigned integer, an unfilled slot) returns
  /// nullopt and changes nothing: expand() it instead.
  std::optional<std::uint64_t> renumber(const nlohmann::json &entry);

private:
  std::map<std::uint64_t, nlohmann::json> m_slots;
};

/// The whole `launches` array at once (RepeatExpander over each entry).
std::vector<RepeatProblem> expandRepeats(nlohmann::json &launches);

} // namespace clcapture::format
