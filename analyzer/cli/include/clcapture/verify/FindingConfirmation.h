//===- FindingConfirmation.h - --confirm: findings replayed under Oclgrind -*- C++ -*-===//
//
// docs/contract.md §4 --confirm: each instantiation with a finding is run again by clcapture-replay on
// Oclgrind's ICD with the captured data (OCLGRIND_DATA_RACES=1; Oclgrind always reports work-group
// divergence), and every finding is marked
//  - "confirmed": Oclgrind reported a race of that kind in that memory space on that array (the array's
//    name in the source line Oclgrind shows for an access, or an access on one of the finding's lines), or
//    work-group divergence for a barrier-divergence finding, or for a memory-safety finding its MemCheck's
//    invalid access (out-of-bounds, null: "Invalid read of size 4 at global memory address …", "Index (9)
//    exceeds static array size (8)"; access-mode: "Invalid write to read-only buffer") of that kind on the
//    finding's line or naming its array;
//  - "not observed with this input": the launch ran and Oclgrind did not see it (a static witness may need
//    other data than the captured one, or another schedule);
//  - "not replayable: REASON": the launch could not run (the capture lacks data, no Oclgrind, …).
// clcapture-replay is run as a program (bugreport/ must not link the analyzer, nor the analyzer OpenCL).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/report/AnalysisResult.h"

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clcapture::verify {

constexpr const char *kConfirmed = "confirmed";
constexpr const char *kNotObserved = "not observed with this input";
constexpr const char *kNotReplayable = "not replayable: ";

/// Oclgrind's default ICD on Debian/Ubuntu; CLCAPTURE_OCLGRIND_ICD names another.
constexpr const char *kDefaultOclgrindIcd = "/usr/lib/oclgrind/liboclgrind-rt-icd.so";

/// One race or divergence message of Oclgrind ("Read-write data race at local memory address 0x…",
/// "Work-group divergence detected (barrier)"), with the source lines it names ("At line 7 (column 18)").
struct OclgrindMessage {
  /// Invalid: MemCheck's invalid access (outside memory, NULL, past a static array); AccessMode: its
  /// "Invalid read from write-only buffer" / "Invalid write to read-only buffer".
  enum class Kind { Race, Divergence, Invalid, AccessMode } kind = Kind::Race;
  bool writeWrite = false; ///< races: "Write-write" rather than "Read-write"
  bool write = false;      ///< Invalid (when Oclgrind says), AccessMode: the access writes
  std::string memory;      ///< races, Invalid (when Oclgrind says): global | local | constant | private
  struct Site {
    std::uint64_t line = 0;
    std::string source; ///< the source text Oclgrind prints under the line, trimmed
  };
  std::vector<Site> sites;
};

/// Oclgrind's race, divergence and MemCheck messages in `text` (its stderr); other messages are ignored.
std::vector<OclgrindMessage> parseOclgrindMessages(std::string_view text);

/// Whether one of `seen` is the finding: see the file comment.
bool oclgrindSaw(const report::Finding &finding, const std::vector<OclgrindMessage> &seen);

/// clcapture-replay beside the running program, else from PATH; nullopt when neither has it.
std::optional<std::filesystem::path> findReplayProgram();

/// Sets the confirmation of every finding of `results` by replaying its instantiation (capturesPath:
/// the captures.json the results come from) with clcapture-replay (findReplayProgram()) on Oclgrind's ICD
/// (CLCAPTURE_OCLGRIND_ICD, else kDefaultOclgrindIcd), each replay limited to `timeoutSeconds` (0: none).
/// Results copied from an identical instantiation take its confirmations. A problem that stops every
/// replay (no clcapture-replay, no Oclgrind) becomes each finding's "not replayable" reason and one
/// warning on `err`.
void confirmFindings(std::vector<report::InstantiationResult> &results,
                     const std::filesystem::path &capturesPath, double timeoutSeconds, std::ostream &err);

} // namespace clcapture::verify
