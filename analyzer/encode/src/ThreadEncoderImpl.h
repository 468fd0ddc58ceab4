//===- ThreadEncoderImpl.h - The ThreadEncoder class, shared by its files -*- C++ -*-===//
//
// Internal to encode/. One work-item's symbolic execution is an llvm::InstVisitor: each instruction family
// has its own file, and adding a construct means adding a visit method (or a built-in handler) there:
//   ThreadEncoder.cpp          the walk (run), values and pointers of operands, fresh values
//   EncodeControlFlow.cpp      block reach predicates, loops (one arbitrary iteration), phis, ScalarEvolution
//   EncodeMemory.cpp           alloca, getelementptr, load, store, atomicrmw/cmpxchg, access records,
//                              private variables read back
//   EncodeLoadedValues.cpp     what a load reads: captured read-only tables, open contents, captured words
//   EncodeArithmetic.cpp       integer and boolean arithmetic, comparisons, casts, select, vector lanes
//   EncodeCalls.cpp            calls: intrinsics, work-item queries, atomic and vector built-ins
//   EncodeWorkGroupFunctions.cpp  barrier, async_work_group_copy and wait_group_events
//   EncodeImages.cpp           read_image / write_image
//   IntegerBuiltins.cpp        min, max, clamp, abs, mul24, mad24
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ThreadEncoder.h"
#include "clcapture/model/Builtins.h"

#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstVisitor.h>
#include <llvm/IR/Instructions.h>
#include <map>
#include <optional>
#include <string>

namespace clcapture::encode {

/// Where a loop is, for messages: its start location, else the first instruction with a real line.
std::string loopPlace(const llvm::Loop &loop);

class ThreadEncoder : public llvm::InstVisitor<ThreadEncoder, format::Status> {
public:
  ThreadEncoder(EncodingState &state, unsigned thread)
      : m_s(state), m_tf(state.tf), m_thread(thread), m_dom(state.kernel), m_loops(m_dom), m_tli(m_tlii),
        m_ac(state.kernel), m_scev(state.kernel, m_tli, m_ac, m_dom, m_loops),
        m_epochBits(epochBitsFor(m_loops)) {}

  /// Barrier intervals are 16-bit numbers, or 64-bit when a loop holds a barrier (k iterations' worth of
  /// intervals must not wrap, m_barrierLoops); narrower terms are cheaper for the solver (a 64-bit width
  /// everywhere made atomics/histogram_plain_merge_race 40 s → 51 s). The same for both work-items.
  static unsigned epochBitsFor(const llvm::LoopInfo &loops);

  /// Walks the kernel's blocks in reverse post-order and encodes every instruction.
  format::Status run();

  // --- instruction families (InstVisitor) ---
  format::Status visitInstruction(llvm::Instruction &inst); ///< anything not listed below
  format::Status visitTerminator(llvm::Instruction &inst);
  format::Status visitPHINode(llvm::PHINode &phi);
  format::Status visitAllocaInst(llvm::AllocaInst &inst);
  format::Status visitGetElementPtrInst(llvm::GetElementPtrInst &inst);
  /// Bool: an index into an array-typed step of `gep` lies outside its array; nullopt when it has none.
  std::optional<cvc5::Term> indexBeyondArray(llvm::GetElementPtrInst &gep);
  format::Status visitLoadInst(llvm::LoadInst &inst);
  format::Status visitStoreInst(llvm::StoreInst &inst);
  format::Status visitAtomicRMWInst(llvm::AtomicRMWInst &inst);
  format::Status visitAtomicCmpXchgInst(llvm::AtomicCmpXchgInst &inst);
  format::Status visitCastInst(llvm::CastInst &inst);
  format::Status encodeFloatToInteger(llvm::CastInst &inst, const SymValue &v);
  format::Status visitBinaryOperator(llvm::BinaryOperator &inst);
  format::Status visitICmpInst(llvm::ICmpInst &inst);
  format::Status visitFCmpInst(llvm::FCmpInst &inst);
  format::Status visitSelectInst(llvm::SelectInst &inst);
  format::Status visitFreezeInst(llvm::FreezeInst &inst);
  format::Status visitFenceInst(llvm::FenceInst &inst);
  format::Status visitInsertElementInst(llvm::InsertElementInst &inst);
  format::Status visitExtractElementInst(llvm::ExtractElementInst &inst);
  format::Status visitShuffleVectorInst(llvm::ShuffleVectorInst &inst);
  format::Status visitCallBase(llvm::CallBase &call);

private:
  // --- values (ThreadEncoder.cpp) ---
  std::string name(const std::string &what) const { return what + (m_thread == 0 ? "_A" : "_B"); }
  SymValue freshValue(llvm::Type *type, const std::string &why);
  cvc5::Sort sortOf(llvm::Type *type);
  std::optional<SymValue> value(const llvm::Value *v);
  std::optional<SymPointer> pointer(const llvm::Value *v);
  std::optional<SymValue> operandValue(llvm::Instruction &inst, unsigned i) {
    return value(inst.getOperand(i));
  }
  /// The instruction's result is an unknown (an abstraction named by `why`).
  void unknownResult(llvm::Instruction &inst, const std::string &why);
  /// A witness must not reach `inst` where `undefined` holds (WitnessGuard): there the exact terms the
  /// instruction yields over-approximate what the kernel does.
  void guard(llvm::Instruction &inst, const cvc5::Term &undefined, const std::string &what);

  // --- control flow (EncodeControlFlow.cpp) ---
  cvc5::Term edge(const llvm::BasicBlock *from, const llvm::BasicBlock *to, Exactness &how);
  bool isBackEdge(const llvm::BasicBlock *from, const llvm::BasicBlock *to) const;
  format::Status enterBlock(llvm::BasicBlock &block);
  /// Whether every path from `dominator` reaches `block` within the same iteration of their loop (before
  /// any back edge to its header, any exit from it, any return): then `block` is reached exactly when
  /// `dominator` is, whatever the branches in between decide.
  bool reachedWhenever(const llvm::BasicBlock &dominator, const llvm::BasicBlock &block) const;
  format::Status enterLoop(llvm::Loop &loop);
  /// A loop whose body holds barriers: checks what the shared-iteration encoding needs (see m_barrierLoops)
  /// and records the intervals an iteration spans; fails with the reason otherwise. `taken`: the loop's
  /// back-edge count (TripCount::taken).
  format::Status enterBarrierLoop(llvm::Loop &loop, const std::optional<SymValue> &taken);
  std::optional<SymValue> fromScev(const llvm::SCEV *s);

  // --- what a load reads (EncodeLoadedValues.cpp) ---
  /// The value of a load of `type` at `ptr`: captured tables exactly, open contents, else a fresh value.
  SymValue loadValue(llvm::Instruction &inst, llvm::Type *type, const SymPointer &ptr, bool wordwise = true);
  /// The guard of a read of `type` at `ptr`: inside the captured bytes of a table, inside an open buffer's
  /// views (a witness must not read elsewhere).
  void guardRead(llvm::Instruction &inst, llvm::Type *type, const SymPointer &ptr);
  /// `size` bytes of a byte array (offset → byte) at `offset`, in the device's byte order, as `bits` bits.
  cvc5::Term readBytes(const cvc5::Term &array, const cvc5::Term &offset, unsigned size, unsigned bits);
  /// Whether a load of `type` reads memory's bytes as one value (scalars other than i1; vectors without
  /// padding or i1 lanes, on a little-endian device).
  bool readAsBytes(llvm::Type *type) const;
  /// Row 13d: the captured word `size` bytes wide at `offset` of open contents, when the offset is a
  /// constant inside a captured region whose bytes are kept.
  std::optional<cvc5::Term> capturedWordAt(const EncodingState::OpenContents &open, const cvc5::Term &offset,
                                           unsigned size);
  /// Row 13d: asserts that `value`, read `size` bytes wide at `offset` of open contents, lies within the
  /// captured words' range when the offset is a whole word of a captured region.
  void boundByCapturedWords(const EncodingState::OpenContents &open, const cvc5::Term &offset, unsigned size,
                            const cvc5::Term &value);

  // --- memory (EncodeMemory.cpp) ---
  /// `role` tells apart two accesses of one instruction (an async copy's write and read); `collective`
  /// marks an access the whole work-group makes together (an async copy).
  /// atomic_cmpxchg's write site (role 1), reached only when the call reads `expected`.
  void recordCompareExchange(llvm::CallBase &call, const SymPointer &at, unsigned bytes, bool atomic,
                             bool groupScoped, const SymValue &result);
  void recordAccess(llvm::Instruction &inst, const SymPointer &ptr, cvc5::Term size, Exactness sizeHow,
                    bool reads, bool writes, bool atomic, unsigned elementSize, const SymValue *stored,
                    unsigned role = 0, bool collective = false);
  /// The value a plain write stores from `operand`; an open one (`what`, or the slice's reason) when it has
  /// no term.
  SymValue storedValue(llvm::Value &operand, const std::string &what);
  /// Marks `inst`'s write record when the slice left its stored `operand` out (AccessRecord::valueSliced).
  void noteSlicedValue(llvm::Instruction &inst, const llvm::Value &operand);
  /// Records read `inst` of captured table `object` (EncodingState::distinctWordReads) when its words of
  /// `size` bytes, cut to `bits`, are pairwise distinct and its value may end up in an address.
  void noteDistinctWordRead(const llvm::Instruction &inst, std::uint64_t object, unsigned size, unsigned bits,
                            const cvc5::Term &offset, const cvc5::Term &value);
  /// A pointer's bits as an integer of `bits` bits: its object's address (open, EncodingState::
  /// objectAddresses) plus its offset. Inexact (`why`): addresses are the driver's choice.
  SymValue addressBits(const SymPointer &ptr, unsigned bits, const std::string &why);
  /// The pointer stored last (on this work-item's path) at `at` in private memory, read as a pointer into
  /// `space`: private pointer variables, arrays of pointers or of events (see m_privatePointerStores).
  std::optional<SymPointer> privatePointerAt(llvm::Instruction &inst, const SymPointer &at,
                                             MemorySpace space);
  /// A store of `bytes` bytes to private memory; `stored` is the pointer it writes, or null for anything
  /// else (which makes a pointer read back from those bytes unknown); `value` the value it writes, if known.
  void notePrivateStore(llvm::Instruction &inst, const SymPointer &at, cvc5::Term bytes,
                        const SymPointer *stored, const SymValue *value = nullptr);
  /// The value a load reads from a private variable whose address never escapes (only loaded from and
  /// stored to: volatile variables, arrays indexed by a value): the one the last store to the same
  /// place wrote on this work-item's path. nullopt for other private memory (its values stay open).
  std::optional<SymValue> privateValueAt(llvm::LoadInst &load, const SymPointer &at);

  // --- calls (EncodeCalls.cpp) ---
  format::Status encodeIntrinsic(llvm::IntrinsicInst &call);
  format::Status encodeWorkItemQuery(llvm::CallBase &call, const model::Builtin &b);
  format::Status encodeAtomicBuiltin(llvm::CallBase &call, const model::Builtin &b);
  format::Status encodeVectorMemory(llvm::CallBase &call, const model::Builtin &b);

  // --- work-group functions (EncodeWorkGroupFunctions.cpp) ---
  format::Status encodeBarrier(llvm::CallBase &call);
  format::Status encodeAsyncCopy(llvm::CallBase &call, const model::Builtin &b);
  format::Status encodeWaitEvents(llvm::CallBase &call);
  format::Status encodeCollective(llvm::CallBase &call, const model::Builtin &b);
  /// Records this work-item's view of a work-group function call: its reach and the arguments the whole
  /// group must pass alike (checked by KernelEncoding::checkDivergence).
  void recordWorkGroupCall(llvm::CallBase &call, const std::string &function, unsigned fences,
                           std::vector<cvc5::Term> uniformArgs, Exactness argsHow);
  /// The event an event_t value names (64-bit: the bit of the copy that started it, 0 for none; see
  /// kEventObject).
  SymValue eventOf(const SymPointer &event);

  // --- images (EncodeImages.cpp) ---
  format::Status encodeImageAccess(llvm::CallBase &call, bool write);
  /// The named variables (source names of PHI nodes: loop counters, variables assigned in branches) that
  /// the values in `roots` are computed from, with their terms, at most four.
  std::vector<std::pair<std::string, cvc5::Term>>
  indexVariables(const std::vector<const llvm::Value *> &roots);
  /// get_image_width, _height, _depth, _array_size and _dim of an image whose extents the capture gives.
  std::optional<SymValue> imageQuery(llvm::CallBase &call, const std::string &name);

  // --- integer built-ins (IntegerBuiltins.cpp) ---
  /// min, max, clamp, abs, mul24 and mad24 on integer scalars and vectors (lane by lane), exactly; nullopt
  /// for anything else.
  std::optional<SymValue> integerBuiltin(llvm::CallBase &call, const std::string &name);
  /// One lane of integerBuiltin; `outside` collects mul24/mad24 operands outside their 24-bit range.
  std::optional<cvc5::Term> integerBuiltinLane(const std::string &name, bool isSigned,
                                               const std::vector<cvc5::Term> &args, cvc5::Term &outside);

  EncodingState &m_s;
  TermFactory &m_tf;
  unsigned m_thread;
  llvm::DominatorTree m_dom;
  llvm::LoopInfo m_loops;
  llvm::TargetLibraryInfoImpl m_tlii;
  llvm::TargetLibraryInfo m_tli;
  llvm::AssumptionCache m_ac;
  llvm::ScalarEvolution m_scev;

  std::map<const llvm::Value *, SymValue> m_values;
  std::map<const llvm::Value *, SymPointer> m_pointers;
  std::map<const llvm::BasicBlock *, cvc5::Term> m_reach;
  std::map<const llvm::BasicBlock *, Exactness> m_reachHow;
  std::map<const llvm::BasicBlock *, std::pair<cvc5::Term, cvc5::Term>> m_epochOut; ///< (local, global)
  std::pair<cvc5::Term, cvc5::Term> m_epoch;
  /// The async copies complete so far (one bit per copy site, 64-bit; see AccessRecord::done), per
  /// block's end and now.
  std::map<const llvm::BasicBlock *, SymValue> m_doneOut;
  SymValue m_done;
  /// Stores to private memory, in the order encoded (reverse post-order, so the last one on any path is
  /// last here): a pointer read back from private memory is the value of the last matching one.
  struct PrivateStore {
    const llvm::BasicBlock *block = nullptr;
    cvc5::Term object, offset, bytes;  ///< where (64-bit terms)
    std::optional<SymPointer> pointer; ///< the pointer stored; absent: other bytes
    std::optional<SymValue> value;     ///< the (non-pointer) value stored, when known
  };
  std::vector<PrivateStore> m_privateStores;
  std::map<std::uint64_t, std::uint64_t> m_privateBytes; ///< private object (alloca) → its size in bytes
  std::map<std::uint64_t, const llvm::AllocaInst *> m_privateAllocas; ///< private object → its alloca
  std::map<const llvm::AllocaInst *, bool> m_followedAllocas; ///< onlyLoadedAndStored, once per variable
  /// The async copies encoded so far: each copy's bit, the event it belongs to (the bit of the copy that
  /// started the event: a copy given an event joins it) and its reach. A wait completes the copies of the
  /// events it names that were issued before it.
  struct IssuedCopy {
    cvc5::Term bit, event, reach;
  };
  std::vector<IssuedCopy> m_issuedCopies;
  std::map<const llvm::Loop *, cvc5::Term> m_iteration; ///< 64-bit iteration variable of a loop
  std::map<const llvm::Loop *, cvc5::Term> m_loopEntry; ///< the loop is entered
  std::map<const llvm::Loop *, Exactness> m_loopHow;
  /// A loop's back-edge count, read once, when enterLoop enters its header.
  struct TripCount {
    bool computable = false;       ///< ScalarEvolution has an exact count (which fromScev may still not read)
    std::optional<SymValue> taken; ///< that count as a term, when fromScev reads it
    cvc5::Term bound;              ///< Bool: the iteration variable k ≤ taken; null without `taken`
  };
  std::map<const llvm::Loop *, TripCount> m_tripCounts;
  /// Loops with barriers, encoded at one iteration k per work-item like any loop, with the barrier
  /// intervals counted: iteration k starts at interval entry + k·perIteration (per fence), and the code
  /// after the loop is in the interval the exiting block is in at k = taken (the last iteration). Two
  /// work-items of a group are in one interval only at the same iteration (or the end of k and the start
  /// of k + 1), and a barrier is checked for divergence at the same k for both (BarrierRecord::iterations).
  struct BarrierLoop {
    std::pair<cvc5::Term, cvc5::Term> perIteration; ///< 64-bit (local, global) intervals per iteration
    cvc5::Term taken;                               ///< 64-bit: times the back edge is taken (exact)
  };
  std::map<const llvm::Loop *, BarrierLoop> m_barrierLoops;
  unsigned m_epochBits;
  std::map<const llvm::BasicBlock *, unsigned> m_rpoIndex;
  unsigned m_fresh = 0;
  std::uint64_t m_visited = 0; ///< instructions visited (the memory budget is looked at every 256)
  std::uint64_t m_nextPrivate = 0;
};

} // namespace clcapture::encode
