//===- ThreadEncoder.h - One work-item's symbolic execution of the kernel -*- C++ -*-===//
//
// Internal to encode/. Walks the kernel's blocks in reverse post-order (back edges left out), giving every
// block a reach predicate and every value a term for work-item `thread` (0 = A, 1 = B), and fills in the
// access and barrier records. Loops still present after specialisation are encoded once, for an arbitrary
// iteration (see KernelEncoding.h); a loop holding a barrier is refused.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "EncodingState.h"
#include "clcapture/format/Expected.h"

namespace clcapture::encode {

/// Encodes work-item `thread` into `state`. Fails naming the construct when the kernel is outside the
/// method's reach.
format::Status encodeThread(EncodingState &state, unsigned thread);

/// "file:line" of an instruction's debug location, or the function's name.
std::string placeOf(const llvm::Instruction *inst);

} // namespace clcapture::encode
