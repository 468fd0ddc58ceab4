//===- LaunchSpecializer.h - The kernel, for this one launch ----*- C++ -*-===//
//
// GPUVerify verifies a kernel for every launch; clcapture verifies the launch that happened (docs/contract.md
// §5), so the captured facts are folded into the IR before the model reads it: scalar arguments become
// constants, and so do the NDRange queries the capture answers (get_global_size, get_local_size,
// get_num_groups, get_global_offset, get_work_dim). Constant propagation then makes loop trip counts
// concrete, and loops with a small constant trip count are unrolled exactly (issue "loops without
// hand-written invariants"): a tree reduction's `for (s = get_local_size(0) / 2; s > 0; s >>= 1)` becomes
// straight-line code with its barriers. Only passes that cannot invent a memory access run (no LICM, GVN,
// speculation or hoisting).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/model/LaunchConfig.h"

#include <cstdint>
#include <llvm/ADT/APInt.h>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Function;
}

namespace clcapture::model {

struct SpecializeOptions {
  unsigned maxUnrollTripCount = 256; ///< loops with a larger constant trip count are left as loops
  /// Loops whose unrolling would take the kernel past this many instructions are left as loops.
  std::uint64_t maxUnrolledInstructions = 40000;
  /// A loop holding a barrier whose unrolling would add more instructions than this stays a loop when
  /// the encoder's shared-iteration form takes it (ledger row 28a).
  std::uint64_t maxUnrolledBarrierLoopGrowth = 3000;
};

struct SpecializeReport {
  unsigned argumentsFolded = 0;
  unsigned queriesFolded = 0;
  unsigned loopsUnrolled = 0;
  /// Set when the launch's values leave an instruction without a defined result (UndefinedByValues.h): the
  /// specialised kernel then stands for none of its behaviours and must not be analysed.
  std::optional<std::string> undefined;
};

/// A captured scalar's bytes (device order) as the `bits`-bit value it stands for: a value written shorter
/// than its parameter ("0x1" for an int) is zero-extended; nullopt when it does not fit in `bits`. Vectors
/// are one value, lane 0 in the low bits (the byte order of a little-endian device).
std::optional<llvm::APInt> capturedScalarBits(const std::vector<std::uint8_t> &bytes, unsigned bits,
                                              format::Endianness order);

/// A kernel declared with reqd_work_group_size(X, Y, Z) runs only with that local size (OpenCL 1.2
/// §5.8.2: the enqueue fails otherwise): a capture without a local size gets it. True when it was set.
bool applyRequiredWorkGroupSize(const llvm::Function &kernel, LaunchConfig &launch);

/// Specialises `kernel` (already normalised, every helper inlined) to `launch`, in place.
SpecializeReport specializeToLaunch(llvm::Function &kernel, const LaunchConfig &launch,
                                    const SpecializeOptions &options = {});

} // namespace clcapture::model
