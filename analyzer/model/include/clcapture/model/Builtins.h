//===- Builtins.h - OpenCL C built-in functions, as the model sees them -*- C++ -*-===//
//
// After normalisation every call left in a kernel is a built-in declaration (helpers are inlined). Built-ins
// are recognised by their demangled base name (OpenCL C overloads are Itanium-mangled: _Z13get_global_idj);
// what matters to the analysis is which are work-item queries, barriers, atomics, vector loads and stores,
// and which touch memory in ways the model does not cover (images, async copies) — those make the verdict
// `unknown` with the built-in named, never a silent guess.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string>

namespace llvm {
class CallBase;
class Function;
} // namespace llvm

namespace clcapture::model {

enum class BuiltinKind {
  GlobalId,
  LocalId,
  GroupId,
  GlobalSize,
  LocalSize,
  EnqueuedLocalSize,
  NumGroups,
  GlobalOffset,
  WorkDim,
  GlobalLinearId,
  LocalLinearId,
  Barrier,        ///< barrier / work_group_barrier: argument 0 holds the fence flags
  MemFence,       ///< mem_fence, read_mem_fence, write_mem_fence: ordering within one work-item only
  AtomicRmw,      ///< atomic_add, atom_xchg, atomic_cmpxchg, atomic_fetch_*…: read and write, atomically
  AtomicLoad,     ///< atomic_load[_explicit]
  AtomicStore,    ///< atomic_store[_explicit]
  VectorLoad,     ///< vloadN / vload_half[N] / vloada_half[N]: (offset, pointer)
  VectorStore,    ///< vstoreN / vstore_half[N] / vstorea_half[N]: (data, offset, pointer)
  Pure,           ///< math, integer, relational, conversion built-ins: no memory effect
  MathWithOutput, ///< sincos, fract, modf, frexp, remquo, lgamma_r: also write a result through the last
                  ///< argument
  NoEffect,       ///< printf, prefetch: nothing the analysis needs
  AsyncCopy,  ///< async_work_group_copy (dst, src, n, event) / async_work_group_strided_copy (…, stride,
              ///< event)
  WaitEvents, ///< wait_group_events: the group's async copies are complete
  ImageRead,  ///< read_image{f,i,ui,h} (image, [sampler,] coordinates)
  ImageWrite, ///< write_image{f,i,ui,h} (image, coordinates, value)
  ImageQuery, ///< get_image_width/height/depth/dim/channel_*: not in the capture
  WorkGroupCollective, ///< work_group_all/any/broadcast/reduce_*/scan_*: a value computed by the whole group
  Unsupported,         ///< pipes, enqueue_kernel, sub-group functions, unknown calls
};

struct Builtin {
  BuiltinKind kind = BuiltinKind::Unsupported;
  std::string name;           ///< the demangled base name (get_global_id, vload4, atomic_add…)
  unsigned vectorWidth = 0;   ///< VectorLoad/VectorStore: N (3 for vload3; 1 for vload_half)
  bool halfPrecision = false; ///< vload_half/vstore_half: 16-bit elements in memory
  unsigned elementBytes = 0;  ///< AsyncCopy: the size of one gentype element (from the mangled name)
  bool strided = false;       ///< AsyncCopy: async_work_group_strided_copy
  /// Unsupported because the program declares the function and defines it nowhere (not a built-in,
  /// whatever its name: frontend/DeclaredByProgram.h).
  bool declaredByProgram = false;
};

/// The demangled base name of an OpenCL C built-in ("_Z13get_global_idj" → "get_global_id"); the name
/// itself when it is not mangled.
std::string builtinBaseName(const std::string &mangled);

Builtin classifyBuiltin(const llvm::Function &callee);

/// Whether every work-item of a group must reach a call of this kind, with the same arguments (barriers,
/// async copies, wait_group_events, work-group collectives).
inline bool isWorkGroupFunction(BuiltinKind kind) {
  return kind == BuiltinKind::Barrier || kind == BuiltinKind::AsyncCopy || kind == BuiltinKind::WaitEvents ||
         kind == BuiltinKind::WorkGroupCollective;
}

/// CLK_LOCAL_MEM_FENCE and CLK_GLOBAL_MEM_FENCE (OpenCL 1.2 §6.12.8).
constexpr unsigned kLocalMemFence = 1;
constexpr unsigned kGlobalMemFence = 2;

} // namespace clcapture::model
