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
// needed only by the same-value (benign) test, so it is in the slice with EncodeOptions::storedValues (on
// in clcapture-verify).
// Then, backwards: an instruction in the slice brings its operands; a load in the slice from memory that
// may be private brings what the stores to that variable write (privateValueAt reads them back). Loads
// from global, local and constant memory read captured tables or unknowns, never this work-item's stores.
//
//===----------------------------------------------------------------------===//
#pragma once

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
  /// The slice of `kernel` (after specialisation); with `storedValues`, also what plain writes store.
  static DependenceSlice of(const llvm::Function &kernel, bool storedValues);

  /// Whether the encoder visits `inst`: one it keeps whole (an access, a call with an effect, a pointer, a
  /// guard's instruction, a terminator: its record or guard depends on no use of its value), or one whose
  /// value the slice needs.
  bool visits(const llvm::Instruction &inst) const;
  /// Whether the encoder builds `inst`'s value (for a load: its value as well as its record).
  bool encodes(const llvm::Instruction &inst) const;
  /// Whether `v`, an operand somewhere, has a term: not an instruction, or one whose value is built.
  bool available(const llvm::Value *v) const;

private:
  bool m_whole = true;
  std::unordered_set<const llvm::Value *> m_needed;  ///< values whose terms are built
  std::unordered_set<const llvm::Value *> m_visited; ///< m_needed and the instructions kept whole
};

} // namespace clcapture::encode
