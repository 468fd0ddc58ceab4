//===- ProgramStore.h - Sources of the program binaries applications cache -*- C++ -*-===//
//
// Applications cache program binaries (hashcat, PyOpenCL, OpenCV): on a warm cache they call
// clCreateProgramWithBinary and clcapture sees no source. The store remembers, for each binary an
// application read back with clGetProgramInfo(CL_PROGRAM_BINARIES) from a program the layer knows the source
// of, that source (its #includes and input headers already inlined by SourceInliner) and the application's
// build options, keyed by the binary's XXH3-128. A later clCreateProgramWithBinary with the same bytes gets
// its source back.
//
// One file per binary, `<folder>/<xxh3-128 of the binary>.prog` (format in ProgramStore.cpp), written
// atomically (a temporary file in the same folder, then rename). The folder is bounded (default 256 MiB):
// after each write the oldest entries by modification time are removed until the total fits; a lookup
// that hits refreshes its entry's time. An entry that cannot be read or does not check out (format, key,
// binary size, checksum) is logged and ignored, never trusted. Nothing here throws, and no failure reaches
// the application.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace clcapture::layer {

/// What the store keeps for one binary.
struct StoredProgram {
  std::string source;  ///< the program's source, #includes and input headers inlined
  std::string options; ///< the application's options for the build that produced the binary
};

class ProgramStore {
public:
  static constexpr std::uint64_t kDefaultMaxBytes = 256ull << 20;

  explicit ProgramStore(std::string folder, std::uint64_t maxBytes = kDefaultMaxBytes);

  /// The key of a binary: 32 lower-case hex digits of XXH3-128 over its bytes.
  static std::string keyOf(const void *binary, std::size_t size);

  /// Stores `program` as the source of the binary with this key and size, then evicts the oldest entries
  /// while the folder is over its bound. False (logged) when it could not be written.
  bool put(const std::string &key, std::uint64_t binarySize, const StoredProgram &program) noexcept;

  /// The source stored for the binary with this key and size; nothing when there is none or the entry does
  /// not check out (logged).
  std::optional<StoredProgram> get(const std::string &key, std::uint64_t binarySize) const noexcept;

  const std::string &folder() const { return m_folder; }

private:
  void evict(const std::string &keep) const;

  std::string m_folder;
  std::uint64_t m_maxBytes;
};

} // namespace clcapture::layer
