//===- InstantiationKey.h - When two instantiations are the same launch for the analysis -*- C++ -*-===//
//
// A program that launches one kernel in a loop records many identical instantiations (SPEC §3); each is
// analysed once and its result copied. The key holds exactly what an analysis may read: the kernel source
// (its bytes, not its file name), language, endianness, compiler flags, entry point, sizes (a missing
// global_offset equals zeros), argument values, array sizes/spaces/flags and the bytes of their data files
// (by XXH3-128), and, from the sidecar, the facts that change the semantics (program origin, build
// options, enqueue function, device address bits and byte order, per argument kind/type/qualifier/flags/
// sub-buffer origin/SVM offset/why data was skipped, aliasing groups). It leaves out what only
// identifies a launch: launch number, thread, queue, program and memory-object ids, host call sites.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Instantiation.h"
#include "clcapture/format/Sidecar.h"

#include <filesystem>
#include <map>
#include <mutex>
#include <string>

namespace clcapture::verify {

/// Content hashes of capture files, each file read once however many instantiations name it.
class FileHashCache {
public:
  /// XXH3-128 of the file's bytes, or "unreadable:<path>" (distinct per path) when it cannot be read.
  std::string hashOf(const std::filesystem::path &file);

private:
  std::mutex m_mutex;
  std::map<std::string, std::string> m_hashes;
};

/// Equal keys ⇔ the analysis would see the same input (see the file comment).
std::string analysisKey(const format::Instantiation &inst, const format::LaunchFacts *facts,
                        const std::filesystem::path &captureDir, FileHashCache &hashes);

} // namespace clcapture::verify
