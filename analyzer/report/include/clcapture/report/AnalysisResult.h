//===- AnalysisResult.h - What clcapture-verify found for each instantiation -*- C++ -*-===//
//
// The result model behind every report format (docs/contract.md §4, schemas/report.schema.json): one
// InstantiationResult per analysed instantiation, with its verdict and findings. The analysis fills in
// the facts (findings, whether everything was decided, why not); finalizeResult() derives what follows
// from them (severity, verdict, default messages, order), so the rule "a benign same-value race does not
// count unless --strict" lives in one place.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Instantiation.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clcapture::report {

using format::AddressSpace;

/// docs/contract.md §4 verdicts, one per instantiation.
enum class Verdict { Verified, Defects, Unknown, Error };

/// Why a result is `error` or `unknown` in a way that changes the exit status (docs/contract.md §4).
enum class ErrorKind {
  None,    ///< not an error (or an ordinary `unknown`: bound reached, unsupported construct)
  Compile, ///< the kernel did not compile: exit 2
  Timeout, ///< --timeout ran out: verdict `unknown`, exit 7
  Other,   ///< could not be analysed for another reason (internal error, program built from IL, …)
};

/// A data race or barrier divergence (two work-items); an access outside its memory or through NULL (one).
enum class FindingKind { DataRace, BarrierDivergence, OutOfBounds, NullDereference, AccessMode };
enum class FindingSeverity { Error, Warning };
/// The two accesses of a race, in the order of Finding::accesses ("write-read": the first writes).
enum class Conflict { ReadWrite, WriteRead, WriteWrite, AtomicWrite, WriteAtomic, AtomicRead, ReadAtomic };
enum class AccessKind { Read, Write, Atomic };

const char *toString(Verdict v);
const char *toString(FindingKind k);
const char *toString(FindingSeverity s);
const char *toString(Conflict c);
const char *toString(AccessKind a);
const char *toString(ErrorKind e);

/// A place in a kernel source; `file` is relative to the captures file, like kernel_file.
struct SourceLocation {
  std::string file;
  std::uint64_t line = 0;   ///< 1-based
  std::uint64_t column = 0; ///< 1-based; 0 = unknown
};

/// One work-item of a witness; every id has three entries (unused dimensions are 0).
struct WorkItem {
  std::array<std::uint64_t, 3> globalId{};
  std::array<std::uint64_t, 3> localId{};
  std::array<std::uint64_t, 3> groupId{};
};

/// What one of the two work-items of a finding did.
struct Access {
  /// Absent for barrier divergence, where a work-item is "at" a place rather than accessing memory.
  std::optional<AccessKind> access;
  WorkItem workItem;
  SourceLocation location;
  std::string source; ///< the text of the source line (no line break); empty when unknown
};

/// A value the capture leaves open, as the witness chose it (docs/contract.md §5: missing values are
/// unconstrained): a scalar kernel argument the capture does not give.
struct WitnessValue {
  std::string name;  ///< the argument's name
  std::string value; ///< an OpenCL C literal of the argument's type: "7", "-1", "(int2)(1, -2)", "true"
  bool operator==(const WitnessValue &o) const { return name == o.name && value == o.value; }
  bool operator<(const WitnessValue &o) const { return name != o.name ? name < o.name : value < o.value; }
};

/// The application's call that created the memory object of a memory-safety finding (the capture's host
/// calls: clCreateBuffer or clCreateSubBuffer for the argument): where the host sized the buffer.
struct CreationSite {
  std::string function;            ///< clCreateBuffer, clCreateSubBuffer
  std::optional<std::string> file; ///< from DWARF, as captured
  std::optional<std::uint64_t> line;
  std::string module;                ///< the calling ELF file
  std::uint64_t moduleOffset = 0;    ///< the return address's offset in it
  std::optional<std::string> caller; ///< the calling function, from the symbol table
};

struct Finding {
  FindingKind kind = FindingKind::DataRace;
  /// Derived by finalizeResult(): warning for a benign race unless --strict, otherwise error.
  FindingSeverity severity = FindingSeverity::Error;
  // Data races only:
  Conflict conflict = Conflict::WriteWrite;
  bool benign = false; ///< every writer stores the same value (docs/contract.md §4)
  AddressSpace memory = AddressSpace::Global;
  std::string array;                    ///< the kernel's name for the memory (argument or __local variable)
  std::vector<std::uint64_t> index;     ///< element index, one per dimension of the array; may be empty
  std::array<std::uint64_t, 2> bytes{}; ///< first and last byte offset touched by both accesses
  // Out of bounds and null dereference (`memory` and `array` as for a race; `index` when the access starts
  // at or after the start):
  std::int64_t offset = 0;  ///< the access's first byte from the start of the memory (negative: before it)
  std::uint64_t size = 0;   ///< bytes accessed
  std::uint64_t extent = 0; ///< out of bounds: the bytes the memory holds (a buffer's, its sub-buffer's, …)
  /// Out of bounds inside the memory: an index past an array within it (`s.b[2]` of `char b[2]` in a struct)
  bool withinObject = false;
  /// Access mode: the flag of the buffer that forbids this access, CL_MEM_READ_ONLY (the access writes) or
  /// CL_MEM_WRITE_ONLY (it reads); `extent` is then the buffer's bytes.
  std::string accessMode;
  /// Out of bounds on an image: the pixel's coordinates as the kernel passed them (x, y, z or array index)
  /// and the image's extent in each (its width, height, depth or array size); empty otherwise.
  std::vector<std::int64_t> pixel;
  std::vector<std::uint64_t> imageExtent;
  /// Memory safety: the named variables the access's address depends on (loop counters, variables set in
  /// branches) and their values in the witness; the message names them ("where xx = 16").
  std::vector<WitnessValue> indexVariables;
  /// Memory safety: the host call that created the buffer, when the capture recorded it (not part of the
  /// analysis: clcapture-verify adds it from the capture's host calls).
  std::optional<CreationSite> createdBy{};
  // Barrier divergence only:
  SourceLocation barrier;
  /// Data race: the two conflicting accesses. Barrier divergence: two work-items of one group that
  /// disagree (one at the barrier, the other elsewhere or at another iteration). Out of bounds and null
  /// dereference: the first only (accessCount).
  std::array<Access, 2> accesses;
  /// What the witness chose for the values the capture leaves open: the scalar arguments it does not give
  /// (in parameter order), and the work-group size when the capture leaves it to the driver. Empty / absent
  /// when the capture fixes everything the finding depends on. The message ends with them
  /// (witnessValuesText).
  std::vector<WitnessValue> values;
  std::optional<std::array<std::uint64_t, 3>> localSize;
  /// GPUVerify-style, lower case, no final period; finalizeResult() fills it in when empty.
  std::string message;
  /// --confirm: "confirmed" (Oclgrind saw it with the captured input), "not observed with this input" or
  /// "not replayable: REASON" (clcapture-verify's FindingConfirmation.h); absent without --confirm.
  std::optional<std::string> confirmation{};
};

/// A `verified` that a group's parametric proof gave (ParametricGroups.h): the values it holds for.
struct ParametricProof {
  std::string opened;       ///< "`offset` and the bytes of `out`"
  std::size_t launches = 0; ///< instantiations of the capture the proof covers (copies included)
};

/// The process that captured a launch, for a capture many processes wrote (common's CaptureParts.h).
struct LaunchProcess {
  std::uint64_t pid = 0;
  std::vector<std::string> commandLine;
  std::string part; ///< its part's captures file, e.g. "captures-4242.json"
};

struct InstantiationResult {
  std::size_t index = 0; ///< position in captures.json (in a capture of many processes: across their parts)
  /// Set for a capture many processes wrote: the process whose part holds this launch.
  std::optional<LaunchProcess> process;
  std::string entryPoint;
  std::string kernelFile; ///< as captures.json names it (relative to the captures file)
  Verdict verdict = Verdict::Unknown;
  ErrorKind errorKind = ErrorKind::None;
  /// Required for unknown and error (schema); the source of an error, e.g. Clang's first diagnostic.
  std::string reason;
  double seconds = 0; ///< wall time of the analysis; 0 for a copied result
  /// The most heap the analysis held (verify/AllocationAccount.h); absent for a copied or cached result,
  /// or where allocations are not counted.
  std::optional<std::uint64_t> peakMemoryBytes;
  std::vector<Finding> findings;
  /// Set when this instantiation is identical to an earlier one and its result was copied from it.
  std::optional<std::size_t> sameAs;
  /// Set when `verified` comes from the parametric proof of launches that differ only in these values.
  std::optional<ParametricProof> parametric;
  /// The program's headers the compilation read, as the compiler named them (relative to the capture
  /// folder unless absolute): not reported, but part of what the result depends on (the verdict cache
  /// checks their contents before reusing it).
  std::vector<std::string> headersRead;
  /// The memory arguments whose accesses were not bounds-checked: the capture gives no size for them.
  std::vector<std::string> unsizedMemory;
  /// Not analysed, for the run's time limits (verify/RunBudget.h): `unknown`, a timeout, the cause in reason.
  bool cutShort = false;
};

/// How many of Finding::accesses a finding of this kind has: one for a memory-safety finding, else two.
std::size_t accessCount(const Finding &f);

/// Whether the finding is about memory safety (out of bounds, null dereference), not about two work-items.
bool memorySafety(FindingKind k);

/// True when `f` makes its instantiation `defects`: every finding does except a benign race, which does
/// only under --strict (docs/contract.md §4).
bool countsAsDefect(const Finding &f, bool strict);

/// The one place that turns an analysis outcome into what is reported:
///  - each finding's severity: warning for a benign race unless `strict`, error otherwise;
///  - a missing message gets GPUVerify's wording ("possible write-write race on tmp[7]");
///  - findings sorted (kind, first location, second location, array, index, bytes) so reports are stable;
///  - the verdict: `error` stays `error`; any finding that countsAsDefect() makes `defects`; otherwise the
///    analysis's verdict, where `defects` without a counting finding means only benign races: `verified`
///    (or `unknown` if there was no finding at all: a defect without a witness is not reported as one);
///  - a timeout is `unknown` unless findings made it `defects`; an error with ErrorKind::None is Other;
///  - `unknown` and `error` always carry a reason.
void finalizeResult(InstantiationResult &result, bool strict);

/// GPUVerify's wording for a finding: "possible write-write race on tmp[7]", "possible benign write-write
/// race on x[0]" (every writer stores the same value), "barrier may be reached by non-uniform control flow";
/// followed by witnessValuesText(f) ("possible write-write race on a[0] with stride = 0").
std::string defaultMessage(const Finding &f);

/// " with i = 7, n = 0 and local size (16, 1, 1)": the witness's open values (Finding::values, localSize)
/// as a message ending; empty when there are none.
std::string witnessValuesText(const Finding &f);

/// "tmp[7]", "img[2][3]", "tmp" (no index), or "memory" when the array has no name.
std::string describeElement(const Finding &f);
/// An image finding's pixel as the kernel names it: "(64, 3)".
std::string pixelText(const Finding &f);

struct Summary {
  std::size_t verified = 0, defects = 0, unknown = 0, error = 0;
  std::size_t cutShort = 0; ///< of the unknown: launches not analysed for the run's time limits
  std::size_t total() const { return verified + defects + unknown + error; }
};

/// Counts `r` as `launches` launches.
void addToSummary(Summary &summary, const InstantiationResult &r, std::size_t launches);
Summary summarize(const std::vector<InstantiationResult> &results);

/// A kernel as reports and the run's time limits name it: "k (kernels/k.cl)", its entry point in its source.
std::string kernelName(const std::string &entryPoint, const std::string &kernelFile);

/// Seconds of analysis per kernel, kernelName()'s "k (kernels/k.cl)" (its entry point in its source file):
/// where a run's time went. Copied results count 0.
std::map<std::string, double> secondsByKernel(const std::vector<InstantiationResult> &results);

/// What every report names besides the results.
struct ReportInfo {
  std::string version;      ///< clcapture-verify's version
  std::string capturesPath; ///< CAPTURES.json as given on the command line
  /// Absolute `file://` URI of the folder that holds CAPTURES.json, ending in '/': SARIF's base for the
  /// relative kernel paths. Empty: SARIF leaves the base undefined (relative URIs only).
  std::string capturesDirUri;
  bool strict = false;
  /// --checks: what `verified` covers, in this order ("races", "divergence", "bounds").
  std::vector<std::string> checks{"races", "divergence", "bounds"};
};

/// Folder part of capturesPath, joined with a capture-relative `file`, for messages a user can click:
/// "run/captures.json" + "kernels/k.cl" → "run/kernels/k.cl"; "captures.json" + "kernels/k.cl" →
/// "kernels/k.cl".
std::string displayPath(const ReportInfo &info, const std::string &file);

/// `file://` URI of an absolute folder, percent-encoded, with a final '/'.
std::string folderUri(const std::string &absoluteFolder);

} // namespace clcapture::report
