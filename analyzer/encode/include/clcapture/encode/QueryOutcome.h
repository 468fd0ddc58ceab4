//===- QueryOutcome.h - A race or divergence query's answer, with its witness -*- C++ -*-===//
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clcapture::encode {

struct WorkItemIds {
  std::array<std::uint64_t, 3> global{}, local{}, group{};
};

/// Which pairs of work-items a race query ranges over. AnyPair is the union of the other two when no
/// barrier separates the accesses (see groupingIrrelevant): one query, and no "same group" term.
enum class Scope { SameGroup, DifferentGroups, AnyPair };

/// What a witness chose for the scalar arguments the capture does not give: (name, OpenCL C literal), in
/// parameter order.
using OpenValues = std::vector<std::pair<std::string, std::string>>;

struct RaceWitness {
  WorkItemIds a, b;
  OpenValues values;
  unsigned siteA = 0, siteB = 0;                         ///< the access sites of A and B the model chose
  std::string object;                                    ///< the accessed memory's name (from A's side)
  std::uint64_t offsetA = 0, offsetB = 0;                ///< byte offsets in that object
  std::optional<std::array<std::uint64_t, 3>> localSize; ///< when the capture did not fix it
};

struct DivergenceWitness {
  WorkItemIds a, b;                ///< A reaches the barrier, B does not (or reaches it at another iteration)
  bool differentArguments = false; ///< both reach it, with different arguments
  OpenValues values;
  std::optional<std::array<std::uint64_t, 3>> localSize; ///< when the capture did not fix it
};

/// An access outside the memory it may touch (OutOfBounds), or through the null pointer.
struct BoundsWitness {
  WorkItemIds a;
  OpenValues values;
  unsigned site = 0;        ///< the access site the model chose
  bool null = false;        ///< the pointer is NULL (no object)
  bool beyondArray = false; ///< an index past an array inside the object (the object's bounds may hold)
  /// Inside its memory, but the host made that buffer CL_MEM_READ_ONLY (and this access writes) or
  /// CL_MEM_WRITE_ONLY (and it reads): the flag's name; empty for an out-of-bounds or null access.
  std::string accessMode;
  std::string object;       ///< the memory's name (the argument or variable)
  std::uint64_t offset = 0; ///< the access's first byte, from the start of the argument's region
  std::uint64_t size = 0;   ///< bytes accessed
  std::uint64_t extent = 0; ///< the bytes of the argument's region (its buffer's, its local size, …)
  std::optional<std::array<std::uint64_t, 3>> localSize; ///< when the capture did not fix it
  /// An image access outside its image: its coordinates (x, y, z or array index, as the kernel passed them)
  /// and the image's extent in each; empty otherwise.
  std::vector<std::int64_t> pixel;
  std::vector<std::uint64_t> imageExtent;
  OpenValues variables; ///< the named variables its address depends on (loop counters …) and their values
};

struct QueryOutcome {
  enum class Status { Unsat, Sat, Unknown } status = Status::Unknown;
  /// Sat only: the witness is real (every term exact, every guard kept); otherwise `abstraction` names what
  /// was abstracted (or the undefined behaviour every witness needs).
  bool exact = true;
  std::string abstraction;
  std::optional<RaceWitness> race;
  std::optional<DivergenceWitness> divergence;
  std::optional<BoundsWitness> bounds;
  std::string unknownReason; ///< Unknown: the solver's reason (timeout, resource limit)
  bool deadlineHit = false;  ///< Unknown because the instantiation's time ran out (EncodeOptions::deadline)
  bool budgetHit = false;    ///< Unknown because the query's own budget (checkRace's budgetMs) ran out
};

} // namespace clcapture::encode
