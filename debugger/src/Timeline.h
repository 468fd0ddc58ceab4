//===- Timeline.h - What re-runs a launch to an earlier moment --*- C++ -*-===//
//
// Oclgrind is deterministic: a launch re-run from its start with the same inputs takes the same path, as long
// as whatever the user changed happens again at the same moment. A moment is the monitor's clock (one tick
// per work-item begun and per instruction run, over the whole launch); the timeline keeps the user's changes
// with the tick they happened at: focus switches (they change Oclgrind's schedule) and memory written by `set
// var`. Going back (reverse-step, reverse-next, reverse-continue, a finished work-item of a finished group)
// re-runs the launch twice: once to the present, noting the moments that could be the target, then to the
// target, where it pauses. Changes after the target are dropped: the timeline forks there.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "DebugTypes.h"

#include <common.h>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace llvm {
class Function;
} // namespace llvm

namespace clcapture::debug {

struct TimelineAction {
  enum class Kind { Focus, Write };
  std::uint64_t clock = 0;
  Kind kind = Kind::Focus;
  oclgrind::Size3 id;                         ///< Focus: the work-item's global id
  AddressSpace space = AddressSpace::Private; ///< Write: the memory (the running work-item's, its group's)
  std::size_t address = 0;
  std::vector<std::uint8_t> bytes;
};

/// A moment a work-item entered a line (what reverse-step and reverse-next go back to).
struct LineEntry {
  std::uint64_t clock = 0;
  std::size_t depth = 0;
  unsigned line = 0;
  const llvm::Function *function = nullptr;
};

class Timeline {
public:
  const std::vector<TimelineAction> &actions() const { return m_actions; }
  void record(TimelineAction action) { m_actions.push_back(std::move(action)); }
  /// Forgets the changes made after `clock` (the timeline forks there).
  void truncateAfter(std::uint64_t clock);

private:
  std::vector<TimelineAction> m_actions; ///< in clock order
};

} // namespace clcapture::debug
