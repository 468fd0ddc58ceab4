//===- EncodingState.h - What both work-items' encodings share -*- C++ -*-===//
//
// Internal to encode/: the solver, the launch's terms (sizes, which the capture may leave open), the
// kernel's arguments (the same values for both work-items), the memory objects and their names, and per
// work-item the ids, the access records and the barrier records the ThreadEncoder fills in.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "CapturedWordRanges.h"
#include "DependenceSlice.h"
#include "Terms.h"
#include "clcapture/encode/EncodeOptions.h"
#include "clcapture/encode/QueryOutcome.h"
#include "clcapture/encode/Sites.h"
#include "clcapture/model/Builtins.h"
#include "clcapture/model/LaunchConfig.h"

#include <array>
#include <llvm/IR/DataLayout.h>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_set>
#include <vector>

namespace llvm {
class Argument;
class CallBase;
class Instruction;
class GlobalVariable;
class Value;
} // namespace llvm

namespace clcapture::encode {

namespace detail {
class AffineForms;
} // namespace detail

/// The constant a counter call adds: atomic_inc (1), or atomic_add / atomic_fetch_add of one non-zero
/// constant; nullopt for anything else.
std::optional<std::int64_t> counterStep(const llvm::CallBase &call, const model::Builtin &b);

/// One work-item's view of one access site.
struct AccessRecord {
  bool present = false;
  cvc5::Term reach; ///< Bool: the work-item executes the access
  Exactness reachHow;
  SymPointer pointer;
  cvc5::Term size; ///< 64-bit byte count
  Exactness sizeHow;
  cvc5::Term localEpoch, globalEpoch; ///< barrier intervals (per fence) the access lies in
  /// The async copies complete before the access: one bit per copy site (copyTags), set by a
  /// wait_group_events whose list holds the copy's event (64-bit). `doneHow`: whether the set is exact.
  cvc5::Term done;
  Exactness doneHow;
  cvc5::Term tagBit; ///< an async copy's own bit (64-bit); 0 for any other access
  bool hasValue = false;
  SymValue value;           ///< what a write stores
  bool valueSliced = false; ///< `value` is open because it lies outside the dependence slice
  /// A plain load's value when it is open (read from memory other work-items may write): two work-items'
  /// loads of one place in one barrier interval agree (stateUniformReads). Null otherwise.
  cvc5::Term loaded;
  /// An image access whose coordinates must lie inside the image (a write; a read without a sampler, or
  /// through one that does not clamp them): its integer coordinates, one term each (x, y, z or array index,
  /// as the built-in takes them). Empty for any other access.
  std::vector<cvc5::Term> pixel;
  Exactness pixelHow;
  /// Work-item A's named variables its address (or pixel) depends on — loop counters and other variables
  /// merged at a join, by their source names — for a bounds witness (EncodeMemory.cpp `indexVariables`).
  std::vector<std::pair<std::string, cvc5::Term>> indexVariables;
};

/// One work-item's view of a work-group function call (barrier, async copy, wait, collective): whether it
/// reaches it, and the arguments every work-item of the group must pass alike.
struct BarrierRecord {
  bool present = false;
  cvc5::Term reach;
  Exactness reachHow;
  std::vector<cvc5::Term> uniformArgs;
  Exactness argsHow;
  /// The iteration variables of the loops around the call (innermost first): both work-items are
  /// compared at the same iterations.
  std::vector<cvc5::Term> iterations;
};

/// What an atomic counter operation (atomic_inc, or atomic_add of one constant) returned to a work-item.
struct CounterResult {
  unsigned site = 0;
  /// The constant added, as an unsigned value of the counter's width: results are distinct only among
  /// operations of one step.
  std::uint64_t step = 0;
  bool inLoop = false; ///< the call may run more than once per work-item (a loop not unrolled)
  /// The results are distinct only among work-items of one group: a counter in local memory (one per
  /// group), or an atomic of memory_scope_work_group.
  bool groupScoped = false;
  cvc5::Term reach, object, offset, value;
  cvc5::Term epoch; ///< the barrier interval of the counter memory's fence at the call
  /// The value is encoded as exact, with a WitnessGuard that stateCounterFacts adds: a witness may use
  /// only results a real execution can give (see stateCounterFacts). Only for a call outside loops on
  /// memory whose object is known.
  bool exactWithGuard = false;
  std::string what; ///< "the value atomic_inc returns at k.cl:7"
};

/// One work-item's atomic_cmpxchg (OpenCL 1.2 §6.12.11): it writes only when it reads `expected` (a
/// failing compare-exchange stores nothing, as in C11 §7.17.7.4 and OpenCL 2.0's
/// atomic_compare_exchange). stateExclusiveSuccesses relates two work-items' calls of one site.
struct CompareExchange {
  unsigned site = 0;   ///< the call's write site (role 1)
  bool inLoop = false; ///< the call may run more than once per work-item (a loop not unrolled)
  bool local = false;  ///< on local memory: one location per work-group, ordered by its barriers
  cvc5::Term reach, object, offset, expected, desired, success;
  cvc5::Term epoch; ///< the barrier interval of the memory's fence at the call
};

/// A scalar kernel argument the capture does not give (docs/contract.md §5: missing values are
/// unconstrained). Every value of it is a real launch, so its term is exact, like the ids; a witness names
/// the value it chose.
struct OpenArgument {
  std::string name; ///< the argument's name (argumentName)
  std::string type; ///< its OpenCL C type (kernel_arg_base_type: "int", "uint4"); empty when unknown
  cvc5::Term term;
};

/// A condition under which an exact term is not what the kernel computes, because the execution is not
/// defined there (OpenCL 1.2 §6.3: an integer division by zero gives an unspecified value; a read outside
/// the captured bytes of a read-only buffer; mul24/mad24 outside their 24-bit range, §6.12.3). The term is
/// an over-approximation there (sound for proofs), so a witness must avoid it: `violated` is the
/// work-item's reach of the instruction and the condition.
struct WitnessGuard {
  cvc5::Term violated;
  std::string what; ///< "a division by zero at k.cl:7", for the reason of an `unknown`
  /// The instruction whose result the guard is about (null: none). A bounds witness ignores the guard of
  /// the access it shows: a read outside the captured bytes is what it reports, not a step it relies on.
  const llvm::Instruction *inst = nullptr;
};

struct ThreadIdTerms {
  std::array<cvc5::Term, 3> global, local, group; ///< 64-bit
  /// get_local_size: the launch's, or, in a dimension with a partial last group (OpenCL 2.0), the size
  /// of this work-item's group.
  std::array<cvc5::Term, 3> localSize;
};

/// Object ids (64-bit) by kind: buffers use their memory-object root from the capture, below 2^48.
constexpr std::uint64_t kLocalArgumentObject = 1ull << 48;
constexpr std::uint64_t kLocalVariableObject = 1ull << 49;
constexpr std::uint64_t kConstantVariableObject = 1ull << 50;
constexpr std::uint64_t kPrivateObject = 1ull << 51;
/// An event_t value is a pointer into this pseudo-object whose offset is the set of async copies the
/// event stands for (one bit per copy site); the null event is object 0, offset 0 (no copy).
constexpr std::uint64_t kEventObject = 1ull << 52;
/// The null pointer's object: no memory object has this id (captured ids start at 0, so 0 is a buffer).
constexpr std::uint64_t kNullObject = 1ull << 53;
/// Program-scope variables in the global address space (OpenCL 2.0 §6.5.1), numbered in module order.
constexpr std::uint64_t kGlobalVariableObject = 1ull << 54;
/// At most this many async copy sites (one bit each in an event's set).
constexpr unsigned kMaxCopySites = 64;

struct EncodingState {
  EncodingState(llvm::Function &kernel, const model::LaunchConfig &launch, const EncodeOptions &options);

  cvc5::Solver solver;
  TermFactory tf{solver};
  llvm::Function &kernel;
  model::LaunchConfig launch;
  EncodeOptions options;
  const llvm::DataLayout &layout;

  std::array<cvc5::Term, 3> globalSize, localSize, numGroups, globalOffset; ///< 64-bit
  bool localSizeOpen = false; ///< the capture left the local size to the driver

  std::map<const llvm::Value *, SymValue> sharedValues;     ///< scalar kernel arguments
  std::vector<OpenArgument> openArguments;                  ///< uncaptured scalars the kernel uses
  std::map<const llvm::Value *, SymPointer> sharedPointers; ///< pointer arguments, module variables
  std::map<std::uint64_t, std::string> objectNames;
  /// The byte ranges (origin, size) of each object that accesses may touch, for the bounds query: a buffer
  /// argument's region in its memory object (several arguments on one object: each one's), a local
  /// argument's captured size, a program-scope local or constant array's declared size. An object absent
  /// here is not checked (its size is not known).
  std::map<std::uint64_t, std::vector<std::pair<std::uint64_t, std::uint64_t>>> objectRegions;
  std::set<std::string> unsizedObjects; ///< the names of the memory arguments whose size is not known
  /// Image arguments whose extents the capture gives: object → their type and extents, for the bounds query
  /// (model::imageCoordinateBounds, docs/semantics.md row 37i) and the image queries.
  std::map<std::uint64_t, format::ImageFacts> images;
  /// Sampler arguments whose properties the capture gives: the argument → its properties.
  std::map<const llvm::Value *, format::SamplerFacts> samplers;
  /// Memory objects every buffer argument on which the host made CL_MEM_READ_ONLY (a write to them is
  /// undefined) or CL_MEM_WRITE_ONLY (a read is), from the captured flags (docs/semantics.md row 37f).
  std::set<std::uint64_t> readOnlyObjects, writeOnlyObjects;
  std::set<std::uint64_t> writtenObjects; ///< objects some store/atomic may write; kWrittenUnknown: any
  /// Memory no write reaches and whose bytes the launch does not give (or gives beyond
  /// maxCapturedTableBytes): one open array (offset → byte) per object, read by both work-items, so two
  /// reads of one place agree. `how`: exact when the capture has no bytes (docs/contract.md §5: any contents
  /// are a real launch); an abstraction when it has bytes the encoder does not read. `ranges`: the buffer's
  /// (origin, size) views when every one has a size — a witness must read inside them.
  struct OpenContents {
    cvc5::Term array;
    /// What work-item B reads when it is not `array` (null: it is): local memory is one per work-group, so
    /// B reads A's bytes only in A's group.
    cvc5::Term arrayOfB;
    Exactness how;
    std::optional<std::vector<std::pair<std::uint64_t, std::uint64_t>>> ranges;
    /// A struct passed by value: its members' names by byte offset (debug info), for the witness.
    std::map<std::uint64_t, std::string> fields;
    /// Captured bytes too many to read exactly: each region's word ranges (row 13d, loadValue).
    std::vector<std::shared_ptr<const detail::CapturedWords>> capturedWords;
  };
  std::map<std::uint64_t, OpenContents> openContents;
  /// Reads of exactly open contents, for a witness to name the values it needs ("idx[3] = 0").
  struct OpenRead {
    std::string name; ///< the buffer's name
    std::string type; ///< an OpenCL C spelling of the value read ("int", "float"), for the literal
    unsigned elementBytes = 1;
    cvc5::Term reach, offset, value;
    const std::map<std::uint64_t, std::string> *fields = nullptr; ///< OpenContents::fields, or null
    const llvm::Instruction *inst = nullptr;                      ///< the load
  };
  std::array<std::vector<OpenRead>, 2> openReads;
  /// Where each memory object lies: object id (64-bit) → its address (64-bit), one open array for both
  /// work-items, so a pointer's bits are the same for both when its object and offset are (addressBits).
  cvc5::Term objectAddresses;
  /// Counter calls (counterStep) on memory that starts open and that nothing else writes: their results
  /// are exact within a guard (CounterResult::exactWithGuard).
  std::set<const llvm::Instruction *> openCounterCalls;
  /// Reads of captured tables as a choice among their words (loadValue), both work-items': a large bounds
  /// query's first question leaves each open within its table's range (BoundsQuery.cpp, row 37g).
  struct TableWordRead {
    cvc5::Term value, offset;
    std::uint64_t origin = 0, bytes = 0; ///< the captured words lie at origin + k·size, k·size < bytes
    unsigned size = 0;
    std::uint64_t least = 0, greatest = 0; ///< the least and greatest word, unsigned
  };
  std::vector<TableWordRead> tableWordReads;
  bool anyObjectMayBeWritten = false;
  /// Read-only buffers with captured bytes: object → (array term: offset in the object → byte).
  std::map<std::uint64_t, cvc5::Term> capturedTables;
  /// The captured byte ranges (origin, size) of each table: a read outside them reads open bytes.
  std::map<std::uint64_t, std::vector<std::pair<std::uint64_t, std::uint64_t>>> capturedRanges;

  std::vector<AccessSite> sites;
  std::map<std::pair<const llvm::Instruction *, unsigned>, unsigned> siteOf; ///< (instruction, role) → site
  std::vector<BarrierSite> barriers;
  std::map<const llvm::Instruction *, unsigned> barrierOf;
  /// Each async copy call's bit in an event's set of copies; the same for both work-items.
  std::map<const llvm::Instruction *, unsigned> copyTags;

  std::array<ThreadIdTerms, 2> ids;
  std::array<std::vector<AccessRecord>, 2> records;
  std::array<std::vector<BarrierRecord>, 2> barrierRecords;
  std::array<std::vector<CounterResult>, 2> counterResults;
  std::array<std::vector<CompareExchange>, 2> compareExchanges;
  std::array<std::vector<WitnessGuard>, 2> guards; ///< per work-item, in encoding order

  std::optional<bool> severalGroups; ///< whether two distinct work-items may be in different groups
  /// Read-only buffers with captured bytes, raw: object → (origin, bytes), for exact aligned reads.
  std::map<std::uint64_t, std::pair<std::uint64_t, std::vector<unsigned char>>> capturedBytes;
  /// The `size`-byte word at `at` of captured bytes `data`, in the device's byte order.
  static std::uint64_t capturedWord(const std::vector<unsigned char> &data, std::size_t at, unsigned size,
                                    bool little) {
    return detail::composeWord(data.data() + at, size, little);
  }
  /// A read of a captured table whose words of its size are pairwise distinct (loadValue): while `inside`
  /// (a whole captured word), its offset is the one place holding its value (distinctWordFacts). `accesses`:
  /// the accesses whose address its value takes part in.
  struct DistinctWordRead {
    std::uint64_t object;
    unsigned size;
    cvc5::Term offset, value, inside;
    std::vector<const llvm::Instruction *> accesses;
  };
  std::array<std::vector<DistinctWordRead>, 2> distinctWordReads;
  /// (object, size in bytes, bits read) → whether the captured words are pairwise distinct.
  std::map<std::tuple<std::uint64_t, unsigned, unsigned>, bool> wordsDistinct;
  cvc5::Term distinct;  ///< the two work-items differ in some dimension of their global id
  cvc5::Term sameGroup; ///< ... and are in one work-group
  /// Offsets as affine forms for the dependence test (AffineOffsets.h), built on the first race query.
  std::shared_ptr<detail::AffineForms> affineForms;
  /// (site of A, site of B, Scope) → whether the dependence test lets them meet (asked once per pair and
  /// scope).
  std::map<std::tuple<unsigned, unsigned, Scope>, bool> sitesMayMeet;
  /// (site of A, site of B, local fence) → whether their barrier intervals may be equal (asked once).
  std::map<std::tuple<unsigned, unsigned, bool>, bool> intervalsMayMeet;
  /// Every query asked, for --dump-smt2: its label, the assumed formula, the answer and the time taken.
  struct LoggedQuery {
    std::string label;
    cvc5::Term query;
    std::string answer;
  };
  std::vector<LoggedQuery> queryLog;
  unsigned queryCount = 0; ///< names each query's fresh selector terms apart
  DependenceSlice slice;   ///< what the encoding builds terms for (EncodeOptions::dependenceSlice)
  std::unordered_set<const llvm::Value *> builtForA; ///< instructions of work-item A that got a term
  bool limitSet = false; ///< the solver's tlimit-per is set (ask resets it when a query has no limit)

  unsigned siteFor(const llvm::Instruction *inst, unsigned role = 0);
  unsigned barrierFor(const llvm::Instruction *inst, unsigned fences,
                      const std::string &function = "barrier");
};

} // namespace clcapture::encode
