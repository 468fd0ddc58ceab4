//===- LaunchSpecializer.cpp - The kernel, for this one launch -----------===//

#include "clcapture/model/LaunchSpecializer.h"

#include "clcapture/frontend/CfgCleanup.h"
#include "clcapture/frontend/KeepReads.h"
#include "clcapture/frontend/ProgramVariables.h"
#include "clcapture/model/Builtins.h"
#include "clcapture/model/UndefinedByValues.h"

#include <array>
#include <cstring>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Transforms/Scalar/CorrelatedValuePropagation.h>
#include <llvm/Transforms/Scalar/InstSimplifyPass.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>
#include <llvm/Transforms/Scalar/LoopUnrollPass.h>
#include <llvm/Transforms/Scalar/SCCP.h>
#include <llvm/Transforms/Utils/LCSSA.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <map>

namespace clcapture::model {

std::optional<llvm::APInt> capturedScalarBits(const std::vector<std::uint8_t> &bytes, unsigned bits,
                                              format::Endianness order) {
  if (bits == 0 || bytes.empty())
    return std::nullopt;
  // docs/contract.md §3: the value is one integer, the bytes in the device's order; shorter than the
  // parameter means leading zeros, longer must be zeros beyond the parameter.
  llvm::APInt value(static_cast<unsigned>(bytes.size() * 8), 0);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    std::size_t significance = order == format::Endianness::Little ? i : bytes.size() - 1 - i;
    value.insertBits(llvm::APInt(8, bytes[i]), static_cast<unsigned>(significance * 8));
  }
  if (value.getActiveBits() > bits)
    return std::nullopt;
  return value.zextOrTrunc(bits);
}

bool applyRequiredWorkGroupSize(const llvm::Function &kernel, LaunchConfig &launch) {
  if (launch.localSize)
    return false;
  const llvm::MDNode *md = kernel.getMetadata("reqd_work_group_size");
  if (!md || md->getNumOperands() != 3)
    return false;
  std::array<std::uint64_t, 3> local{1, 1, 1};
  for (unsigned d = 0; d < 3; ++d) {
    auto *c = llvm::mdconst::dyn_extract<llvm::ConstantInt>(md->getOperand(d));
    if (!c || c->isZero())
      return false;
    local[d] = c->getZExtValue();
    std::uint64_t global = d < launch.workDim ? launch.globalSize[d] : 1;
    if (global % local[d] != 0)
      return false; // such a launch fails (CL_INVALID_WORK_GROUP_SIZE); say nothing
  }
  launch.localSize = local;
  return true;
}

namespace {

/// The bytes of a captured scalar as a constant of `type` (integers and floating point), through
/// capturedScalarBits: a value shorter than its parameter ("0x1" for an int) is zero-extended.
llvm::Constant *constantOf(llvm::Type *type, const std::vector<std::uint8_t> &bytes,
                           format::Endianness order) {
  auto bits = static_cast<unsigned>(type->getPrimitiveSizeInBits().getFixedValue());
  if (bits == 0 || !(type->isIntegerTy() || type->isFloatingPointTy()))
    return nullptr;
  std::optional<llvm::APInt> value = capturedScalarBits(bytes, bits, order);
  if (!value)
    return nullptr;
  if (type->isIntegerTy())
    return llvm::ConstantInt::get(type, *value);
  return llvm::ConstantFP::get(type->getContext(), llvm::APFloat(type->getFltSemantics(), *value));
}

/// What the capture says a work-item query returns for dimension `d`; nullopt when it depends on the
/// work-item or the capture does not say.
std::optional<std::uint64_t> queryValue(BuiltinKind kind, unsigned d, const LaunchConfig &c) {
  bool inRange = d < c.workDim;
  switch (kind) {
  case BuiltinKind::GlobalSize:
    return inRange ? c.globalSize[d] : 1;
  case BuiltinKind::LocalSize:
  case BuiltinKind::EnqueuedLocalSize:
    if (!inRange)
      return 1;
    if (kind == BuiltinKind::LocalSize && c.partialLastGroup[d])
      return std::nullopt; // the last group's is smaller: it depends on the work-item
    if (c.localSize)
      return (*c.localSize)[d];
    return std::nullopt;
  case BuiltinKind::NumGroups:
    if (!inRange)
      return 1;
    if (c.localSize)
      return (c.globalSize[d] + (*c.localSize)[d] - 1) / (*c.localSize)[d];
    return std::nullopt;
  case BuiltinKind::GlobalOffset:
    return inRange ? c.globalOffset[d] : 0;
  case BuiltinKind::GlobalId:
  case BuiltinKind::LocalId:
  case BuiltinKind::GroupId:
    // OpenCL 1.2 §6.12.1: out-of-range dimensions answer 0.
    if (!inRange)
      return 0;
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

unsigned foldQueries(llvm::Function &kernel, const LaunchConfig &launch) {
  unsigned folded = 0;
  std::vector<llvm::CallInst *> calls;
  for (llvm::Instruction &inst : llvm::instructions(kernel))
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
      if (call->getCalledFunction())
        calls.push_back(call);
  for (llvm::CallInst *call : calls) {
    Builtin b = classifyBuiltin(*call->getCalledFunction());
    std::optional<std::uint64_t> value;
    if (b.kind == BuiltinKind::WorkDim) {
      value = launch.workDim;
    } else if (call->arg_size() == 1) {
      auto *dim = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(0));
      if (!dim)
        continue;
      value = queryValue(b.kind, static_cast<unsigned>(dim->getZExtValue()), launch);
    }
    if (!value || !call->getType()->isIntegerTy())
      continue;
    call->replaceAllUsesWith(llvm::ConstantInt::get(call->getType(), *value));
    call->eraseFromParent();
    ++folded;
  }
  return folded;
}

/// The values a work-item query that stays a call can return in this launch, [lo, hi); nullopt when the
/// capture says nothing that bounds it.
std::optional<std::pair<std::uint64_t, std::uint64_t>> queryRange(BuiltinKind kind, unsigned d,
                                                                  const LaunchConfig &c) {
  if (d >= c.workDim)
    return std::nullopt; // folded to constants already
  std::uint64_t global = c.globalSize[d];
  // Without a captured local size, any legal one: at most the global size.
  std::uint64_t local = c.localSize ? (*c.localSize)[d] : global;
  std::uint64_t groups = c.localSize ? (global + local - 1) / local : global;
  switch (kind) {
  case BuiltinKind::GlobalId:
    return std::make_pair(c.globalOffset[d], c.globalOffset[d] + global);
  case BuiltinKind::LocalId:
    return std::make_pair(std::uint64_t{0}, local);
  case BuiltinKind::GroupId:
    return std::make_pair(std::uint64_t{0}, groups);
  case BuiltinKind::LocalSize:
    return std::make_pair(std::uint64_t{1}, local + 1);
  case BuiltinKind::NumGroups:
    return std::make_pair(std::uint64_t{1}, groups + 1);
  default:
    return std::nullopt;
  }
}

/// Gives each work-item query left as a call the range of values it takes in this launch (`!range`), so
/// that CorrelatedValuePropagation knows get_global_id(0) < 54: `x % 20` on a non-negative int becomes an
/// unsigned remainder of 8 bits, which the solver bit-blasts in a fraction of the 32-bit signed one's
/// circuit. The encoder bounds the same queries by the same launch (setUpLaunch), so the metadata adds no
/// fact the encoding does not hold.
unsigned annotateQueryRanges(llvm::Function &kernel, const LaunchConfig &launch) {
  unsigned annotated = 0;
  for (llvm::Instruction &inst : llvm::instructions(kernel)) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(&inst);
    if (!call || !call->getCalledFunction() || call->arg_size() != 1 || !call->getType()->isIntegerTy())
      continue;
    auto *dim = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(0));
    if (!dim)
      continue;
    Builtin b = classifyBuiltin(*call->getCalledFunction());
    auto range = queryRange(b.kind, static_cast<unsigned>(dim->getZExtValue()), launch);
    unsigned bits = call->getType()->getIntegerBitWidth();
    if (!range || range->first >= range->second || (bits < 64 && range->second > (std::uint64_t{1} << bits)))
      continue;
    llvm::LLVMContext &ctx = kernel.getContext();
    llvm::Type *type = call->getType();
    // [lo, hi) with hi = 2^bits wraps to 0, which !range reads as the full set; the launch never reaches it.
    llvm::Metadata *bounds[2] = {llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(type, range->first)),
                                 llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(type, range->second))};
    call->setMetadata(llvm::LLVMContext::MD_range, llvm::MDNode::get(ctx, bounds));
    ++annotated;
  }
  return annotated;
}

unsigned foldArguments(llvm::Function &kernel, const LaunchConfig &launch) {
  unsigned folded = 0;
  for (llvm::Argument &arg : kernel.args()) {
    if (arg.getArgNo() >= launch.arguments.size() || arg.use_empty())
      continue;
    const ArgumentFact &fact = launch.arguments[arg.getArgNo()];
    if (fact.kind != ArgumentFact::Kind::Scalar || !fact.bytes || arg.getType()->isPointerTy())
      continue;
    if (llvm::Constant *c = constantOf(arg.getType(), *fact.bytes, launch.endianness)) {
      arg.replaceAllUsesWith(c);
      ++folded;
    }
  }
  return folded;
}

/// Whether the encoder's shared-iteration form of a barrier loop (ThreadEncoder::enterBarrierLoop, ledger
/// row 28) takes this loop: it holds a barrier, every barrier is in the loop's own body with constant
/// fence flags and on every path through an iteration (its block dominates the latch), no other
/// work-group function is in the loop, and the loop has one exiting block. (Its trip count is a
/// constant here.) Anything else is unrolled as before, since the encoder would refuse it.
bool sharedIterationFits(const llvm::Loop &loop, const llvm::LoopInfo &loops,
                         const llvm::DominatorTree &dominators) {
  const llvm::BasicBlock *latch = loop.getLoopLatch();
  const llvm::BasicBlock *exiting = loop.getExitingBlock();
  if (!latch || !exiting || loops.getLoopFor(exiting) != &loop)
    return false;
  bool barrier = false;
  for (const llvm::BasicBlock *block : loop.blocks())
    for (const llvm::Instruction &inst : *block) {
      const auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
      if (!call || !call->getCalledFunction())
        continue;
      Builtin b = classifyBuiltin(*call->getCalledFunction());
      if (b.kind != BuiltinKind::Barrier) {
        if (isWorkGroupFunction(b.kind))
          return false;
        continue;
      }
      if (loops.getLoopFor(block) != &loop || !dominators.dominates(block, latch) ||
          !llvm::isa<llvm::ConstantInt>(call->getArgOperand(0)))
        return false;
      barrier = true;
    }
  return barrier;
}

/// Marks every loop with a constant trip count up to `maxTrip` for full unrolling (and nothing else), so
/// that LoopFullUnrollPass, run only for forced loops, unrolls exactly those. Returns how many were marked.
unsigned markSmallLoops(llvm::Function &kernel, llvm::LoopInfo &loops, llvm::ScalarEvolution &scev,
                        const llvm::DominatorTree &dominators, const SpecializeOptions &options) {
  unsigned marked = 0;
  // A budget on the unrolled kernel's size: nested loops multiply (200 × 100 × 100 iterations of a helper
  // is millions of instructions, minutes before any query). Inner loops first; a loop's size counts its
  // inner loops as they will be; a loop that would take the kernel past the budget stays a loop.
  std::uint64_t total = kernel.getInstructionCount();
  std::map<const llvm::Loop *, std::uint64_t> sizeAfter;
  auto preorder = loops.getLoopsInPreorder();
  for (auto it = preorder.rbegin(); it != preorder.rend(); ++it) {
    llvm::Loop *loop = *it;
    std::uint64_t size = 0;
    for (llvm::BasicBlock *block : loop->blocks())
      if (loops.getLoopFor(block) == loop)
        size += block->size();
    for (llvm::Loop *inner : loop->getSubLoops())
      size += sizeAfter[inner];
    sizeAfter[loop] = size;
    // An exact trip count, or else a constant upper bound (a loop left by a break: it is unrolled to the
    // bound with every exit kept, so it still leaves where it did).
    unsigned trip = scev.getSmallConstantTripCount(loop);
    bool exactTrip = trip != 0;
    if (trip == 0)
      trip = scev.getSmallConstantMaxTripCount(loop);
    if (trip == 0 || trip > options.maxUnrollTripCount ||
        llvm::findOptionMDForLoop(loop, "llvm.loop.unroll.full"))
      continue;
    std::uint64_t growth = size * (trip - 1);
    if (total + growth > options.maxUnrolledInstructions)
      continue;
    // A large barrier loop stays a loop when the shared-iteration encoding can take it: each query then
    // holds one iteration's accesses, where the unrolled form holds every iteration's (OpenCV's
    // integral_sum_rows: 61 iterations of 600 instructions, past any time limit unrolled, 4 s as a loop).
    if (exactTrip && growth > options.maxUnrolledBarrierLoopGrowth &&
        sharedIterationFits(*loop, loops, dominators))
      continue;
    total += growth;
    sizeAfter[loop] = size * trip;
    // Clang already gives loops an id (llvm.loop.mustprogress …): keep its properties, add ours.
    llvm::LLVMContext &ctx = loop->getHeader()->getContext();
    llvm::SmallVector<llvm::Metadata *, 4> ops{nullptr};
    if (llvm::MDNode *old = loop->getLoopID())
      for (unsigned i = 1; i < old->getNumOperands(); ++i)
        ops.push_back(old->getOperand(i));
    ops.push_back(llvm::MDNode::get(ctx, llvm::MDString::get(ctx, "llvm.loop.unroll.full")));
    llvm::MDNode *id = llvm::MDNode::getDistinct(ctx, ops);
    id->replaceOperandWith(0, id);
    loop->setLoopID(id);
    ++marked;
  }
  return marked;
}

} // namespace

SpecializeReport specializeToLaunch(llvm::Function &kernel, const LaunchConfig &launch,
                                    const SpecializeOptions &options) {
  SpecializeReport report;
  report.argumentsFolded = foldArguments(kernel, launch);
  report.queriesFolded = foldQueries(kernel, launch);
  annotateQueryRanges(kernel, launch);

  llvm::PassBuilder builder;
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);

  // Reads whose value is unused must survive (they can race): InstSimplify and the unroller delete dead
  // loads, so each read keeps a use until the end (frontend/KeepReads.h). CFG clean-up is the frontend's,
  // which never moves an instruction (SimplifyCFG speculates loads and stores).
  auto simplify = [&] {
    llvm::FunctionPassManager fpm;
    fpm.addPass(frontend::KeepReadsPass());
    fpm.addPass(frontend::FoldUnwrittenLoadsPass()); // program-scope variables are no LLVM constants
    fpm.addPass(llvm::InstSimplifyPass());
    fpm.addPass(llvm::SCCPPass());
    fpm.addPass(llvm::CorrelatedValuePropagationPass());
    fpm.addPass(frontend::CfgCleanupPass());
    fpm.addPass(frontend::FoldUnwrittenLoadsPass());
    fpm.addPass(llvm::InstSimplifyPass());
    fpm.addPass(llvm::LoopSimplifyPass());
    fpm.addPass(llvm::LCSSAPass());
    fpm.run(kernel, fam);
  };
  // Before each clean-up: values that leave an instruction undefined would let it erase behaviours.
  if ((report.undefined = undefinedByValues(kernel)))
    return report;
  simplify();
  // Unrolling an outer loop can make an inner loop's trip count constant (and the other way round): a few
  // rounds, each unrolling what has become countable.
  for (int round = 0; round < 4; ++round) {
    auto &loops = fam.getResult<llvm::LoopAnalysis>(kernel);
    auto &scev = fam.getResult<llvm::ScalarEvolutionAnalysis>(kernel);
    auto &dominators = fam.getResult<llvm::DominatorTreeAnalysis>(kernel);
    unsigned marked = markSmallLoops(kernel, loops, scev, dominators, options);
    if (marked == 0)
      break;
    llvm::FunctionPassManager fpm;
    fpm.addPass(llvm::createFunctionToLoopPassAdaptor(
        llvm::LoopFullUnrollPass(/*OptLevel=*/2, /*OnlyWhenForced=*/true, /*ForgetSCEV=*/false)));
    // Loops with only a maximum trip count: LoopUnrollPass unrolls those to the bound when asked to.
    fpm.addPass(llvm::LoopUnrollPass(
        llvm::LoopUnrollOptions(/*OptLevel=*/2, /*OnlyWhenForced=*/true, /*ForgetSCEV=*/false)
            .setPartial(false)
            .setRuntime(false)
            .setPeeling(false)
            .setUpperBound(true)
            .setFullUnrollMaxCount(options.maxUnrollTripCount)));
    fpm.run(kernel, fam);
    fam.invalidate(kernel, llvm::PreservedAnalyses::none());
    report.loopsUnrolled += marked;
    if ((report.undefined = undefinedByValues(kernel)))
      return report;
    simplify();
  }
  fam.invalidate(kernel, llvm::PreservedAnalyses::none());
  frontend::removeKeepReads(*kernel.getParent());
  return report;
}

} // namespace clcapture::model
