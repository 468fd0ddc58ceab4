//===- LaunchView.h - One instantiation, argument by argument, for the exports -*- C++ -*-===//
//
// What an export needs to know about each argument comes from three places: captures.json (value, size,
// address space, flags, data), the sidecar (kind, name, CL_KERNEL_ARG_TYPE_NAME, memory object, sub-buffer,
// SVM) and the kernel's own declaration (types where the sidecar has none, const, stores). The view joins
// them once, with the capture winning where both speak.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/export/KernelSignature.h"
#include "clcapture/export/OpenClTypes.h"
#include "clcapture/format/Expected.h"
#include "clcapture/format/Instantiation.h"
#include "clcapture/format/Sidecar.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace clcapture::exporter {

/// What an argument is to the exports: by captures.json's type, local arrays apart.
enum class ArgumentRole { Scalar, Buffer, Local, Image, Sampler };

/// How a kernel uses a buffer (bugreport/README.md, export/): the PySchedCL list it goes in.
enum class BufferUse { Input, Output, InOut };

struct ArgumentView {
  std::size_t index = 0;
  ArgumentRole role = ArgumentRole::Scalar;
  const format::KernelArgument *argument = nullptr;
  const format::ArgumentFacts *facts = nullptr;  ///< nullptr: the sidecar says nothing
  const SignatureParameter *parameter = nullptr; ///< nullptr: the source scan found no parameter
  std::optional<std::string> name;               ///< sidecar's name, else the declaration's
  std::string declaredType;                      ///< scalar type or pointee type; empty when unknown
  std::optional<ClType> type;                    ///< declaredType when it is a built-in type
  std::optional<std::uint64_t> flags;            ///< cl_mem_flags: captures.json's names, else sidecar
  BufferUse use = BufferUse::InOut;              ///< buffers only
  std::string useReason;                         ///< why `use` (for the README's rule, in messages)

  const format::ScalarArgument *scalar() const;
  const format::ArrayArgument *array() const;
  /// "argument 2 (b)" or "argument 2".
  std::string label() const;
};

struct LaunchView {
  const format::Instantiation *instantiation = nullptr;
  const format::LaunchFacts *facts = nullptr;
  std::filesystem::path kernelPath; ///< the kernel source file
  std::string source;               ///< its bytes
  std::optional<KernelSignature> signature;
  std::uint32_t addressBits = 64;
  format::Endianness endianness = format::Endianness::Little; ///< the instantiation's, else the device's
  std::vector<ArgumentView> arguments; ///< empty when captures.json has no kernel_arguments
};

/// The view of `inst` (of the capture in `folder`); fails when the kernel source cannot be read.
format::Expected<LaunchView> viewLaunch(const std::filesystem::path &folder,
                                        const format::Instantiation &inst, const format::LaunchFacts *facts);

/// Reads a whole file (binary).
format::Expected<std::string> readFileBytes(const std::filesystem::path &path);

} // namespace clcapture::exporter
