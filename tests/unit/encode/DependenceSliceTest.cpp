// The dependence slice (analyzer/encode/src/DependenceSlice.h), one rule per test: a value outside the slice
// gets no term (KernelEncoding::built, valuesBuilt), a value inside it does, and the queries' answers are the
// ones the whole encoding gives.
#include "encode/EncodeTestSupport.h"

#include <filesystem>
#include <fstream>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <set>
#include <unistd.h>

using namespace clcapture;
using namespace clcapture::test;
using encode::MemorySpace;
using encode::Scope;

namespace {

/// The instruction of `kernel` that multiplies by (or is otherwise marked with) the constant `mark`.
const llvm::Instruction &marked(EncodedKernel &e, std::uint64_t mark) {
  for (const llvm::Instruction &inst : llvm::instructions(e.kernel.entry()))
    for (const llvm::Value *op : inst.operands())
      if (const auto *c = llvm::dyn_cast<llvm::ConstantInt>(op); c && c->getZExtValue() == mark)
        return inst;
  FAIL("no instruction uses the constant " << mark);
  throw std::logic_error("unreachable");
}

/// The only load of `kernel` from address space `space`.
const llvm::LoadInst &onlyLoad(EncodedKernel &e, unsigned space) {
  const llvm::LoadInst *found = nullptr;
  for (const llvm::Instruction &inst : llvm::instructions(e.kernel.entry()))
    if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst);
        load && load->getPointerAddressSpace() == space) {
      REQUIRE(found == nullptr);
      found = load;
    }
  REQUIRE(found != nullptr);
  return *found;
}

encode::EncodeOptions whole() {
  encode::EncodeOptions o;
  o.dependenceSlice = false;
  return o;
}

/// The slice without what plain writes store (clcapture-verify keeps those: EncodeOptions::storedValues).
encode::EncodeOptions valuesOut() {
  encode::EncodeOptions o;
  o.storedValues = false;
  return o;
}

model::LaunchConfig twoBuffers() {
  return launch1D(16, 8, {bufferArgument(1), bufferArgument(2)});
}

/// A read-only buffer with captured bytes: 16 ints, 0..15 (a table the encoder reads word by word).
model::ArgumentFact tableArgument(std::uint64_t root) {
  static const std::filesystem::path path = [] {
    std::filesystem::path p =
        std::filesystem::temp_directory_path() / ("clcapture-slice-table-" + std::to_string(::getpid()));
    std::ofstream out(p, std::ios::binary);
    for (std::uint32_t i = 0; i < 16; ++i)
      out.write(reinterpret_cast<const char *>(&i), 4);
    return p;
  }();
  model::ArgumentFact fact = bufferArgument(root, 64);
  fact.space = format::AddressSpace::Constant;
  fact.data = path;
  return fact;
}

} // namespace

TEST_CASE("slice: arithmetic that only feeds a stored value gets no term", "[encode][slice]") {
  const std::string source = R"(
kernel void k(global int *in, global int *out) {
  size_t i = get_global_id(0);
  int x = in[i];
  out[i] = ((x * 7001) ^ (x >> 3)) + x * x;
})";
  EncodedKernel sliced = encodeKernel(source, twoBuffers(), "k", valuesOut());
  EncodedKernel full = encodeKernel(source, twoBuffers(), "k", whole());
  CHECK_FALSE(sliced->built(marked(sliced, 7001)));
  CHECK(full->built(marked(full, 7001)));
  CHECK_FALSE(sliced->built(onlyLoad(sliced, 1))); // the load's value: only stored
  // The slice keeps the addresses: gid, its casts, the pointers.
  CHECK(sliced->valuesBuilt() < full->valuesBuilt());
  CHECK(full->valuesBuilt() - sliced->valuesBuilt() >= 5);
  // Same answers: no race on out.
  std::vector<unsigned> writes = writesTo(*sliced, MemorySpace::Global);
  CHECK(sliced->checkRace(writes, writes, Scope::AnyPair).status == Status::Unsat);
}

TEST_CASE("slice: a value that decides a branch, or an address, gets its term", "[encode][slice]") {
  const std::string source = R"(
kernel void k(global int *in, global int *out) {
  size_t i = get_global_id(0);
  int x = in[i];
  if ((x * 7003) > 5)
    out[0] = 1;
  out[(i * 7005) % 16] = 2;
})";
  EncodedKernel e = encodeKernel(source, twoBuffers(), "k", valuesOut());
  CHECK(e->built(marked(e, 7003)));
  CHECK(e->built(marked(e, 7005)));
  CHECK(e->built(onlyLoad(e, 1)));
  std::vector<unsigned> writes = writesTo(*e, MemorySpace::Global);
  CHECK(e->checkRace(writes, writes, Scope::AnyPair).status == Status::Sat);
}

TEST_CASE("slice: a captured table is read only where an index needs it", "[encode][slice]") {
  model::LaunchConfig launch = launch1D(16, 8, {tableArgument(1), bufferArgument(2)});
  EncodedKernel stored = encodeKernel(R"(
kernel void k(constant int *t, global int *out) {
  size_t i = get_global_id(0);
  out[i] = t[i] * 7007;
})",
                                      launch, "k", valuesOut());
  CHECK_FALSE(stored->built(onlyLoad(stored, 2)));
  CHECK_FALSE(stored->built(marked(stored, 7007)));
  // The table is a permutation read for an index: its words decide the address, and out[t[i]] is race-free.
  EncodedKernel index = encodeKernel(R"(
kernel void k(constant int *t, global int *out) {
  size_t i = get_global_id(0);
  out[t[i]] = 7009;
})",
                                     launch, "k", valuesOut());
  CHECK(index->built(onlyLoad(index, 2)));
  std::vector<unsigned> writes = writesTo(*index, MemorySpace::Global);
  CHECK(index->checkRace(writes, writes, Scope::AnyPair).status == Status::Unsat);
}

TEST_CASE("slice: a private variable read back for an address brings what was stored in it",
          "[encode][slice]") {
  const std::string source = R"(
kernel void k(global int *in, global int *out) {
  size_t i = get_global_id(0);
  int slot[4];
  slot[i % 4] = (int)(i / 2) * 7011;
  slot[(i + 1) % 4] = 7013;
  out[slot[i % 4] / 7011] = 1;
})";
  EncodedKernel e = encodeKernel(source, twoBuffers(), "k", valuesOut());
  CHECK(e->built(marked(e, 7011)));
  std::vector<unsigned> writes = writesTo(*e, MemorySpace::Global);
  // i / 2: work-items 2k and 2k + 1 write one element.
  CHECK(e->checkRace(writes, writes, Scope::AnyPair).status == Status::Sat);
  // The same variable read back only for a stored value: the value written to it is left out.
  EncodedKernel quiet = encodeKernel(R"(
kernel void k(global int *in, global int *out) {
  size_t i = get_global_id(0);
  int slot[4];
  slot[i % 4] = in[i] * 7015;
  out[i] = slot[i % 4];
})",
                                     twoBuffers(), "k", valuesOut());
  CHECK_FALSE(quiet->built(marked(quiet, 7015)));
}

TEST_CASE("slice: a work-group function's arguments and a division's guard get their terms",
          "[encode][slice]") {
  EncodedKernel e = encodeKernel(R"(
kernel void k(global int *in, global int *out) {
  local int tile[8];
  size_t i = get_global_id(0);
  event_t e = async_work_group_copy(tile, in, (size_t)((i * 7017) % 8), 0);
  wait_group_events(1, &e);
  out[i] = tile[0] / (in[i] + 7019);
})",
                                 twoBuffers(), "k", valuesOut());
  CHECK(e->built(marked(e, 7017)));
  CHECK(e->built(marked(e, 7019))); // only divides a stored value, but the division has a guard
}

TEST_CASE("slice: a same-value test on a stored value left out is unknown; with stored values in, benign",
          "[encode][slice]") {
  // Every work-item stores in[0] * 7021 at out[0] (in is read-only: both read one value), through a load
  // and arithmetic the slice leaves out without stored values: a benign race.
  const std::string source = R"(
kernel void k(global int *in, global int *out, global int *other) {
  size_t i = get_global_id(0);
  out[0] = in[0] * 7021;
  other[i] = in[i] * 7023;
})";
  model::LaunchConfig launch = launch1D(16, 8, {bufferArgument(1), bufferArgument(2), bufferArgument(3)});
  EncodedKernel sliced = encodeKernel(source, launch, "k", valuesOut());
  std::vector<unsigned> writes =
      sitesWhere(*sliced, [](const encode::AccessSite &s) { return s.writes && s.object == "out"; });
  REQUIRE(writes.size() == 1);
  REQUIRE(sliced->checkRace(writes, writes, Scope::AnyPair).status == Status::Sat);
  encode::QueryOutcome differ = sliced->checkRace(writes, writes, Scope::AnyPair, true);
  CHECK(differ.status == Status::Unknown);
  CHECK(differ.unknownReason == "the values stored there, which this encoding left out");
  CHECK_FALSE(sliced->built(marked(sliced, 7021)));
  CHECK_FALSE(sliced->built(marked(sliced, 7023)));

  encodeAgain(sliced, encode::EncodeOptions{}); // what clcapture-verify encodes
  CHECK(sliced->built(marked(sliced, 7021)));
  CHECK(sliced->built(marked(sliced, 7023)));
  CHECK(sliced->checkRace(writes, writes, Scope::AnyPair, true).status == Status::Unsat);
}
