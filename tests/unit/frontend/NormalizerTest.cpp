// Normalizer: one function per kernel, private scalars in SSA form, loops in loop-simplify form, builtins
// kept as calls, every access located.
#include "FrontendTestSupport.h"

#include <algorithm>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>

using namespace clcapture;
using clcapture::test::compileAndNormalize;
using clcapture::test::kernelRequest;

namespace {

std::vector<std::string> definedFunctions(const llvm::Module &module) {
  std::vector<std::string> names;
  for (const llvm::Function &f : module)
    if (!f.isDeclaration())
      names.push_back(f.getName().str());
  return names;
}

std::vector<std::string> calledFunctions(const llvm::Function &function) {
  std::vector<std::string> names;
  for (const llvm::BasicBlock &block : function)
    for (const llvm::Instruction &inst : block)
      if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&inst))
        if (const llvm::Function *callee = call->getCalledFunction(); callee && !callee->isIntrinsic())
          names.push_back(callee->getName().str());
  return names;
}

template <typename Inst> unsigned countOf(const llvm::Function &function, unsigned addressSpace) {
  unsigned n = 0;
  for (const llvm::BasicBlock &block : function)
    for (const llvm::Instruction &inst : block)
      if (const auto *access = llvm::dyn_cast<Inst>(&inst);
          access && access->getPointerAddressSpace() == addressSpace)
        ++n;
  return n;
}

} // namespace

TEST_CASE("helpers are inlined into the entry, other kernels and dead helpers are removed",
          "[frontend][normalize]") {
  frontend::CompiledKernel kernel = compileAndNormalize(kernelRequest(
      "int twice(int x) { return 2 * x; }\n"
      "void put(global int *p, size_t i, int v) { p[i] = twice(v); barrier(CLK_GLOBAL_MEM_FENCE); }\n"
      "void unused(global int *p) { p[0] = 0; }\n"
      "kernel void other(global int *a) { put(a, 0, 1); unused(a); }\n"
      "kernel void k(global int *a, global int *b) { put(a, get_global_id(0), b[0]); other(b); }\n"));
  CHECK(definedFunctions(kernel.module()) == std::vector<std::string>{"k"});
  CHECK(kernel.entry().getName() == "k");
  // Builtins stay calls to their mangled declarations; program functions are gone.
  CHECK(calledFunctions(kernel.entry()) ==
        std::vector<std::string>{"_Z13get_global_idj", "_Z7barrierj", "_Z7barrierj"});
  CHECK(countOf<llvm::StoreInst>(kernel.entry(), 1) == 3);
  CHECK(kernel.module().getFunction("clcapture.keep") == nullptr);
}

TEST_CASE("work-item queries become one call each, at the entry", "[frontend][normalize]") {
  frontend::CompiledKernel kernel = compileAndNormalize(
      kernelRequest("kernel void k(global int *a, int n) {\n"
                    "  for (int i = 0; i < n; ++i)\n"
                    "    if (get_local_id(0) == i) a[get_global_id(0)] = get_global_id(0);\n"
                    "  a[get_global_id(1)] = get_local_size(0);\n"
                    "}\n"));
  std::vector<std::string> inEntry;
  for (const llvm::Instruction &inst : kernel.entry().getEntryBlock())
    if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
        call && !call->getCalledFunction()->isIntrinsic())
      inEntry.push_back(call->getCalledFunction()->getName().str());
  // In the order Clang emits them (the right-hand side of `=` first), get_global_id(0) once.
  CHECK(inEntry == std::vector<std::string>{"_Z12get_local_idj", "_Z13get_global_idj", "_Z14get_local_sizej",
                                            "_Z13get_global_idj"});
  CHECK(calledFunctions(kernel.entry()).size() == 4); // no other call anywhere
}

TEST_CASE("private scalars become SSA values and private arrays indexed at run time stay in memory",
          "[frontend][normalize]") {
  frontend::CompiledKernel kernel = compileAndNormalize(
      kernelRequest("kernel void k(global int *a, int n) {\n"
                    "  int sum = 0; float f = 1.0f; int table[8];\n"
                    "  for (int i = 0; i < 8; ++i) table[i] = a[i];\n"
                    "  for (int i = 0; i < n; ++i) { sum += table[(i * 3) % 8]; f *= 2.0f; }\n"
                    "  a[0] = sum + (int)f;\n"
                    "}\n"));
  unsigned scalarAllocas = 0, arrayAllocas = 0;
  for (const llvm::Instruction &inst : kernel.entry().getEntryBlock())
    if (const auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&inst))
      (alloca->getAllocatedType()->isArrayTy() ? arrayAllocas : scalarAllocas) += 1;
  CHECK(scalarAllocas == 0);
  CHECK(arrayAllocas == 1);
  CHECK(countOf<llvm::LoadInst>(kernel.entry(), 0) == 1); // table[(i * 3) % 8]
}

TEST_CASE("every access to global, constant and local memory keeps its debug location",
          "[frontend][normalize]") {
  frontend::CompiledKernel kernel =
      compileAndNormalize(kernelRequest("constant int weights[4] = {1, 2, 3, 4};\n"
                                        "int at(constant int *w, int i) { return w[i & 3]; }\n"
                                        "kernel void k(global int *a, local int *tmp) {\n"
                                        "  int l = get_local_id(0);\n"
                                        "  tmp[l] = a[get_global_id(0)];\n"
                                        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                                        "  a[get_global_id(0)] = tmp[(l + 1) % 4] * at(weights, l);\n"
                                        "  atomic_add(&a[0], 1);\n"
                                        "}\n"));
  unsigned checked = 0;
  for (const llvm::BasicBlock &block : kernel.entry())
    for (const llvm::Instruction &inst : block) {
      const llvm::Value *pointer = llvm::getLoadStorePointerOperand(&inst);
      const auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
      bool memoryCall = call && !call->doesNotAccessMemory() && !llvm::isa<llvm::DbgInfoIntrinsic>(call);
      if (!memoryCall && (!pointer || pointer->getType()->getPointerAddressSpace() == 0))
        continue;
      INFO(frontend::printModule(kernel.module()));
      REQUIRE(inst.getDebugLoc());
      CHECK(inst.getDebugLoc().getLine() >= 2);
      CHECK(inst.getDebugLoc().getLine() <= 8);
      CHECK(inst.getDebugLoc().getCol() > 0);
      CHECK(inst.getDebugLoc()->getFilename() == "kernels/k.cl");
      ++checked;
    }
  CHECK(checked == 7); // 2 loads and 2 stores outside, the constant read, the barrier, atomic_add
}

TEST_CASE("reads whose value is unused are kept because a racy read is a race", "[frontend][normalize]") {
  frontend::CompiledKernel kernel = compileAndNormalize(kernelRequest("kernel void k(global float *a) {\n"
                                                                      "  float x = a[get_global_id(0)];\n"
                                                                      "  float4 v = vload4(1, a);\n"
                                                                      "}\n"));
  CHECK(countOf<llvm::LoadInst>(kernel.entry(), 1) == 1);
  CHECK(calledFunctions(kernel.entry()) ==
        std::vector<std::string>{"_Z13get_global_idj", "_Z6vload4mPU3AS1Kf"});
}

TEST_CASE("branches on -D constants are folded and the dead side's accesses are gone",
          "[frontend][normalize]") {
  const std::string source = "kernel void k(global int *a) {\n"
                             "  if (N > 4) a[0] = 1; else a[1] = 2;\n"
                             "  switch (N) { case 8: a[2] = 3; break; default: a[3] = 4; }\n"
                             "}\n";
  frontend::CompiledKernel kernel = compileAndNormalize(kernelRequest(source, "k", "-DN=8"));
  CHECK(countOf<llvm::StoreInst>(kernel.entry(), 1) == 2);
  CHECK(kernel.entry().size() == 1); // a single basic block
}

TEST_CASE("generic pointers (OpenCL 2.0) get the address space they point to", "[frontend][normalize]") {
  frontend::CompiledKernel kernel =
      compileAndNormalize(kernelRequest("void put(int *p, int v) { *p = v; }\n"
                                        "kernel void k(global int *a, local int *l) {\n"
                                        "  put(&a[get_global_id(0)], 1); put(&l[get_local_id(0)], 2);\n"
                                        "}\n",
                                        "k", "-cl-std=CL2.0"));
  CHECK(countOf<llvm::StoreInst>(kernel.entry(), 1) == 1);
  CHECK(countOf<llvm::StoreInst>(kernel.entry(), 3) == 1);
  CHECK(countOf<llvm::StoreInst>(kernel.entry(), 4) == 0);
}

TEST_CASE("loops are in loop-simplify form with preheader, single latch and dedicated exits",
          "[frontend][normalize]") {
  frontend::CompiledKernel kernel = compileAndNormalize(
      kernelRequest("kernel void k(global int *a, int n) {\n"
                    "  for (int i = 0; i < n; ++i) {\n"
                    "    if (a[i] < 0) continue;\n"
                    "    if (a[i] == 42) break;\n"
                    "    for (int j = 0; j < i; ++j) { if (a[j] == 0) return; a[j] += 1; }\n"
                    "  }\n"
                    "  int w = 0; while (a[w] != 0) ++w;\n"
                    "  do { a[w] = 0; } while (--w > 0);\n"
                    "}\n"));
  llvm::DominatorTree dominators(kernel.entry());
  llvm::LoopInfo loops(dominators);
  unsigned count = 0;
  for (const llvm::Loop *loop : loops.getLoopsInPreorder()) {
    CHECK(loop->isLoopSimplifyForm());
    ++count;
  }
  CHECK(count == 4);
}

TEST_CASE("recursion is reported, not hidden", "[frontend][normalize]") {
  frontend::CompiledKernel kernel =
      test::compileOk(kernelRequest("int f(int n) { return n <= 0 ? 0 : 1 + f(n - 1); }\n"
                                    "kernel void k(global int *a) { a[0] = f(a[1]); }\n"));
  format::Status status = frontend::Normalizer::normalize(kernel);
  REQUIRE_FALSE(status);
  CHECK(status.error() ==
        "kernel 'k' still calls 'f' after inlining: recursion is not supported (OpenCL 1.2 §6.9)");
}

TEST_CASE("the normalised module prints the same for the same input", "[frontend][normalize]") {
  auto request = kernelRequest("kernel void k(global int *a) { a[get_global_id(0)] = 1; }\n");
  std::string first = frontend::printModule(compileAndNormalize(request).module());
  std::string second = frontend::printModule(compileAndNormalize(request).module());
  CHECK(first == second);
  CHECK(first.find("spir_kernel void @k(") != std::string::npos);
  CHECK(first.find("!DIFile(filename: \"kernels/k.cl\", directory: \".\")") != std::string::npos);
}

TEST_CASE("integer min and max become LLVM's min/max intrinsics; float and mixed operands stay calls",
          "[frontend][normalize]") {
  frontend::CompiledKernel kernel = compileAndNormalize(kernelRequest(
      "kernel void k(global int *a, global uint4 *b, global float *c, global int4 *d, int n, uint m,\n"
      "              global char *e, global ulong2 *f) {\n"
      "  for (int x = max(0, n - 1); x < min(n + 2, 320); ++x) a[x] = 0;\n"
      "  b[0] = max(b[1], b[2]);\n"
      "  a[1] = (int)min(m, 7u);\n"
      "  c[0] = min(c[1], c[2]);\n"
      "  d[0] = min(d[1], n);\n"
      "  e[0] = max(e[1], e[2]);\n" // OpenCL's char is signed
      "  f[0] = min(f[1], f[2]);\n"
      "}\n"));
  std::vector<std::string> intrinsics;
  for (const llvm::BasicBlock &block : kernel.entry())
    for (const llvm::Instruction &inst : block)
      if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&inst))
        if (const llvm::Function *callee = call->getCalledFunction(); callee && callee->isIntrinsic())
          intrinsics.push_back(callee->getName().str());
  std::sort(intrinsics.begin(), intrinsics.end());
  CHECK(intrinsics == std::vector<std::string>{"llvm.smax.i32", "llvm.smax.i8", "llvm.smin.i32",
                                               "llvm.umax.v4i32", "llvm.umin.i32", "llvm.umin.v2i64"});
  std::vector<std::string> calls = calledFunctions(kernel.entry());
  CHECK(std::count(calls.begin(), calls.end(), "_Z3minff") == 1);     // float: not an integer min
  CHECK(std::count(calls.begin(), calls.end(), "_Z3minDv4_ii") == 1); // vector and scalar: left alone
}
