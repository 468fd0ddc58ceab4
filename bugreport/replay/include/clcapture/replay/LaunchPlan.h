//===- LaunchPlan.h - What a captured launch needs on a device --*- C++ -*-===//
//
// A launch plan is everything clcapture-replay will create for one instantiation, decided from the capture
// alone (no device yet): the memory objects (one per distinct cl_mem, sub-buffers of one parent rebuilt
// as sub-buffers of one parent buffer), their starting bytes, each argument's role, the NDRange. A launch
// that needs what the capture lacks gets no plan but the reason, never a guess.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Expected.h"
#include "clcapture/format/Instantiation.h"
#include "clcapture/format/Sidecar.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace clcapture::replay {

/// One cl_mem to create: a buffer (no parent) or a sub-buffer of an earlier entry.
struct MemorySpec {
  std::uint64_t size = 0;
  std::optional<std::size_t> parent; ///< index of the parent buffer in LaunchPlan::memory
  std::uint64_t origin = 0;          ///< byte offset in the parent (sub-buffers)
  std::uint64_t flags = 0;           ///< CL_MEM_READ_WRITE / READ_ONLY / WRITE_ONLY (host flags dropped)
  std::vector<std::uint8_t> initial; ///< a buffer's starting bytes (size of them); empty for sub-buffers
};

enum class ArgRole { Scalar, Local, Memory, Null };

struct ArgPlan {
  std::uint32_t index = 0;
  ArgRole role = ArgRole::Scalar;
  std::string value;                           ///< Scalar: the captured "0x…" value
  std::uint64_t size = 0;                      ///< Local: bytes; Memory: the argument's bytes
  std::size_t memory = 0;                      ///< Memory: index in LaunchPlan::memory
  std::string name;                            ///< from the sidecar, else "arg<N>"
  std::optional<std::string> typeName;         ///< the sidecar's CL_KERNEL_ARG_TYPE_NAME
  std::optional<std::string> addressQualifier; ///< global|constant|local (sidecar, else captures.json)
  std::optional<std::string> dataAfter;        ///< the capture's bytes after the launch (relative path)
  std::optional<std::string> dataAfterSkipped; ///< why the capture has none
};

struct LaunchPlan {
  std::size_t index = 0;               ///< the instantiation's index in captures.json
  std::optional<std::uint64_t> launch; ///< the sidecar's launch number
  std::string entryPoint;
  std::filesystem::path kernelFile; ///< absolute or relative to the working directory
  std::string buildOptions;         ///< captures.json's compiler_flags
  format::Dims globalSize;
  std::optional<format::Dims> localSize;
  std::optional<format::Dims> globalOffset;
  bool task = false; ///< clEnqueueTask
  format::Endianness endianness = format::Endianness::Little;
  std::vector<MemorySpec> memory;
  std::vector<ArgPlan> args;
  std::vector<std::string> notes; ///< what the replay assumed (a write-only buffer started zeroed, …)
};

/// Plans instantiation `index` of a loaded capture; `facts` is its sidecar entry (nullptr: none, so no
/// argument is known to alias another). `folder` is where captures.json's relative paths start.
/// Fails with the reason when the launch cannot be replayed from the capture.
format::Expected<LaunchPlan> planLaunch(const format::Instantiation &inst, const format::LaunchFacts *facts,
                                        std::size_t index, const std::filesystem::path &folder);

/// Why a sidecar launch without an instantiation (e.g. a program from IL) cannot be replayed.
std::string notReplayableReason(const format::LaunchFacts &facts);

/// Bytes of an OpenCL C scalar or vector type named as CL_KERNEL_ARG_TYPE_NAME names it ("int", "uint4",
/// "unsigned int", "size_t"; a 3-lane vector takes 4 lanes); nullopt for structs and unknown names.
std::optional<std::uint64_t> scalarTypeBytes(std::string_view typeName, std::uint32_t addressBits);

/// A scalar argument's bytes: `value` decoded in the capture's byte order into the type's size when the type
/// is known, else into as many bytes as the value's digits say (the layer writes 2×size digits).
format::Expected<std::vector<std::uint8_t>> scalarBytes(const std::string &value,
                                                        const std::optional<std::string> &typeName,
                                                        std::uint32_t addressBits, format::Endianness order);

/// Whether the kernel may write argument memory: a global pointer to non-const data. The driver's answers
/// (CL_KERNEL_ARG_ADDRESS_QUALIFIER, CL_KERNEL_ARG_TYPE_QUALIFIER) win over the capture's.
struct ArgQualifiers {
  std::optional<std::string> addressQualifier; ///< global|local|constant|private
  std::optional<bool> isConst;                 ///< CL_KERNEL_ARG_TYPE_CONST
  std::optional<std::string> typeName;
  std::optional<std::string> name;
};
bool mayWrite(const ArgPlan &arg, const ArgQualifiers &driver);

} // namespace clcapture::replay
