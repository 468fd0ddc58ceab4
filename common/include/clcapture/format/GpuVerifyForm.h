//===- GpuVerifyForm.h - What captures.json may say so GPUVerify loads it -*- C++ -*-===//
//
// GPUVerify's own loader (GPUVerifyScript/json_loader.py) rejects the whole file for one value it does not
// take, even where GPUVerify's JSON kernel-instantiation format (docs/contract.md §3) lets a launch have it:
// an offset component of 0 (`[0, 2]`), a local size that does not divide the global size (OpenCL 2.0
// non-uniform work-groups), an array of 0 bytes, a number beyond Python 2's int, a scalar not starting with
// lower-case `0x`, a host call without a positive line, compiler flags ending in a lone `-D` or `-I`.
// docs/contract.md §3: captures.json is what that loader accepts, and the sidecar keeps the exact fact, which
// the reader puts back. tests/schema/gpuverify_loader_rules.py states the same rules in Python and checks
// every capture the test suite writes.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Instantiation.h"
#include "clcapture/format/Sidecar.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace clcapture::format {

/// The largest number GPUVerify's loader takes: it checks `type(n) is int`, and Python 2 reads larger
/// JSON numbers as `long`.
constexpr std::uint64_t kGpuVerifyMaxNumber =
    static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());

/// True when GPUVerify's loader takes `n` where it wants a number > 0.
inline bool isGpuVerifyPositive(std::uint64_t n) {
  return n >= 1 && n <= kGpuVerifyMaxNumber;
}

/// The instantiation as captures.json holds it. Each value GPUVerify's loader would reject is left out
/// (absent: unconstrained, or zero for the offset) or, for the prefix of a scalar and for flags, written in
/// the form it takes: `global_offset` unless every component is > 0; `local_size` when it does not divide
/// `global_size` in some dimension; an array's `size` of 0 (or beyond kGpuVerifyMaxNumber); host API calls
/// without a function, a compilation unit or a line > 0; a trailing lone `-D` or `-I` in the compiler flags
/// (the build option had no argument). Scalars become `0x` + upper-case hex digits. A value that is wrong
/// for any reader (a dimension count, a hex string that is not one) is kept, so that validation reports it.
/// Idempotent.
Instantiation gpuverifyForm(const Instantiation &exact);

/// Why no form of `exact` can be loaded by GPUVerify at all (a global size beyond kGpuVerifyMaxNumber:
/// `global_size` is required), or nullopt.
std::optional<std::string> gpuverifyFormProblem(const Instantiation &exact);

/// Puts into `facts` the exact values that gpuverifyForm(exact) leaves out: the global offset (always,
/// when the launch had one), a local size that does not divide the global size, and array sizes. Arguments
/// missing from facts.arguments are added as `unknown` so that arguments[i] stays argument i.
void keepExactFacts(const Instantiation &exact, LaunchFacts &facts);
/// The same, for a caller that has gpuverifyForm(exact) already.
void keepExactFacts(const Instantiation &exact, const Instantiation &form, LaunchFacts &facts);

/// A place where captures.json and the sidecar disagree, or a sidecar value that cannot be put back.
struct ExactFactProblem {
  std::string keyPath; ///< in the sidecar's launch entry, e.g. "global_offset" or "arguments[2].size"
  std::string message;
};

/// Puts the sidecar's exact values back into an instantiation read from captures.json (the reverse of
/// keepExactFacts). A value captures.json also has must be the same; otherwise the instantiation is left
/// unchanged there and the disagreement is returned.
std::vector<ExactFactProblem> restoreExactFacts(Instantiation &inst, const LaunchFacts &facts);

} // namespace clcapture::format
