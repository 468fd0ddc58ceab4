//===- BlobStore.h - Content-addressed files of a capture folder -*- C++ -*-===//
//
// docs/contract.md §3: buffer contents live in DIR/data/<hash>.bin and program sources in
// DIR/kernels/<entry>-<hash>.cl, named by an xxHash (XXH3) of their bytes so identical contents are stored
// once. Files appear atomically (written to a temporary name, then renamed), so a crash never leaves a
// half-written blob under its final name.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Expected.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace clcapture::format {

/// 32 lower-case hex digits of XXH3-128 over the bytes.
std::string contentHash128(const void *bytes, std::size_t size);
/// 16 lower-case hex digits of XXH3-64 over the bytes.
std::string contentHash64(const void *bytes, std::size_t size);

/// "data/<hash128>.bin"
std::string dataBlobName(const void *bytes, std::size_t size);
/// The two halves (high, low) of the XXH3-128 that 32 lower-case hex digits spell, as contentHash128 writes
/// them; false for anything else.
bool parseHash128(std::string_view hex, std::uint64_t &high, std::uint64_t &low);
/// "kernels/<entry>-<hash64><suffix>"; characters of `entry` outside [A-Za-z0-9_] become '_'.
std::string kernelFileName(std::string_view entry, std::string_view source, std::string_view suffix = ".cl");

/// Writes `bytes` to root/relativeName unless it already exists (identical contents share one file).
/// Returns true when the file was written, false when it was already there.
Expected<bool> writeBlobOnce(const std::filesystem::path &root, const std::string &relativeName,
                             const void *bytes, std::size_t size);

/// Writes a whole file atomically: root-relative temporary, fsync-free rename over `path`.
Status writeFileAtomically(const std::filesystem::path &path, const void *bytes, std::size_t size);

} // namespace clcapture::format
