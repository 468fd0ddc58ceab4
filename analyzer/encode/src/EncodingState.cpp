//===- EncodingState.cpp - The solver set-up and the site and barrier tables ----===//

#include "EncodingState.h"

#include "clcapture/model/Builtins.h"

#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace clcapture::encode {

namespace {

bool callsAtomicReadModifyWrite(const llvm::Function &kernel) {
  for (const llvm::Instruction &inst : llvm::instructions(kernel))
    if (const auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
      if (const llvm::Function *callee = call->getCalledFunction())
        if (model::classifyBuiltin(*callee).kind == model::BuiltinKind::AtomicRmw)
          return true;
  return false;
}

} // namespace

EncodingState::EncodingState(llvm::Function &k, const model::LaunchConfig &l, const EncodeOptions &o)
    : kernel(k), launch(l), options(o), layout(k.getParent()->getDataLayout()) {
  solver.setOption("produce-models", "true");
  solver.setOption("incremental", "true");
  solver.setLogic("QF_ABVFP"); // floating point: comparisons only (visitFCmpInst)
  // Kernels with atomic read-modify-writes: the SAT solver's own decisions, not cvc5's default
  // justification heuristic, which walks the assertions' structure at every decision and stalls on the
  // counter facts (stateCounterFacts) over a table of captured words — 50 s a query in
  // atomics/histogram_plain_merge_race, 1.9 s for the whole launch this way. Elsewhere justification is
  // the faster one (data/captured_permutation_iota: 13 s against 79 s), so it stays the default.
  if (callsAtomicReadModifyWrite(k))
    solver.setOption("decision", "internal");
}

unsigned EncodingState::siteFor(const llvm::Instruction *inst, unsigned role) {
  auto it = siteOf.find({inst, role});
  if (it != siteOf.end())
    return it->second;
  unsigned id = static_cast<unsigned>(sites.size());
  AccessSite site;
  site.id = id;
  site.inst = inst;
  sites.push_back(site);
  siteOf[{inst, role}] = id;
  for (auto &r : records)
    r.resize(sites.size());
  return id;
}

unsigned EncodingState::barrierFor(const llvm::Instruction *inst, unsigned fences,
                                   const std::string &function) {
  auto it = barrierOf.find(inst);
  if (it != barrierOf.end())
    return it->second;
  unsigned id = static_cast<unsigned>(barriers.size());
  barriers.push_back(BarrierSite{id, inst, fences, function});
  barrierOf[inst] = id;
  for (auto &r : barrierRecords)
    r.resize(barriers.size());
  return id;
}

} // namespace clcapture::encode
