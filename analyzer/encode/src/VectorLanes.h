//===- VectorLanes.h - Which lanes a vector load or store really touches -*- C++ -*-===//
//
// Clang compiles a component assignment to a vector in memory (`p->x = e`, `p->zy = e`) into a load of the
// whole vector, the new lanes put in, and a store of the whole vector; the source reads nothing and writes
// only those lanes (docs/semantics.md row 39). These read that back from the IR.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <llvm/IR/Instructions.h>

namespace clcapture::encode {

/// Which lanes of a vector a load or store really touches (Clang's code for vector components).
struct LaneRange {
  bool whole = true; ///< all of it (anything but the patterns of VectorLanes.cpp)
  bool none = false; ///< nothing: the load only feeds a lane store back to the same place
  unsigned first = 0, last = 0;
};

/// The lanes a vector store writes: only the lanes put in when it stores back a vector built from a load
/// of the same place; all of them otherwise.
LaneRange lanesWritten(const llvm::StoreInst &store);

/// The lanes a vector load reads: none when it only serves such a store (or is the unused load of an
/// assignment of every lane); all of them otherwise.
LaneRange lanesRead(const llvm::LoadInst &load);

} // namespace clcapture::encode
