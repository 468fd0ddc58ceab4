//===- Optimiser.cpp - LLVM's standard pipeline, as a driver runs it ------===//

#include "Optimiser.h"

#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/raw_ostream.h>

namespace clcapture::frontend {

format::Status optimiseModule(llvm::Module &module, unsigned level) {
  if (level == 0)
    return {};
  // Clang's BackendUtil at -O<level>: unrolling and interleaving on; loop and SLP vectorisation from -O2.
  llvm::PipelineTuningOptions tuning;
  tuning.LoopUnrolling = true;
  tuning.LoopInterleaving = true;
  tuning.LoopVectorization = level >= 2;
  tuning.SLPVectorization = level >= 2;

  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::TargetLibraryInfoImpl libraryInfo(llvm::Triple(module.getTargetTriple()));
  functions.registerPass([&] { return llvm::TargetLibraryAnalysis(libraryInfo); });
  llvm::PassBuilder builder(/*TM=*/nullptr, tuning);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);

  llvm::OptimizationLevel optimization = level == 1   ? llvm::OptimizationLevel::O1
                                         : level == 2 ? llvm::OptimizationLevel::O2
                                                      : llvm::OptimizationLevel::O3;
  llvm::ModulePassManager pipeline = builder.buildPerModuleDefaultPipeline(optimization);
  pipeline.run(module, modules);

  std::string problems;
  llvm::raw_string_ostream problemStream(problems);
  if (llvm::verifyModule(module, &problemStream))
    return format::fail("internal error: LLVM's -O" + std::to_string(level) +
                        " pipeline produced invalid IR: " + problemStream.str());
  return {};
}

} // namespace clcapture::frontend
