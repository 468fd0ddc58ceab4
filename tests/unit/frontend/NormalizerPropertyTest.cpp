// The normalisation pipeline neither invents nor drops memory accesses, and leaves loops that
// ScalarEvolution understands. For each kernel and each (source line, address space, read|write|atomic|
// builtin call), the bytes accessed statically after normalisation equal those before, helpers counted once
// per call path (inlining copies a helper's accesses into each caller, which is what the source does).
#include "FrontendTestSupport.h"

#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Dominators.h>

using namespace clcapture;
using clcapture::test::compileAndNormalize;
using clcapture::test::kernelRequest;

namespace {

struct Sample {
  const char *name;
  const char *source;
  const char *flags;
};

// Each shape that a transformation could be tempted to speculate, hoist, merge or drop an access in.
const Sample kSamples[] = {
    {"helpers called twice", R"(
int load2(global const int *p, size_t i) { return p[i] + p[i + 1]; }
void put(global int *p, size_t i, int v) { p[i] = v; }
kernel void k(global const int *a, global int *b) {
  size_t i = get_global_id(0);
  put(b, 2 * i, load2(a, i));
  put(b, 2 * i + 1, load2(a, i + 2));
})",
     ""},
    {"loop with a constant trip count", R"(
kernel void k(global int *a, global const int *b) {
  size_t i = get_global_id(0);
  for (int j = 0; j < 16; ++j)
    a[i * 16 + j] += b[j];
})",
     ""},
    {"early return and if-else on loaded values", R"(
kernel void k(global const int *a, global int *b, int n) {
  size_t i = get_global_id(0);
  if (i >= n)
    return;
  if (a[i] > 0)
    b[i] = a[i];
  else
    b[i] = -a[i];
})",
     ""},
    {"conditional read of a local array at a constant index", R"(
kernel void k(global const int *a, global int *b) {
  local int tmp[64];
  size_t l = get_local_id(0);
  tmp[l] = a[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  int v;
  if (l == 0)
    v = tmp[0];
  else
    v = 1;
  b[get_global_id(0)] = v;
})",
     ""},
    {"conditional expression choosing between two loads", R"(
kernel void k(global const int *a, global int *b, int c) {
  size_t i = get_global_id(0);
  b[i] = c ? a[i] : a[i + 1];
})",
     ""},
    {"conditional stores to one address", R"(
kernel void k(global int *a, int p, int q) {
  if (p)
    a[0] = 1;
  if (q)
    a[0] = 2;
})",
     ""},
    {"switch", R"(
kernel void k(global int *a, global const int *b) {
  size_t i = get_global_id(0);
  switch (i % 4) {
  case 0: a[i] = 1; break;
  case 1: a[i] = b[i]; break;
  case 2: a[i] = b[i + 1];
  default: a[i] += 0;
  }
})",
     ""},
    {"break and continue", R"(
kernel void k(global const int *a, global int *b, int n) {
  for (int j = 0; j < n; ++j) {
    if (a[j] < 0)
      continue;
    if (a[j] == 42)
      break;
    b[j] = a[j];
  }
})",
     ""},
    {"private arrays", R"(
kernel void k(global const int *a, global int *b) {
  size_t i = get_global_id(0);
  int p[8];
  for (int j = 0; j < 8; ++j)
    p[j] = a[i + j];
  int s = 0;
  for (int j = 0; j < 8; ++j)
    s += p[(j * 3) % 8];
  b[i] = s;
})",
     ""},
    {"struct arguments and structs in global memory", R"(
typedef struct { int n; float scale; int pad[2]; } Params;
kernel void k(global float *a, Params p, global const Params *q) {
  size_t i = get_global_id(0);
  Params r = q[0];
  if (i < p.n && i < r.n)
    a[i] *= p.scale * r.scale;
})",
     ""},
    {"struct copied from global memory, one field used", R"(
typedef struct { int a; int b; } Pair;
kernel void k(global const Pair *in, global int *out) {
  Pair p = in[get_global_id(0)];
  out[get_global_id(0)] = p.a;
})",
     ""},
    {"vload and vstore", R"(
kernel void k(global const float *a, global float *b) {
  size_t i = get_global_id(0);
  float4 v = vload4(i, a);
  vstore4(v * 2.0f, i, b);
})",
     ""},
    {"atomics", R"(
kernel void k(global int *counter, global int *a) {
  local int hits;
  if (get_local_id(0) == 0)
    hits = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&hits);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    atomic_add(counter, hits);
  atomic_cmpxchg(&a[get_global_id(0)], 0, 1);
})",
     ""},
    {"OpenCL 2.0 atomics", R"(
kernel void k(global atomic_int *counter) {
  atomic_fetch_add_explicit(counter, 1, memory_order_relaxed);
  int seen = atomic_load(counter);
  atomic_store(counter + 1, seen);
})",
     "-cl-std=CL2.0"},
    {"barriers in a reduction loop", R"(
kernel void k(global const float *in, global float *out, local float *tmp) {
  size_t l = get_local_id(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s)
      tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    out[get_group_id(0)] = tmp[0];
})",
     ""},
    {"while loop on a loaded value and do-while", R"(
kernel void k(global int *a) {
  int w = 0;
  while (a[w] != 0)
    ++w;
  do {
    a[w] = 0;
  } while (--w > 0);
})",
     ""},
    {"tiled matrix multiplication", R"(
#define TILE 16
kernel void k(global const float *A, global const float *B, global float *C, int n) {
  local float As[TILE][TILE], Bs[TILE][TILE];
  int row = get_global_id(1), col = get_global_id(0);
  int ly = get_local_id(1), lx = get_local_id(0);
  float acc = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    As[ly][lx] = A[row * n + t * TILE + lx];
    Bs[ly][lx] = B[(t * TILE + ly) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int e = 0; e < TILE; ++e)
      acc += As[ly][e] * Bs[e][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = acc;
})",
     ""},
    {"async copy to local memory", R"(
kernel void k(global const float *a, global float *b, local float *tmp) {
  event_t e = async_work_group_copy(tmp, a + get_group_id(0) * 64, 64, 0);
  wait_group_events(1, &e);
  b[get_global_id(0)] = tmp[get_local_id(0)];
})",
     ""},
    {"generic helper called with global and local pointers", R"(
void bump(int *p) { *p += 1; }
kernel void k(global int *a, local int *l) {
  bump(&a[get_global_id(0)]);
  bump(&l[get_local_id(0)]);
})",
     "-cl-std=CL2.0"},
    {"unused reads and a constant table", R"(
constant int table[4] = {1, 2, 3, 4};
kernel void k(global const int *a, global int *b, int i) {
  int unused = a[get_global_id(0)];
  b[get_global_id(0)] = table[i & 3];
})",
     ""},
};

/// Generic (4) accesses after normalisation may have become global (1) or local (3): count them per line,
/// kind and "not private" so that inference of the address space is not mistaken for a new access.
std::map<test::AccessKey, std::uint64_t> mergeGeneric(std::map<test::AccessKey, std::uint64_t> counts,
                                                      bool merge) {
  if (!merge)
    return counts;
  std::map<test::AccessKey, std::uint64_t> merged;
  for (const auto &[key, count] : counts) {
    test::AccessKey k = key;
    if (k.addressSpace == 1 || k.addressSpace == 3 || k.addressSpace == 4)
      k.addressSpace = 99;
    merged[k] += count;
  }
  return merged;
}

llvm::Loop *onlyOutermostLoop(llvm::LoopInfo &loops) {
  REQUIRE(loops.getTopLevelLoops().size() == 1);
  return loops.getTopLevelLoops().front();
}

} // namespace

TEST_CASE("normalisation neither adds nor drops accesses to global, local or constant memory",
          "[frontend][normalize][property]") {
  for (const Sample &sample : kSamples) {
    INFO("kernel: " << sample.name);
    frontend::CompiledKernel kernel = test::compileOk(kernelRequest(sample.source, "k", sample.flags));
    bool generic = std::string(sample.flags).find("CL2.0") != std::string::npos;
    auto before = mergeGeneric(test::accessesFromEntry(kernel.entry()), generic);
    std::string unnormalised = frontend::printModule(kernel.module());
    format::Status status = frontend::Normalizer::normalize(kernel);
    INFO(status.error());
    REQUIRE(status);
    auto after = mergeGeneric(test::accessesFromEntry(kernel.entry()), generic);
    INFO("before:\n" << unnormalised << "\nafter:\n" << frontend::printModule(kernel.module()));
    CHECK(test::accessesChanged(before, after, /*grown=*/true) == "");
    // Nothing is dropped either: a read whose value is unused is still a read that can race, and reads of
    // constant memory are kept although they cannot race (InstSimplify would fold only constant indices).
    CHECK(test::accessesChanged(before, after, /*grown=*/false) == "");
    // No access without a location: line 0 would be a key of its own.
    for (const auto &[key, count] : after)
      CHECK(key.line != 0);
  }
}

TEST_CASE("after normalisation ScalarEvolution finds a constant trip count", "[frontend][normalize][scev]") {
  frontend::CompiledKernel kernel = compileAndNormalize(kernelRequest("kernel void k(global int *a) {\n"
                                                                      "  size_t i = get_global_id(0);\n"
                                                                      "  for (int j = 0; j < 16; ++j)\n"
                                                                      "    a[i * 16 + j] = j;\n"
                                                                      "}\n"));
  llvm::Function &f = kernel.entry();
  llvm::TargetLibraryInfoImpl libraryInfo(llvm::Triple(kernel.module().getTargetTriple()));
  llvm::TargetLibraryInfo library(libraryInfo);
  llvm::AssumptionCache assumptions(f);
  llvm::DominatorTree dominators(f);
  llvm::LoopInfo loops(dominators);
  llvm::ScalarEvolution scev(f, library, assumptions, dominators, loops);
  llvm::Loop *loop = onlyOutermostLoop(loops);
  // Loops stay top-tested (not rotated): the header, holding `j < 16`, runs 17 times, the body 16 times.
  CHECK(scev.getSmallConstantTripCount(loop) == 17);
  const auto *taken = llvm::dyn_cast<llvm::SCEVConstant>(scev.getBackedgeTakenCount(loop));
  REQUIRE(taken);
  CHECK(taken->getAPInt() == 16);
  CHECK(loop->getExitingBlock() == loop->getHeader());
  REQUIRE(loop->getHeader()->phis().begin() != loop->getHeader()->phis().end());
  llvm::PHINode &j = *loop->getHeader()->phis().begin();
  const auto *recurrence = llvm::dyn_cast<llvm::SCEVAddRecExpr>(scev.getSCEV(&j));
  REQUIRE(recurrence);
  CHECK(recurrence->getStart()->isZero());
  CHECK(recurrence->getStepRecurrence(scev)->isOne());
}

TEST_CASE("after normalisation a grid-stride loop's index is an add-recurrence",
          "[frontend][normalize][scev]") {
  auto stride = GENERATE(as<std::string>{}, "size_t", "int");
  INFO("index type " << stride);
  frontend::CompiledKernel kernel =
      compileAndNormalize(kernelRequest("kernel void k(global float *a, int n) {\n"
                                        "  for (" +
                                        stride +
                                        " i = get_global_id(0); i < n; i += get_global_size(0))\n"
                                        "    a[i] *= 2.0f;\n"
                                        "}\n"));
  llvm::Function &f = kernel.entry();
  llvm::TargetLibraryInfoImpl libraryInfo(llvm::Triple(kernel.module().getTargetTriple()));
  llvm::TargetLibraryInfo library(libraryInfo);
  llvm::AssumptionCache assumptions(f);
  llvm::DominatorTree dominators(f);
  llvm::LoopInfo loops(dominators);
  llvm::ScalarEvolution scev(f, library, assumptions, dominators, loops);
  llvm::Loop *loop = onlyOutermostLoop(loops);
  REQUIRE(loop->getHeader()->phis().begin() != loop->getHeader()->phis().end());
  llvm::PHINode &i = *loop->getHeader()->phis().begin();
  const auto *recurrence = llvm::dyn_cast<llvm::SCEVAddRecExpr>(scev.getSCEV(&i));
  INFO(frontend::printModule(kernel.module()));
  REQUIRE(recurrence);
  CHECK(recurrence->getLoop() == loop);
  CHECK(recurrence->isAffine());
  // start get_global_id(0), step get_global_size(0) (truncated for an int index): both calls, loop-invariant.
  CHECK(scev.isLoopInvariant(recurrence->getStart(), loop));
  CHECK(scev.isLoopInvariant(recurrence->getStepRecurrence(scev), loop));
  CHECK_FALSE(recurrence->getStepRecurrence(scev)->isZero());
}
