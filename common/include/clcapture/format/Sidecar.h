//===- Sidecar.h - captures.meta.json: what the GPUVerify format has no key for -*- C++ -*-===//
//
// GPUVerify's loader rejects unknown keys, so everything else the layer learns about a launch lives in the
// sidecar (docs/contract.md §3): one entry per launch, with the index of its instantiation in captures.json
// (none for a launch that could not be made an instantiation, e.g. a program built from IL). Memory objects,
// queues and programs are named by counters the layer assigns, never by pointer values, so files are
// deterministic.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Instantiation.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clcapture::format {

/// 2: the exact global offset, non-uniform local size and 0-byte array sizes that captures.json leaves
/// out (GpuVerifyForm.h). A reader of version 1 would ignore them and analyse another launch.
/// 3: entries that repeat an earlier launch's facts (`slot`, `like`: SidecarRepeats.h); captures.json
/// leaves out a repeat's host_api_calls, which the reader takes from the sidecar.
constexpr int kSidecarFormatVersion = 3;

struct DeviceFacts {
  std::string name;
  std::string vendor;
  std::string version;       ///< CL_DEVICE_VERSION
  std::string driverVersion; ///< CL_DRIVER_VERSION
  std::uint32_t addressBits = 0;
  Endianness endianness = Endianness::Little;
  /// CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT (an OpenCL 3.0 query): whether the device runs a launch whose
  /// local size does not divide its global size. Absent when the device does not answer it (OpenCL 2.x
  /// devices have the support; 1.x programs cannot use it). With false, a NULL local size gets uniform
  /// groups.
  std::optional<bool> nonUniformWorkGroups;
};

/// How an argument was passed, as the layer saw it (finer than GPUVerify's format four types).
enum class ArgumentKind { Scalar, Buffer, LocalMemory, Image, Sampler, NullBuffer, Svm, Pipe, Unknown };
const char *toString(ArgumentKind k);
std::optional<ArgumentKind> parseArgumentKind(const std::string &s);

/// Where a program's source came from. `Source`, `Linked` and `BinarySourceRecovered` (a binary whose source
/// the layer's program store knew: "binary (source recovered)") are verifiable.
enum class ProgramOrigin { Source, Il, Binary, BuiltIn, Linked, BinarySourceRecovered };
const char *toString(ProgramOrigin o);
std::optional<ProgramOrigin> parseProgramOrigin(const std::string &s);

struct SubBufferFacts {
  std::uint64_t parent = 0; ///< memory-object id of the parent buffer
  std::uint64_t origin = 0; ///< byte offset in the parent
};

struct SvmFacts {
  std::uint64_t allocation = 0; ///< id of the SVM allocation
  std::uint64_t offset = 0;     ///< byte offset of the pointer in it
};

/// An image argument's extents (clGetImageInfo at the launch): what bounds its pixel coordinates. A dimension
/// the image type does not have is 0.
struct ImageFacts {
  std::string type;            ///< image1d, image1d_buffer, image1d_array, image2d, image2d_array, image3d
  std::uint64_t width = 0;     ///< CL_IMAGE_WIDTH
  std::uint64_t height = 0;    ///< CL_IMAGE_HEIGHT (2D, 3D, 2D array)
  std::uint64_t depth = 0;     ///< CL_IMAGE_DEPTH (3D)
  std::uint64_t arraySize = 0; ///< CL_IMAGE_ARRAY_SIZE (1D and 2D arrays)
};

/// How a sampler treats coordinates outside the image (OpenCL 1.2 §6.12.14.1, Table 6.23).
enum class SamplerAddressing { None, ClampToEdge, Clamp, Repeat, MirroredRepeat };
const char *toString(SamplerAddressing a);
std::optional<SamplerAddressing> parseSamplerAddressing(const std::string &s);
enum class SamplerFilter { Nearest, Linear };
const char *toString(SamplerFilter f);
std::optional<SamplerFilter> parseSamplerFilter(const std::string &s);

/// A sampler argument's properties (clGetSamplerInfo at the launch).
struct SamplerFacts {
  bool normalizedCoords = false;
  SamplerAddressing addressing = SamplerAddressing::None;
  SamplerFilter filter = SamplerFilter::Nearest;
};

struct ArgumentFacts {
  std::uint32_t index = 0;
  ArgumentKind kind = ArgumentKind::Unknown;
  std::optional<std::string> name;             ///< CL_KERNEL_ARG_NAME
  std::optional<std::string> typeName;         ///< CL_KERNEL_ARG_TYPE_NAME
  std::optional<std::string> addressQualifier; ///< global|local|constant|private
  std::optional<std::uint64_t> memObject;      ///< id of the cl_mem (same id: same object)
  std::optional<std::uint64_t> memFlags;       ///< raw cl_mem_flags
  std::optional<SubBufferFacts> subBuffer;
  std::optional<SvmFacts> svm;
  std::optional<std::string> dataSkipped; ///< why captures.json has no `data` for this argument
  /// An array's size in bytes where captures.json has none although the launch had one: 0 bytes (an SVM
  /// pointer at the end of its allocation), which GPUVerify's loader rejects (GpuVerifyForm.h).
  std::optional<std::uint64_t> size{};
  /// CLCAPTURE_DATA_AFTER: the bytes of a buffer the launch may write, read once the launch completed (a
  /// blob path relative to the capture folder, like captures.json's `data`), for replay comparison.
  std::optional<std::string> dataAfter{};
  std::optional<std::string> dataAfterSkipped{}; ///< why a buffer the launch may write has no dataAfter
  std::optional<ImageFacts> image{};             ///< an image argument's extents
  std::optional<SamplerFacts> sampler{};         ///< a sampler argument's properties
};

/// One of the application's OpenCL calls behind a launch (docs/contract.md §3 host_api_calls), with
/// everything the layer learnt about its site. captures.json's host_api_calls lists only the calls that have
/// a file and line (GPUVerify's format requires both); this list has every call, also those from code without
/// debug info.
struct HostCallFacts {
  std::string functionName; ///< the OpenCL entry point called, e.g. clSetKernelArg
  /// clSetKernelArg: the argument index it set; clCreateBuffer, clCreateSubBuffer: the argument whose memory
  /// object it created.
  std::optional<std::uint32_t> argument;
  std::string module;                         ///< the calling ELF file
  std::uint64_t moduleOffset = 0;             ///< the return address's offset in that module
  std::optional<std::string> caller;          ///< the calling function, from the symbol table
  std::optional<std::string> compilationUnit; ///< from DWARF, as in captures.json
  std::optional<std::uint64_t> lineNumber;
};

struct LaunchFacts {
  std::uint64_t launch = 0;                   ///< 0-based count of the process's launches (captured or not)
  std::optional<std::uint64_t> instantiation; ///< index in captures.json; absent: not verifiable
  std::optional<std::string> notCapturedReason;
  std::string enqueueFunction; ///< clEnqueueNDRangeKernel or clEnqueueTask
  std::string kernelName;
  std::uint64_t thread = 0;  ///< host thread id (counter, first thread that launched is 0)
  std::uint64_t queue = 0;   ///< command-queue id
  std::uint64_t program = 0; ///< program id
  ProgramOrigin programOrigin = ProgramOrigin::Source;
  std::string buildOptions; ///< the application's own options, before clcapture added any
  DeviceFacts device;
  std::vector<ArgumentFacts> arguments;
  /// Groups of argument indices that refer to overlapping memory (same object, or sub-buffers that overlap).
  std::vector<std::vector<std::uint32_t>> aliases;
  /// The application's calls that led to this launch, oldest first; empty when call sites are unknown.
  std::vector<HostCallFacts> hostCalls;
  /// The launch's global offset, exactly; absent: NULL (zero). captures.json has `global_offset` only when
  /// every component is > 0 (GpuVerifyForm.h); the reader puts this one back.
  std::optional<Dims> globalOffset{};
  /// The launch's local size when captures.json cannot carry it: it does not divide the global size
  /// (OpenCL 2.0 non-uniform work-groups), which GPUVerify's loader rejects. The reader puts it back.
  std::optional<Dims> localSize{};
};

struct ProcessFacts {
  std::string executable;
  std::uint64_t pid = 0;
  std::string startedAt;                  ///< ISO 8601, UTC
  std::vector<std::string> commandLine{}; ///< the application's argv (/proc/self/cmdline); empty: unknown
  std::optional<std::string> loader{};   ///< the ICD loader library in the process (path), when one was found
  std::optional<std::string> frontEnd{}; ///< how the library was loaded: "shim ICD" or "layer"
  std::optional<std::uint64_t>
      parentPid{}; ///< the process that started it (getppid() when it began capturing)
};

struct SidecarHeader {
  int formatVersion = kSidecarFormatVersion;
  std::string clcaptureVersion;
  ProcessFacts process;
};

struct Sidecar {
  SidecarHeader header;
  std::vector<LaunchFacts> launches;
};

bool operator==(const DeviceFacts &a, const DeviceFacts &b);
bool operator==(const ArgumentFacts &a, const ArgumentFacts &b);
bool operator==(const HostCallFacts &a, const HostCallFacts &b);
bool operator==(const LaunchFacts &a, const LaunchFacts &b);
bool operator==(const SidecarHeader &a, const SidecarHeader &b);

} // namespace clcapture::format
