//===- EncodeOptions.h - What the caller tells the encoding ------*- C++ -*-===//
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>

namespace clcapture::encode {

struct EncodeOptions {
  /// When set, each query's time limit is what is left until then (so the last query cannot overrun it);
  /// unset: no limit.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  std::uint64_t maxCapturedTableBytes = 4096; ///< read-only buffers up to this size are read exactly
  /// Encode only what an address, a branch, a work-group function, a guard or a size depends on
  /// (DependenceSlice.h); false: every instruction (tests compare the two).
  bool dependenceSlice = true;
  /// The slice also holds what plain writes store, which the same-value (benign) test compares. Without it
  /// such a test answers `unknown`, never benign; tests turn it off to see the slice leave values out.
  /// Leaving them out and encoding again for a test that needed one re-asked every query of the launch and
  /// cost more than it saved (OpenMM's findBlocksWithInteractions 8.8 s → 15.2 s; docs/verify-benchmark.md).
  bool storedValues = true;
  /// What the bounds query needs (--checks=bounds): accesses to private memory are access sites too
  /// (MemorySpace::Private; they never race, docs/contract.md §5), and addresses keep whether an array-typed
  /// step indexed past its array (SymPointer::beyondArray).
  bool memorySafety = false;
  /// When set and true, the analysis is over its memory budget (--max-memory): the encoding stops.
  std::function<bool()> overMemory;
};

} // namespace clcapture::encode
