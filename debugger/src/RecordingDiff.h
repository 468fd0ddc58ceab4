//===- RecordingDiff.h - Where two recordings of one launch first part -*- C++ -*-===//
//
// `clcapture-debug CAPTURE --diff` (docs/device-debugging.md): the interpreter's recording (the reference)
// against the device's, work-item by work-item, record by record. Two records differ when they are of other
// statements (the control flow parted) or a value's bits differ (floats: by more than the ULPs allowed;
// pointers are addresses of two different memories and never compared). The first divergence is the earliest
// by barrier interval, then by how far into that interval the work-item had gone, then by work-item: within
// one interval work-items run in any order, and a value that is wrong early is the likelier cause.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Recording.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clcapture::debug {

struct DiffOptions {
  std::uint64_t ulps = 0;           ///< floats within this many units in the last place are the same
  std::vector<std::string> ignored; ///< names never compared
};

struct Divergence {
  enum class Kind { Value, Path, Missing };
  Kind kind = Kind::Value;
  std::uint64_t item = 0;
  std::size_t index = 0; ///< the record, in the work-item's order
  const Record *reference = nullptr;
  const Record *other = nullptr; ///< nullptr: Missing
  std::size_t slot = 0;          ///< Value: which value
};

/// The first divergence of `other` from `reference`; nullopt when every recorded statement agrees.
std::optional<Divergence> firstDivergence(const Recording &reference, const Recording &other,
                                          const DiffOptions &options);

/// The report: the statement, the work-item, the variable, both values (and bits), the statements that led
/// to it in both recordings.
std::string describeDivergence(const Divergence &d, const Recording &reference, const Recording &other,
                               const std::string &referenceName, const std::string &otherName);

} // namespace clcapture::debug
