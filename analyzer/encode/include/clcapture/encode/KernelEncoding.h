//===- KernelEncoding.h - GPUVerify's two-thread reduction, in CVC5 -*- C++ -*-===//
//
// The kernel (specialised to its launch, every helper inlined) is executed symbolically by two arbitrary
// distinct work-items A and B (GPUVerify's two-thread method, docs/semantics.md): every SSA value becomes one
// bit-vector term per work-item, every block a predicate per work-item (predicated execution: both sides of a
// branch are encoded, each access guarded by the condition that reaches it), and every access to global or
// local memory a record (predicate, object, byte offset, size, barrier interval). Values read from memory
// other work-items may write are fresh unknowns (the adversarial abstraction); read-only buffers use their
// captured bytes. Loops that specialisation could not unroll and that hold no barrier are covered for all
// iterations at once: each work-item's iteration is a free variable bounded by the trip count from
// ScalarEvolution, induction variables are functions of it, other loop-carried values are unknowns.
//
// Every term remembers whether it is exact (a function of ids, captured values, scalar arguments the capture
// does not give, an open local size and iteration variables only) or passed through an abstraction. An
// unsatisfiable query is a proof either way; a satisfiable one is a real witness only when exact and within
// the guards (no division by zero, no read outside captured bytes, … on the witness's path) — otherwise the
// caller reports `unknown`, naming the abstraction. A witness names the values it chose for the open
// arguments and the local size.
//
// Only this library includes CVC5; callers see plain results.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/encode/EncodeOptions.h"
#include "clcapture/encode/QueryOutcome.h"
#include "clcapture/encode/Sites.h"
#include "clcapture/format/Expected.h"
#include "clcapture/model/LaunchConfig.h"

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Function;
class Instruction;
} // namespace llvm

namespace clcapture::encode {

class KernelEncoding {
public:
  /// Encodes `kernel` for `launch`. Fails, with the construct named, when the kernel uses something the
  /// method does not cover (images, a loop with a barrier that could not be unrolled, …): verdict unknown.
  static format::Expected<std::unique_ptr<KernelEncoding>>
  encode(llvm::Function &kernel, const model::LaunchConfig &launch, const EncodeOptions &options);
  ~KernelEncoding();

  const std::vector<AccessSite> &accesses() const;
  const std::vector<BarrierSite> &barriers() const;

  /// Whether A at one of the sites `a` and B at one of the sites `b` can race in `scope`:
  ///   distinct(A, B) ∧ scope(A, B) ∧ ⋁_{i∈a, j∈b} [reach_A(i) ∧ reach_B(j) ∧ object_A(i) = object_B(j)
  ///   ∧ [off_A(i), off_A(i) + size(i)) ∩ [off_B(j), off_B(j) + size(j)) ≠ ∅
  ///   ∧ (same group ⇒ interval_A(i) = interval_B(j) for the fence of that memory)].
  /// The disjunction is encoded with one selector per work-item (which of its sites it executes), so one
  /// query of size |a| + |b| covers every pair: an unrolled loop repeats one source access at many sites,
  /// and the sites of one source place are asked together. All of `a` (and of `b`) must be one memory space.
  /// A witness through an exact pair is preferred to one through an abstraction.
  /// With `differentValues` it also asks value_A ≠ value_B (both writes): unsat means every writer stores
  /// the same value (a benign race, docs/contract.md §4).
  /// `budgetMs`: a time limit for the query itself (not for the witness's refinements); running out of it
  /// gives Unknown with budgetHit, and the caller may ask smaller queries instead.
  QueryOutcome checkRace(const std::vector<unsigned> &a, const std::vector<unsigned> &b, Scope scope,
                         bool differentValues = false, std::optional<long long> budgetMs = std::nullopt);

  /// True when every site of `a` and `b` is a non-collective global access in the first barrier interval
  /// (constant 0): then same-group and different-group pairs are constrained alike, and Scope::AnyPair
  /// asks both at once — without the work-group terms, which are costly when the local size is open.
  bool groupingIrrelevant(const std::vector<unsigned> &a, const std::vector<unsigned> &b) const;

  /// Whether two work-items of one group disagree on reaching work-group function call `barrier`, or
  /// reach it with different arguments:
  ///   distinct(A, B) ∧ group_A = group_B ∧ reach_A(β) ∧ (¬reach_B(β) ∨ args_A(β) ≠ args_B(β)).
  QueryOutcome checkDivergence(unsigned barrier);

  /// Whether work-item A at one of the sites `sites` (one source place) accesses memory outside what it may
  /// touch: a byte past either end of its object's region (a buffer argument's captured size, its
  /// sub-buffer's region, a local argument's size, a program-scope array's declared size), or through the
  /// null pointer:
  ///   ⋁_{i∈sites} reach_A(i) ∧ size(i) ≠ 0 ∧ (object_A(i) = null ∨ ⋀_{r∈regions(object_A(i))}
  ///   [off_A(i), off_A(i) + size(i)) ⊄ r).
  /// An object whose size the capture does not give is not checked (uncheckedObjects names them).
  QueryOutcome checkBounds(const std::vector<unsigned> &sites,
                           std::optional<long long> budgetMs = std::nullopt);

  /// The names of the memory arguments whose size the capture does not give: checkBounds does not check
  /// accesses to them.
  std::vector<std::string> uncheckedObjects() const;

  /// Whether `inst` got a term (a value or a pointer) for work-item A, and how many did: what the slice kept.
  bool built(const llvm::Instruction &inst) const;
  std::size_t valuesBuilt() const;

  /// Every query asked so far, as SMT-LIB 2 text (what --dump-smt2 writes).
  std::string smtLog() const;

  struct Impl;

private:
  explicit KernelEncoding(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> m_impl;
};

} // namespace clcapture::encode
