//===- Sites.h - The accesses and work-group function calls an encoding names -*- C++ -*-===//
#pragma once

#include <string>

namespace llvm {
class Instruction;
} // namespace llvm

namespace clcapture::encode {

/// The encoder's one memory-space enum, numbered as SPIR's address spaces (the IR's pointer address space
/// casts to it). An access site is Global (constant memory included) or Local; a pointer may be any.
/// (format::AddressSpace is the capture format's and the report's vocabulary: global, local, constant.)
enum class MemorySpace { Private = 0, Global = 1, Constant = 2, Local = 3, Generic = 4 };

/// One instruction that accesses global, local or constant memory (the same site for both work-items).
struct AccessSite {
  unsigned id = 0;
  const llvm::Instruction *inst = nullptr;
  MemorySpace space = MemorySpace::Global;
  bool reads = false, writes = false, atomic = false;
  /// An atomic of memory_scope_work_group on global memory: atomic only among work-items of one group;
  /// two groups' accesses race (OpenCL 2.0 §3.3.4).
  bool groupScopedAtomic = false;
  bool collective = false;       ///< made by the whole work-group together (async_work_group_copy)
  bool image = false;            ///< a pixel of an image: the offset packs its coordinates (PixelOffsets.h)
  unsigned imageCoordinates = 0; ///< image: how many coordinates the offset packs (0: the pixel is open)
  /// image: why whether its coordinates stay inside the image is not known (a sampler the encoder cannot
  /// follow, float coordinates a non-clamping sampler reads at); empty when they are checked or clamped.
  std::string imageBoundsOpen;
  unsigned sizeBytes = 0;
  unsigned elementSize = 1; ///< for reporting an element index
  std::string object;       ///< the memory's name when the site always accesses one object, else ""
};

/// A call of a work-group function: every work-item of a group must reach it, with the same arguments
/// (OpenCL 1.2 §6.12.8, §6.12.10; OpenCL 2.0 §6.13.15), or the behaviour is undefined (barrier divergence).
struct BarrierSite {
  unsigned id = 0;
  const llvm::Instruction *inst = nullptr;
  unsigned fences = 0; ///< barrier: model::kLocalMemFence | model::kGlobalMemFence
  std::string
      function; ///< "barrier", "async_work_group_copy", "wait_group_events", "work_group_reduce_add", …
};

} // namespace clcapture::encode
