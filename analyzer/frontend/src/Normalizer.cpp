//===- Normalizer.cpp - The normalisation pipeline ------------------------===//
//
// The pipeline, in order (new pass manager):
//   1. keep reads alive: every read of non-private memory whose value may go unused gets a fake use;
//   2. inline: every defined function but the entry is internal and always_inline; AlwaysInliner, then
//      GlobalDCE drops the other kernels, the inlined helpers and what only they used;
//   3. per function: SROA (CFG preserved) and mem2reg put private scalars into SSA form; InferAddressSpaces
//      gives generic-pointer (OpenCL 2.0) accesses their real address space where it is evident;
//      InstSimplify folds what that exposes; CfgCleanup folds constant branches; LoopSimplify canonicalises
//      loops;
//   4. the fake uses go.
// None of these creates a load or store outside an alloca (private memory), moves one across a branch or a
// call, or merges two: InstSimplify only replaces values and deletes dead instructions, CfgCleanup only
// removes blocks no path reaches and edges between blocks, LoopSimplify only adds empty blocks and PHIs.
//
//===----------------------------------------------------------------------===//

#include "clcapture/frontend/Normalizer.h"

#include "CfgCleanup.h"

#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/IRBuilder.h>
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

namespace clcapture::frontend {

namespace {

// SPIR address spaces (Clang's SPIR target): 0 private, 1 global, 2 constant, 3 local, 4 generic.
constexpr unsigned kPrivate = 0;
constexpr unsigned kGeneric = 4;

constexpr const char *kKeepName = "clcapture.keep";

/// A read whose result LLVM may delete when nothing uses it: a load of non-private memory, or a call that
/// only reads memory (vloadn is declared `pure`).
bool isDroppableRead(const llvm::Instruction &inst) {
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst))
    return load->getPointerAddressSpace() != kPrivate;
  if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst))
    return !call->getType()->isVoidTy() && call->onlyReadsMemory() && !call->doesNotAccessMemory() &&
           !llvm::isa<llvm::IntrinsicInst>(call);
  return false;
}

/// A source read is an access even when its value is unused (`int x = a[i];` with x dead races like any
/// other read), but InstSimplify and the dead-condition clean-up delete unused loads. Each such read gets a
/// use by a call to an opaque function that touches no memory the program can see; removeKeepAlive undoes it.
void addKeepAlive(llvm::Module &module) {
  llvm::LLVMContext &context = module.getContext();
  llvm::FunctionType *type = llvm::FunctionType::get(llvm::Type::getVoidTy(context), /*isVarArg=*/true);
  llvm::Function *keep = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, kKeepName, module);
  keep->setOnlyAccessesInaccessibleMemory();
  keep->setDoesNotThrow();
  keep->setWillReturn();
  for (llvm::Function &function : module) {
    if (function.isDeclaration())
      continue;
    std::vector<llvm::Instruction *> reads;
    for (llvm::Instruction &inst : llvm::instructions(function))
      if (isDroppableRead(inst))
        reads.push_back(&inst);
    for (llvm::Instruction *read : reads) {
      llvm::IRBuilder<> builder(read->getNextNode());
      llvm::CallInst *use = builder.CreateCall(keep, {read});
      use->setDebugLoc(read->getDebugLoc());
    }
  }
}

void removeKeepAlive(llvm::Module &module) {
  llvm::Function *keep = module.getFunction(kKeepName);
  if (!keep)
    return;
  for (llvm::User *user : llvm::make_early_inc_range(keep->users()))
    llvm::cast<llvm::Instruction>(user)->eraseFromParent();
  keep->eraseFromParent();
}

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
  perFunction.addPass(llvm::SROAPass(llvm::SROAOptions::PreserveCFG));
  perFunction.addPass(llvm::PromotePass());
  perFunction.addPass(llvm::InferAddressSpacesPass(kGeneric));
  perFunction.addPass(llvm::InstSimplifyPass());
  perFunction.addPass(CfgCleanupPass());
  perFunction.addPass(llvm::InstSimplifyPass());
  perFunction.addPass(llvm::LoopSimplifyPass());

  llvm::ModulePassManager pipeline;
  pipeline.addPass(llvm::AlwaysInlinerPass(/*InsertLifetime=*/false));
  pipeline.addPass(llvm::GlobalDCEPass());
  pipeline.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(perFunction)));

  addKeepAlive(module);
  prepareForInlining(module, entry);
  pipeline.run(module, modules);
  removeKeepAlive(module);

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
