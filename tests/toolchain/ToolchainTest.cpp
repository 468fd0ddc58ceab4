// The analyzer's toolchain, checked the way the analyzer will use it: Clang 16 in-process compiles an OpenCL
// kernel (default header from the resource dir) to LLVM IR with debug locations, and CVC5's C++ API answers
// bit-vector queries with models. A broken package or CMake recipe fails here, not deep inside the analyzer.
#include <catch2/catch.hpp>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticBuffer.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <cvc5/cvc5.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>

namespace {

struct Compiled {
  std::unique_ptr<llvm::Module> module;
  std::string diagnostics;
};

Compiled compileOpenCL(llvm::LLVMContext &context, const std::string &source) {
  auto *diagnostics = new clang::TextDiagnosticBuffer();
  clang::CompilerInstance compiler;
  compiler.createDiagnostics(diagnostics, /*ShouldOwnClient=*/true);
  std::vector<const char *> args{"-x",
                                 "cl",
                                 "-cl-std=CL1.2",
                                 "-triple",
                                 "spir64-unknown-unknown",
                                 "-finclude-default-header",
                                 "-debug-info-kind=limited",
                                 "-resource-dir",
                                 CLCAPTURE_CLANG_RESOURCE_DIR,
                                 "kernel.cl"};
  auto invocation = std::make_shared<clang::CompilerInvocation>();
  clang::CompilerInvocation::CreateFromArgs(*invocation, args, compiler.getDiagnostics());
  invocation->getPreprocessorOpts().addRemappedFile("kernel.cl",
                                                    llvm::MemoryBuffer::getMemBufferCopy(source).release());
  compiler.setInvocation(invocation);
  clang::EmitLLVMOnlyAction action(&context);
  Compiled out;
  if (compiler.ExecuteAction(action))
    out.module = action.takeModule();
  for (auto it = diagnostics->err_begin(); it != diagnostics->err_end(); ++it)
    out.diagnostics += it->second + "\n";
  return out;
}

} // namespace

TEST_CASE("clang 16 compiles an OpenCL kernel in-process with debug locations", "[toolchain]") {
  llvm::LLVMContext context;
  Compiled c = compileOpenCL(context, "kernel void k(global int *a) {\n"
                                      "  a[get_global_id(0)] = 1;\n"
                                      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                                      "}\n");
  INFO(c.diagnostics);
  REQUIRE(c.module);
  llvm::Function *k = c.module->getFunction("k");
  REQUIRE(k);
  bool storeOnLine2 = false;
  for (auto &block : *k)
    for (auto &inst : block)
      if (llvm::isa<llvm::StoreInst>(inst) && inst.getDebugLoc() && inst.getDebugLoc().getLine() == 2)
        storeOnLine2 = true;
  CHECK(storeOnLine2);
}

TEST_CASE("clang's diagnostics reach the caller", "[toolchain]") {
  llvm::LLVMContext context;
  Compiled c = compileOpenCL(context, "kernel void k(global flaot *a) {}\n");
  CHECK_FALSE(c.module);
  CHECK(c.diagnostics.find("unknown type name 'flaot'") != std::string::npos);
}

TEST_CASE("cvc5 proves and refutes bit-vector facts", "[toolchain]") {
  cvc5::Solver solver;
  solver.setOption("produce-models", "true");
  solver.setLogic("QF_BV");
  cvc5::Sort bv32 = solver.mkBitVectorSort(32);
  cvc5::Term x = solver.mkConst(bv32, "x");
  cvc5::Term one = solver.mkBitVector(32, 1);
  // x + 1 == x has no solution in modular arithmetic.
  solver.push();
  solver.assertFormula(solver.mkTerm(cvc5::EQUAL, {solver.mkTerm(cvc5::BITVECTOR_ADD, {x, one}), x}));
  CHECK(solver.checkSat().isUnsat());
  solver.pop();
  // x * 4 == 28 has the witness x = 7 (among others); the model must satisfy it.
  cvc5::Term four = solver.mkBitVector(32, 4);
  solver.assertFormula(solver.mkTerm(
      cvc5::EQUAL, {solver.mkTerm(cvc5::BITVECTOR_MULT, {x, four}), solver.mkBitVector(32, 28)}));
  REQUIRE(solver.checkSat().isSat());
  std::uint32_t value = static_cast<std::uint32_t>(std::stoul(solver.getValue(x).getBitVectorValue(10)));
  CHECK(value * 4u == 28u);
}
