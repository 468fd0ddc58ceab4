//===- DependenceSlice.h - What the queries can depend on, before encoding -*- C++ -*-===//
//
// The instructions whose values can reach an address, a branch condition, a work-group function's
// arguments, a guard (WitnessGuard) or an access's size (docs/semantics.md, "The dependence slice"). The
// encoder builds terms for those only; an instruction outside the slice computes a value nothing the
// queries read depends on, so leaving it out removes no execution the queries distinguish.
//
// Kept whole (always encoded): every memory access, call other than a pure built-in, pointer value,
// integer division (its guard), pointer comparison (its guard) and terminator. Their operands are in the
// slice, but for what a plain write stores (a store's value, vstore's data, write_image's pixel): that is
// needed only by the same-value (benign) test, so it is in the slice only for the writes that test asked
// about (KernelEncoding::storedValuesWanted: the caller encodes again with them).
// Then, backwards: an instruction in the slice brings its operands; a load in the slice from memory that
// may be private brings what the stores to that variable write (privateValueAt reads them back). Loads
// from global, local and constant memory read captured tables or unknowns, never this work-item's stores.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <set>
#include <unordered_set>

namespace llvm {
class Function;
class Instruction;
class Value;
} // namespace llvm

namespace clcapture::encode {

class DependenceSlice {
public:
  /// No slice: every instruction is encoded.
  DependenceSlice() = default;
  /// The slice of `kernel` (after specialisation); with `storedValues`, also what plain writes store, else
  /// what the writes `storedValuesOf` store.
  static DependenceSlice of(const llvm::Function &kernel, bool storedValues,
                            const std::set<const llvm::Instruction *> &storedValuesOf);

  /// Whether the encoder builds `inst`'s value (or, for an access, its value as well as its record).
  bool encodes(const llvm::Instruction &inst) const;
  /// Whether `v`, an operand somewhere, has a term: not an instruction, or one the slice encodes.
  bool available(const llvm::Value *v) const;
  /// Instructions left out (for tests and the log).
  std::size_t leftOut() const { return m_leftOut; }

private:
  bool m_whole = true;
  std::unordered_set<const llvm::Value *> m_needed; ///< values whose terms are built
  std::size_t m_leftOut = 0;
};

/// Whether the encoder visits `inst` whatever the slice (an access, a call with an effect, a pointer, a
/// guard's instruction, a terminator): its record or guard does not depend on any use of its value.
bool alwaysEncoded(const llvm::Instruction &inst);

} // namespace clcapture::encode
