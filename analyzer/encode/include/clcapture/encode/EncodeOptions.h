//===- EncodeOptions.h - What the caller tells the encoding ------*- C++ -*-===//
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>

namespace llvm {
class Instruction;
} // namespace llvm

namespace clcapture::encode {

struct EncodeOptions {
  /// When set, each query's time limit is what is left until then (so the last query cannot overrun it);
  /// unset: no limit.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  std::uint64_t maxCapturedTableBytes = 4096; ///< read-only buffers up to this size are read exactly
  /// Encode only what an address, a branch, a work-group function, a guard or a size depends on
  /// (DependenceSlice.h); false: every instruction (tests compare the two).
  bool dependenceSlice = true;
  /// The slice also holds what plain writes store: all of them, or those of `storedValuesOf` (the
  /// same-value test needs them; KernelEncoding::storedValuesWanted).
  bool storedValues = false;
  std::set<const llvm::Instruction *> storedValuesOf;
  /// When set and true, the analysis is over its memory budget (--max-memory): the encoding stops.
  std::function<bool()> overMemory;
};

} // namespace clcapture::encode
