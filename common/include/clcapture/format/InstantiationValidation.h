//===- InstantiationValidation.h - GPUVerify's format rules on one instantiation -*- C++ -*-===//
//
// Validation of the typed model, shared by the reader (after conversion) and the writers (before they
// write), so nothing clcapture writes can fail to load.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Diagnostic.h"
#include "clcapture/format/Instantiation.h"
#include "clcapture/format/ReadOptions.h"

#include <cstddef>
#include <filesystem>
#include <string_view>

namespace clcapture::format {

/// Whether the instantiation's program may run with non-uniform work-groups (OpenCL 2.0 §5.8.3): built
/// with -cl-std=CL2.0 or later and without -cl-uniform-work-group-size. Such a launch may have a global
/// size that is not a multiple of its local size; its last group in that dimension is smaller.
bool allowsNonUniformWorkGroups(const Instantiation &inst);

/// Checks one instantiation against GPUVerify's format rules and docs/contract.md §3 (sizes, dimensions,
/// paths, values). Used by the reader after conversion and by the writer before it writes.
void validateInstantiation(const Instantiation &inst, std::size_t index, std::string_view displayName,
                           const ReadOptions &options, const std::filesystem::path *baseDir,
                           DiagnosticList &out);

} // namespace clcapture::format
