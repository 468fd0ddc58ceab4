//===- ParametricGroups.h - Launches that differ only in values, proven together -*- C++ -*-===//
//
// docs/contract.md §4: a program launches one kernel thousands of times with new scalar values (an offset) or
// new buffer contents, and each distinct instantiation used to be analysed alone. Distinct instantiations
// that agree on everything but scalar values and buffer bytes (same kernel source, flags, entry point,
// sizes and offset, argument kinds, spaces, sizes and flags, and the sidecar's semantic facts: the key of
// InstantiationKey.h with values and data left out) form a group. The group is analysed once with the values
// that differ within it left open (a scalar without `value`, an array without `data`: exact symbolic values,
// as for a capture that lacks them) and those that agree kept. The analysis is sound for every value of the
// open ones, so if it proves the group (`verified`, no finding at all), every launch in it is `verified`
// ("verified for every value of `offset`"); otherwise each launch is analysed alone, as before, and its own
// verdict and witness are reported. So a launch's result is the one its own analysis gives, or `verified`
// through the group's proof.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/CaptureReader.h"
#include "clcapture/verify/InstantiationKey.h"

#include <cstddef>
#include <filesystem>
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
};

/// The groups among `distinctSlots` (slots into `positions`, positions into capture.captures).
std::vector<ParametricGroup> parametricGroups(const format::Capture &capture,
                                              const std::vector<std::size_t> &positions,
                                              const std::vector<std::size_t> &distinctSlots,
                                              const std::filesystem::path &captureDir, FileHashCache &hashes);

/// "`offset` and the bytes of `out`" (for the report).
std::string describeOpened(const std::vector<std::string> &openedNames);

} // namespace clcapture::verify
