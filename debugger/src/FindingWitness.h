//===- FindingWitness.h - A verify finding's witness, for the debugger to replay -*- C++ -*-===//
//
// `clcapture-debug CAPTURE --finding K` asks clcapture-verify (as a program: the analyzer's LLVM 16 never
// enters this process) for its JSON report of the launch and takes finding K (1-based, in the report's
// order): the two work-items, each access's kind, line, the memory, array, element and bytes they meet on.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Expected.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace clcapture::debug {

struct WitnessAccess {
  bool write = false;
  std::uint64_t globalId[3] = {0, 0, 0};
  std::string file; ///< as the report names it (kernels/<name>.cl)
  unsigned line = 0;
  std::string source;
};

struct FindingWitness {
  std::size_t number = 0; ///< K
  std::string kind;       ///< data-race, out-of-bounds, …
  std::string message;
  std::string memory; ///< global, local, constant, private
  std::string array;
  std::vector<std::uint64_t> index;
  std::uint64_t firstByte = 0, lastByte = 0; ///< within the array's memory object
  std::vector<WitnessAccess> accesses;
};

/// Runs clcapture-verify on instantiation `launch` of `capture` and reads finding `number`. Fails with one
/// line: clcapture-verify not found or failing, no such finding (how many there are), a finding without
/// accesses.
format::Expected<FindingWitness> findingWitness(const std::filesystem::path &capture, std::size_t launch,
                                                std::size_t number);

/// Parses one verify report (JSON) for finding `number` of its first result (the parser alone, for tests).
format::Expected<FindingWitness> parseFindingWitness(const std::string &reportJson, std::size_t number);

} // namespace clcapture::debug
