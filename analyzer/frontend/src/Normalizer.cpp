//===- Normalizer.cpp - The normalisation pipeline ------------------------===//
//
// The pipeline, in order (new pass manager):
//   0. program-scope variables stop being LLVM constants, those the program never writes marked so
//      (ProgramVariables.h), and a private variable accessed at a constant offset outside it is kept whole
//      (OutOfBoundsAllocas.h): LLVM would delete those accesses past an end;
//   1. other kernels go: every defined function but the entry is made internal and always_inline, and
//      GlobalDCE drops what the entry cannot reach (the other kernels, the helpers only they use) before any
//      work is spent on it; variable debug records go too (dropVariableDebugRecords; source locations stay);
//   2. keep reads alive: every read of non-private memory gets a fake use, so that LLVM does not delete the
//      ones whose value is unused (KeepReads.h; again after SROA, which splits struct copies into loads);
//   3. inline: AlwaysInliner, then GlobalDCE drops the inlined helpers;
//   4. per function: SROA (CFG preserved) and mem2reg put private scalars into SSA form; work-item queries
//      (get_global_id(0), …) move to the entry, one call each (WorkItemCalls.h); integer min and max
//      become LLVM's min/max intrinsics, which ScalarEvolution folds (IntegerMinMax.h); InferAddressSpaces
//      gives generic-pointer (OpenCL 2.0) accesses their real address space where it is evident;
//      InstSimplify folds what that exposes; CfgCleanup folds constant branches; LoopSimplify canonicalises
//      loops;
//   5. the fake uses go.
// None of these adds an access to non-private memory, moves one across a branch or a call, or merges two:
// SROA creates accesses only to allocas (private memory), except that it splits a struct copy into one
// access per field of the same bytes at the same place; InstSimplify only replaces values and deletes dead
// instructions; CfgCleanup only removes blocks no path reaches and edges between blocks; LoopSimplify only
// adds empty blocks and PHIs; WorkItemCalls only moves calls that touch no memory; IntegerMinMax only
// replaces a call that touches no memory by an intrinsic of the same value.
//
// Loops are not rotated: rotation copies the header (and a load in `while (a[i])`) in front of the loop.
// ScalarEvolution handles the top-tested form: in `for (i = 0; i < 16; ++i)` the backedge is taken 16 times
// and the header runs 17 times (getSmallConstantTripCount says 17, getBackedgeTakenCount 16).
//
//===----------------------------------------------------------------------===//

#include "clcapture/frontend/Normalizer.h"

#include "IntegerMinMax.h"
#include "OutOfBoundsAllocas.h"
#include "WorkItemCalls.h"
#include "clcapture/frontend/CfgCleanup.h"
#include "clcapture/frontend/KeepReads.h"
#include "clcapture/frontend/ProgramVariables.h"

#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/IPO/AlwaysInliner.h>
#include <llvm/Transforms/IPO/GlobalDCE.h>
#include <llvm/Transforms/Scalar/InferAddressSpaces.h>
#include <llvm/Transforms/Scalar/InstSimplifyPass.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/Mem2Reg.h>
#include <vector>

namespace clcapture::frontend {

namespace {

// SPIR's generic address space (OpenCL 2.0), which InferAddressSpaces resolves where it can.
constexpr unsigned kGeneric = 4;

/// Every function but the entry becomes internal and always_inline (other kernels too: one may call another,
/// and one that is not called is dead once internal); nothing is optnone or noinline any more (Clang adds
/// both at -O0).
void prepareForInlining(llvm::Module &module, llvm::Function &entry) {
  for (llvm::Function &function : module) {
    if (function.isDeclaration())
      continue;
    function.removeFnAttr(llvm::Attribute::OptimizeNone);
    function.removeFnAttr(llvm::Attribute::NoInline);
    if (&function != &entry) {
      function.setLinkage(llvm::GlobalValue::InternalLinkage);
      function.addFnAttr(llvm::Attribute::AlwaysInline);
    }
    for (llvm::Instruction &inst : llvm::instructions(function))
      if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst))
        call->removeFnAttr(llvm::Attribute::NoInline);
  }
}

/// Variable debug records go (llvm.dbg.value, llvm.dbg.declare), but for the entry's own arguments
/// (encode/ArgumentNames.cpp names a by-value struct's members from them). The analysis reads only
/// instructions' source locations, which stay; SROA and mem2reg would otherwise track every private
/// variable of every inlined helper through them (hashcat's DES kernel: half of its analysis time).
void dropVariableDebugRecords(llvm::Module &module, llvm::Function &entry) {
  std::vector<llvm::Instruction *> records;
  for (llvm::Function &function : module)
    for (llvm::Instruction &inst : llvm::instructions(function))
      if (auto *record = llvm::dyn_cast<llvm::DbgVariableIntrinsic>(&inst)) {
        auto *declare = llvm::dyn_cast<llvm::DbgDeclareInst>(record);
        if (&function == &entry && declare && llvm::isa_and_nonnull<llvm::Argument>(declare->getAddress()))
          continue;
        records.push_back(record);
      }
  for (llvm::Instruction *record : records)
    record->eraseFromParent();
}

/// The program's own functions that the entry still calls after inlining (only recursion leaves any).
std::string remainingCalls(llvm::Function &entry) {
  std::string names;
  for (llvm::Instruction &inst : llvm::instructions(entry))
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst))
      if (llvm::Function *callee = call->getCalledFunction(); callee && !callee->isDeclaration())
        if (names.find("'" + callee->getName().str() + "'") == std::string::npos)
          names += (names.empty() ? "'" : ", '") + callee->getName().str() + "'";
  return names;
}

} // namespace

format::Status Normalizer::normalize(CompiledKernel &kernel) {
  llvm::Module &module = kernel.module();
  llvm::Function &entry = kernel.entry();

  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  // No library function is known: OpenCL builtins are recognised by the model, never rewritten by LLVM.
  llvm::TargetLibraryInfoImpl libraryInfo(llvm::Triple(module.getTargetTriple()));
  libraryInfo.disableAllFunctions();
  functions.registerPass([&] { return llvm::TargetLibraryAnalysis(libraryInfo); });
  llvm::PassBuilder builder;
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);

  llvm::FunctionPassManager perFunction;
  perFunction.addPass(KeepOutOfBoundsAllocasPass()); // before SROA deletes their accesses past an end
  perFunction.addPass(llvm::SROAPass(llvm::SROAOptions::PreserveCFG));
  perFunction.addPass(llvm::PromotePass());
  perFunction.addPass(KeepReadsPass()); // the field loads SROA split a struct copy into
  perFunction.addPass(WorkItemCallsPass());
  perFunction.addPass(IntegerMinMaxPass());
  perFunction.addPass(llvm::InferAddressSpacesPass(kGeneric));
  perFunction.addPass(
      FoldUnwrittenLoadsPass()); // what InstSimplify folded while the variables were constants
  perFunction.addPass(llvm::InstSimplifyPass());
  perFunction.addPass(CfgCleanupPass());
  perFunction.addPass(FoldUnwrittenLoadsPass());
  perFunction.addPass(llvm::InstSimplifyPass());
  perFunction.addPass(llvm::LoopSimplifyPass());

  llvm::ModulePassManager pipeline;
  // The other kernels (internal now) and the helpers only they call go first: inlining into them would be
  // wasted (hashcat's m01500 program has three kernels over the same 1,000-line DES helpers).
  pipeline.addPass(llvm::GlobalDCEPass());
  pipeline.addPass(llvm::createModuleToFunctionPassAdaptor(KeepReadsPass()));
  pipeline.addPass(llvm::AlwaysInlinerPass(/*InsertLifetime=*/false));
  pipeline.addPass(llvm::GlobalDCEPass());
  pipeline.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(perFunction)));

  prepareProgramVariables(module); // while the other kernels, which may write them, are still here
  prepareForInlining(module, entry);
  dropVariableDebugRecords(module, entry);
  pipeline.run(module, modules);
  removeKeepReads(module);

  std::string problems;
  llvm::raw_string_ostream problemStream(problems);
  if (llvm::verifyModule(module, &problemStream))
    return format::fail("internal error: normalisation produced invalid IR: " + problemStream.str());
  if (std::string calls = remainingCalls(entry); !calls.empty())
    return format::fail("kernel '" + entry.getName().str() + "' still calls " + calls +
                        " after inlining: recursion is not supported (OpenCL 1.2 §6.9)");
  return {};
}

} // namespace clcapture::frontend
