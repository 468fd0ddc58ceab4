//===- ArgumentCapture.h - A launch's arguments, as captures.json and the sidecar say them -*- C++ -*-===//
//
// From the kernel's current argument values (clSetKernelArg, clSetKernelArgSVMPointer) and the mirrored
// memory objects: scalars as hex values in the device's byte order, buffers and SVM pointers with size,
// flags and address space, __local sizes, images and samplers by kind (their extents and properties the
// engine asks the driver: DriverQueries.h), NULL buffers; the sidecar's facts for each (memory-object ids,
// sub-buffer origin, SVM allocation and offset, why bytes were left out); which arguments alias; and the
// reads that will take the bytes the data budget admits.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Instantiation.h"
#include "clcapture/format/Sidecar.h"
#include "engine/AliasGroups.h"
#include "engine/BufferSnapshots.h"
#include "engine/DataBudget.h"
#include "engine/HandleMirrors.h"

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace clcapture::layer {

struct CapturedArguments {
  std::vector<format::KernelArgument> arguments; ///< captures.json's kernel_arguments, without data yet
  std::vector<format::ArgumentFacts> facts;      ///< the sidecar's, one per argument
  std::vector<std::vector<std::uint32_t>> aliases;
  std::vector<ReadPlan> reads; ///< the bytes to take, admitted by the budget
  /// Arguments whose bytes an earlier read still stands for (nothing could have written them since).
  std::vector<std::pair<std::size_t, std::shared_ptr<SharedBlob>>> reused;
  /// The buffers and SVM ranges the kernel may write (global, not const, not CL_MEM_READ_ONLY): what
  /// CLCAPTURE_DATA_AFTER reads after the launch. Not yet admitted by the budget.
  std::vector<ReadPlan> written;
};

/// `kernel.params` must be known (askParams); `queue` and `thread` are the launch's queue and host thread
/// numbers. Each new read of a buffer becomes that buffer's latest read in `mirrors`. `noNewBytes` (the
/// launch shape's quota is spent, ShapeQuota.h): no buffer is read, each gets this reason, and bytes already
/// stored and unchanged are still recorded.
CapturedArguments captureArguments(const KernelInfo &kernel, HandleMirrors &mirrors, std::uint64_t queue,
                                   std::uint64_t thread, format::Endianness endianness, DataBudget &budget,
                                   const std::optional<std::string> &noNewBytes = std::nullopt);

} // namespace clcapture::layer
