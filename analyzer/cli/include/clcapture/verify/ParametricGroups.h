//===- ParametricGroups.h - Launches that differ only in values, proven together -*- C++ -*-===//
//
// docs/contract.md §4: a program launches one kernel thousands of times with new scalar values (an offset) or
// new buffer contents, and each distinct instantiation used to be analysed alone. Distinct instantiations
// that agree on everything but scalar values and buffer bytes (same kernel source, flags, entry point,
// sizes and offset, argument kinds, spaces, sizes and flags, and the sidecar's semantic facts: the key of
// InstantiationKey.h with values, data and global buffer sizes left out) form a group. The group is analysed
// once with the values that differ within it left open (a scalar without `value`, an array without `data`
// and, where the sizes differ, without `size`: exact symbolic values, as for a capture that lacks them) and
// those that agree kept. An opened scalar is bounded by the values its launches passed: one of them when they
// are few, else between the least and the greatest (docs/semantics.md row 35), so that a stride of 1, 2 or 7
// is not proven for 0 as well. The analysis is sound for every value the bounds allow, each launch's among
// them, so if it proves the group (`verified`, no finding at all), every launch in it is `verified`
// ("verified for every value of `offset` (its 3 captured values)"); otherwise each launch is analysed alone,
// as before, and its own verdict and witness are reported. So a launch's result is the one its own analysis
// gives, or `verified` through the group's proof.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/CaptureReader.h"
#include "clcapture/verify/InstantiationKey.h"

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace clcapture::verify {

/// Groups of fewer distinct instantiations than this are analysed one by one.
constexpr std::size_t kMinParametricGroup = 2;

struct ParametricGroup {
  std::vector<std::size_t> slots; ///< the distinct instantiations (slots of `positions`), ascending
  format::Instantiation opened;   ///< the first one with the differing values left out
  const format::LaunchFacts *facts = nullptr; ///< its launch facts in the capture (none without sidecar)
  std::vector<std::string> openedNames;       ///< "offset", "the bytes of `out`": what the proof covers
  /// Each opened scalar's distinct captured values (as captures.json writes them): the proof covers the
  /// values these bound, not every value (pipeline::AnalysisRequest::openValues). A scalar that some launch
  /// passed without a value is open to every value and absent here.
  std::map<std::size_t, std::vector<std::string>> openValues;
};

/// The groups among `distinctSlots` (slots into `positions`, positions into capture.captures).
std::vector<ParametricGroup> parametricGroups(const format::Capture &capture,
                                              const std::vector<std::size_t> &positions,
                                              const std::vector<std::size_t> &distinctSlots,
                                              const std::filesystem::path &captureDir, FileHashCache &hashes);

/// "`offset` and the bytes of `out`" (for the report).
std::string describeOpened(const std::vector<std::string> &openedNames);

} // namespace clcapture::verify
