//===- PointerRoots.h - Which memory objects a kernel's pointers reach -*- C++ -*-===//
//
// Internal to encode/: the objects a pointer may point into and the pointers a kernel writes through, from
// the IR alone, so that setUpReadOnlyTables knows which memory no write reaches.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace llvm {
class Function;
class Instruction;
class Value;
} // namespace llvm

namespace clcapture::encode::detail {

/// The objects a pointer may point into, found by walking back through address arithmetic; nullopt when it
/// leads somewhere the walk cannot follow (then any object may be meant).
std::optional<std::set<const llvm::Value *>> rootsOf(const llvm::Value *v, int depth = 0);

/// The pointer operand of every instruction that may write global memory (stores, atomics, vstore, memcpy
/// and memset destinations), with the instruction.
std::vector<std::pair<const llvm::Instruction *, const llvm::Value *>>
writtenPointers(llvm::Function &kernel);

} // namespace clcapture::encode::detail
