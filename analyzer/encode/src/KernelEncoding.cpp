//===- KernelEncoding.cpp - GPUVerify's two-thread reduction, in CVC5 ----===//

#include "clcapture/encode/KernelEncoding.h"

#include "EncodingState.h"
#include "ThreadEncoder.h"
#include "clcapture/format/CaptureBlobs.h"
#include "clcapture/model/Builtins.h"
#include "clcapture/model/LaunchSpecializer.h"

#include <llvm/Analysis/ConstantFolding.h>
#include <llvm/IR/Constants.h>
#include <llvm/BinaryFormat/Dwarf.h>
#include <llvm/IR/DebugInfo.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

namespace clcapture::encode {

struct KernelEncoding::Impl {
  Impl(llvm::Function &kernel, const model::LaunchConfig &launch, const EncodeOptions &options)
      : state(kernel, launch, options) {}
  EncodingState state;
};

namespace {

bool callsAtomicReadModifyWrite(const llvm::Function &kernel) {
  for (const llvm::Instruction &inst : llvm::instructions(kernel))
    if (const auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
      if (const llvm::Function *callee = call->getCalledFunction())
        if (model::classifyBuiltin(*callee).kind == model::BuiltinKind::AtomicRmw)
          return true;
  return false;
}

/// The value of a bit-vector constant of at most 64 bits.
std::uint64_t constantOf(const cvc5::Term &t) { return std::stoull(t.getBitVectorValue(10)); }

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

unsigned EncodingState::barrierFor(const llvm::Instruction *inst, unsigned fences, const std::string &function) {
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

namespace {

/// The top-level members of a struct passed by value, by byte offset, from the kernel's debug info
/// (empty without it).
std::map<std::uint64_t, std::string> memberNames(llvm::Argument &arg) {
  std::map<std::uint64_t, std::string> names;
  for (llvm::DbgDeclareInst *declare : llvm::FindDbgDeclareUses(&arg)) {
    const llvm::DIType *type = declare->getVariable()->getType();
    while (const auto *derived = llvm::dyn_cast_or_null<llvm::DIDerivedType>(type)) {
      unsigned tag = derived->getTag();
      if (tag != llvm::dwarf::DW_TAG_typedef && tag != llvm::dwarf::DW_TAG_const_type &&
          tag != llvm::dwarf::DW_TAG_volatile_type)
        break;
      type = derived->getBaseType();
    }
    if (const auto *composite = llvm::dyn_cast_or_null<llvm::DICompositeType>(type))
      for (const llvm::DINode *element : composite->getElements())
        if (const auto *member = llvm::dyn_cast<llvm::DIDerivedType>(element);
            member && member->getTag() == llvm::dwarf::DW_TAG_member && !member->getName().empty())
          names.emplace(member->getOffsetInBits() / 8, member->getName().str());
  }
  return names;
}

/// The argument's source name: the capture's, else the debug info's, else argN.
std::string argumentName(const llvm::Argument &arg, const model::LaunchConfig &launch) {
  if (arg.getArgNo() < launch.arguments.size() && !launch.arguments[arg.getArgNo()].name.empty())
    return launch.arguments[arg.getArgNo()].name;
  if (arg.hasName())
    return arg.getName().str();
  return "arg" + std::to_string(arg.getArgNo());
}

/// The objects a pointer may point into, found by walking back through address arithmetic; nullopt when it
/// leads somewhere the walk cannot follow (then any object may be meant).
std::optional<std::set<const llvm::Value *>> rootsOf(const llvm::Value *v, int depth = 0) {
  if (depth > 64)
    return std::nullopt;
  v = v->stripPointerCasts();
  if (llvm::isa<llvm::Argument>(v) || llvm::isa<llvm::GlobalVariable>(v) || llvm::isa<llvm::AllocaInst>(v))
    return std::set<const llvm::Value *>{v};
  if (auto *gep = llvm::dyn_cast<llvm::GEPOperator>(v))
    return rootsOf(gep->getPointerOperand(), depth + 1);
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(v)) {
    // A pointer read back from a private variable or array: any pointer stored to those allocas.
    auto places = rootsOf(load->getPointerOperand(), depth + 1);
    if (!places)
      return std::nullopt;
    for (const llvm::Value *place : *places)
      if (!llvm::isa<llvm::AllocaInst>(place))
        return std::nullopt;
    std::set<const llvm::Value *> all;
    for (const llvm::Instruction &inst : llvm::instructions(*load->getFunction()))
      if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst))
        if (store->getValueOperand()->getType()->isPointerTy()) {
          auto to = rootsOf(store->getPointerOperand(), depth + 1);
          if (!to)
            return std::nullopt;
          bool hits = false;
          for (const llvm::Value *t : *to)
            hits = hits || places->count(t);
          if (!hits)
            continue;
          auto r = rootsOf(store->getValueOperand(), depth + 1);
          if (!r)
            return std::nullopt;
          all.insert(r->begin(), r->end());
        }
    return all;
  }
  if (auto *cast = llvm::dyn_cast<llvm::AddrSpaceCastOperator>(v))
    return rootsOf(cast->getPointerOperand(), depth + 1);
  std::vector<const llvm::Value *> from;
  if (auto *phi = llvm::dyn_cast<llvm::PHINode>(v))
    for (const llvm::Value *in : phi->incoming_values())
      from.push_back(in);
  else if (auto *sel = llvm::dyn_cast<llvm::SelectInst>(v))
    from = {sel->getTrueValue(), sel->getFalseValue()};
  else
    return std::nullopt;
  std::set<const llvm::Value *> all;
  static thread_local std::set<const llvm::Value *> visiting;
  if (!visiting.insert(v).second)
    return all; // a cycle through phis: its other inputs decide
  for (const llvm::Value *in : from) {
    auto r = rootsOf(in, depth + 1);
    if (!r) {
      visiting.erase(v);
      return std::nullopt;
    }
    all.insert(r->begin(), r->end());
  }
  visiting.erase(v);
  return all;
}

/// The pointer operand of every instruction that may write global memory (stores, atomics, vstore, memcpy
/// and memset destinations), with the instruction.
std::vector<std::pair<const llvm::Instruction *, const llvm::Value *>> writtenPointers(llvm::Function &kernel) {
  std::vector<std::pair<const llvm::Instruction *, const llvm::Value *>> out;
  for (llvm::Instruction &inst : llvm::instructions(kernel)) {
    if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst))
      out.emplace_back(&inst, store->getPointerOperand());
    else if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&inst))
      out.emplace_back(&inst, rmw->getPointerOperand());
    else if (auto *cx = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&inst))
      out.emplace_back(&inst, cx->getPointerOperand());
    else if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst)) {
      llvm::Function *callee = call->getCalledFunction();
      if (!callee)
        continue;
      if (auto *intr = llvm::dyn_cast<llvm::IntrinsicInst>(call)) {
        if (intr->getIntrinsicID() == llvm::Intrinsic::memcpy || intr->getIntrinsicID() == llvm::Intrinsic::memmove ||
            intr->getIntrinsicID() == llvm::Intrinsic::memset)
          out.emplace_back(&inst, call->getArgOperand(0));
        continue;
      }
      model::Builtin b = model::classifyBuiltin(*callee);
      if (b.kind == model::BuiltinKind::AtomicRmw || b.kind == model::BuiltinKind::AtomicStore ||
          b.kind == model::BuiltinKind::AsyncCopy)
        out.emplace_back(&inst, call->getArgOperand(0));
      else if (b.kind == model::BuiltinKind::WaitEvents || b.kind == model::BuiltinKind::WorkGroupCollective)
        continue; // they write no memory
      else if (b.kind == model::BuiltinKind::VectorStore && call->arg_size() > 2)
        out.emplace_back(&inst, call->getArgOperand(2));
      else
        for (llvm::Value *arg : call->args())
          if (arg->getType()->isPointerTy())
            out.emplace_back(&inst, arg);
    }
  }
  return out;
}

/// The OpenCL C type of parameter `no` in OpenCL's spelling ("int", "uint", "int2"), from Clang's
/// kernel_arg_base_type (typedefs resolved: "unsigned int", "int __attribute__((ext_vector_type(2)))"), or ""
/// when the metadata is missing.
std::string argumentType(const llvm::Function &kernel, unsigned no) {
  const llvm::MDNode *md = kernel.getMetadata("kernel_arg_base_type");
  if (!md || no >= md->getNumOperands())
    return {};
  auto *name = llvm::dyn_cast<llvm::MDString>(md->getOperand(no));
  if (!name)
    return {};
  std::string type = name->getString().str(), lanes;
  const std::string vector = " __attribute__((ext_vector_type(";
  if (auto at = type.find(vector); at != std::string::npos) {
    std::size_t from = at + vector.size(), to = type.find(')', from);
    lanes = to == std::string::npos ? "" : type.substr(from, to - from);
    type = type.substr(0, at);
  }
  if (type.rfind("unsigned ", 0) == 0)
    type = "u" + type.substr(9);
  if (type == "signed char")
    type = "char";
  if (type == "_Bool")
    type = "bool";
  return type + lanes;
}

/// A work-item id below `count`, as a 64-bit term: a variable of the fewest bits that hold count − 1,
/// zero-extended. The upper bits are then constant zeros, which the bit-blaster folds through every
/// circuit the id feeds (a 32-bit `x / 54` of a local id below 54 shrinks to a few gates); 0 itself when
/// count is 1. The encoding still states id < count where the size may be smaller (a last group).
cvc5::Term idVariable(TermFactory &tf, const std::string &name, std::uint64_t count) {
  if (count <= 1)
    return tf.constant(64, 0);
  unsigned bits = 64 - static_cast<unsigned>(__builtin_clzll(count - 1));
  cvc5::Term narrow = tf.fresh(tf.bv(bits), name);
  return bits == 64 ? narrow : tf.resize(narrow, 64, false);
}

void setUpLaunch(EncodingState &s) {
  TermFactory &tf = s.tf;
  const model::LaunchConfig &l = s.launch;
  s.localSizeOpen = !l.localSize;
  for (unsigned d = 0; d < 3; ++d) {
    s.globalSize[d] = tf.constant(64, l.globalSize[d]);
    s.globalOffset[d] = tf.constant(64, l.globalOffset[d]);
    if (l.localSize) {
      // OpenCL 2.0 §5.8.3: with a global size that is not a multiple of the local size, the last group is
      // smaller (ceil(global / local) groups).
      s.localSize[d] = tf.constant(64, (*l.localSize)[d]);
      s.numGroups[d] = tf.constant(64, (l.globalSize[d] + (*l.localSize)[d] - 1) / (*l.localSize)[d]);
    } else {
      // A NULL local size: any legal work-group size (a divisor of the global size; OpenCL 1.2 §5.8).
      // Of the fewest bits that hold the global size (idVariable): a product with it stays small.
      s.localSize[d] = idVariable(tf, "local_size_" + std::to_string(d), l.globalSize[d] + 1);
      s.solver.assertFormula(tf.ule(tf.constant(64, 1), s.localSize[d]));
      s.solver.assertFormula(tf.ule(s.localSize[d], s.globalSize[d]));
      if (l.nonUniformAllowed) {
        // OpenCL 2.0: any size; the last group may be smaller.
        s.numGroups[d] = tf.op(cvc5::Kind::BITVECTOR_UDIV,
                               {tf.add(s.globalSize[d], tf.op(cvc5::Kind::BITVECTOR_SUB, {s.localSize[d], tf.constant(64, 1)})),
                                s.localSize[d]});
      } else {
        s.solver.assertFormula(
            tf.eq(tf.op(cvc5::Kind::BITVECTOR_UREM, {s.globalSize[d], s.localSize[d]}), tf.constant(64, 0)));
        s.numGroups[d] = tf.op(cvc5::Kind::BITVECTOR_UDIV, {s.globalSize[d], s.localSize[d]});
      }
    }
  }
  // OpenCL 2.0 §5.8.3: a dimension whose global size the local size does not divide (or, with an open
  // local size, may not divide) has a smaller last group: (its group id, its size).
  std::array<std::optional<std::pair<cvc5::Term, cvc5::Term>>, 3> lastGroup;
  for (unsigned d = 0; d < 3; ++d)
    if (l.localSize ? l.partialLastGroup[d] : l.nonUniformAllowed) {
      cvc5::Term id = tf.op(cvc5::Kind::BITVECTOR_SUB, {s.numGroups[d], tf.constant(64, 1)});
      lastGroup[d] = {id, tf.op(cvc5::Kind::BITVECTOR_SUB, {s.globalSize[d], tf.mul(id, s.localSize[d])})};
    }
  auto groupSize = [&](unsigned d, const cvc5::Term &group) {
    return lastGroup[d] ? tf.ite(tf.eq(group, lastGroup[d]->first), lastGroup[d]->second, s.localSize[d])
                        : s.localSize[d];
  };
  // Two work-items: ids within the NDRange, global id = group × local size + local id + offset. With a
  // captured local size that product is linear. With an open one it is not: then the global id is the free
  // variable and the local and group ids are its remainder and quotient — terms the solver meets only when
  // the kernel asks for them or a query needs "same group".
  for (unsigned t = 0; t < 2; ++t) {
    const char *who = t == 0 ? "A" : "B";
    for (unsigned d = 0; d < 3; ++d) {
      std::string dim = std::to_string(d) + "_" + who;
      if (s.localSizeOpen) {
        cvc5::Term rel = idVariable(tf, "global_index_" + dim, l.globalSize[d]); // global id − offset
        s.solver.assertFormula(tf.ult(rel, s.globalSize[d]));
        s.ids[t].local[d] = tf.op(cvc5::Kind::BITVECTOR_UREM, {rel, s.localSize[d]});
        s.ids[t].group[d] = tf.op(cvc5::Kind::BITVECTOR_UDIV, {rel, s.localSize[d]});
        s.ids[t].global[d] = tf.add(rel, s.globalOffset[d]);
        s.ids[t].localSize[d] = groupSize(d, s.ids[t].group[d]);
        continue;
      }
      cvc5::Term lid = idVariable(tf, "local_id_" + dim, (*l.localSize)[d]);
      cvc5::Term grp = idVariable(tf, "group_id_" + dim, (l.globalSize[d] + (*l.localSize)[d] - 1) / (*l.localSize)[d]);
      s.ids[t].localSize[d] = groupSize(d, grp);
      s.solver.assertFormula(tf.ult(lid, s.ids[t].localSize[d]));
      s.solver.assertFormula(tf.ult(grp, s.numGroups[d]));
      s.ids[t].local[d] = lid;
      s.ids[t].group[d] = grp;
      s.ids[t].global[d] = tf.add(tf.add(tf.mul(grp, s.localSize[d]), lid), s.globalOffset[d]);
    }
  }
  s.distinct = tf.boolean(false);
  s.sameGroup = tf.boolean(true);
  for (unsigned d = 0; d < 3; ++d) {
    s.distinct = tf.lor(s.distinct, tf.lnot(tf.eq(s.ids[0].global[d], s.ids[1].global[d])));
    s.sameGroup = tf.land(s.sameGroup, tf.eq(s.ids[0].group[d], s.ids[1].group[d]));
  }
  s.solver.assertFormula(s.distinct);
}

/// Kernel arguments and module variables: the same values for both work-items.
void setUpSharedValues(EncodingState &s) {
  TermFactory &tf = s.tf;
  std::uint64_t localVariables = 0, constantVariables = 0;
  for (llvm::GlobalVariable &g : s.kernel.getParent()->globals()) {
    unsigned space = g.getAddressSpace();
    if (space != 3 && space != 2)
      continue;
    std::uint64_t object = space == 3 ? kLocalVariableObject + localVariables++ : kConstantVariableObject + constantVariables++;
    SymPointer p;
    p.space = static_cast<Space>(space);
    p.object = tf.constant(64, object);
    p.offset = tf.constant(64, 0);
    s.sharedPointers[&g] = p;
    // Clang names a kernel's __local variable "kernel.var"; the source name is what users know.
    std::string name = g.getName().str();
    if (auto dot = name.rfind('.'); dot != std::string::npos)
      name = name.substr(dot + 1);
    s.objectNames[object] = name;
  }
  for (llvm::Argument &arg : s.kernel.args()) {
    unsigned no = arg.getArgNo();
    const model::ArgumentFact *fact = no < s.launch.arguments.size() ? &s.launch.arguments[no] : nullptr;
    if (arg.getType()->isPointerTy()) {
      SymPointer p;
      p.space = static_cast<Space>(arg.getType()->getPointerAddressSpace());
      std::uint64_t object, origin = 0;
      if (p.space == Space::Local) {
        object = kLocalArgumentObject + no;
      } else if (p.space == Space::Private) {
        object = kPrivateObject + (1ull << 40) + no; // by-value struct
      } else if (fact && fact->kind == model::ArgumentFact::Kind::Buffer) {
        object = fact->root;
        origin = fact->origin;
      } else {
        object = (1ull << 47) + no; // no capture: each pointer its own object (GPUVerify's assumption)
      }
      p.object = tf.constant(64, object);
      p.offset = tf.constant(64, origin);
      if (fact && fact->originOpen) {
        p.offset = tf.fresh(tf.bv(64), "origin_" + argumentName(arg, s.launch));
        p.how = Exactness{"where " + argumentName(arg, s.launch) + " lies in the memory it shares with another argument"};
      }
      s.sharedPointers[&arg] = p;
      if (!s.objectNames.count(object))
        s.objectNames[object] = argumentName(arg, s.launch);
      continue;
    }
    // Scalars the specialiser could not fold: open, but the same for both work-items.
    cvc5::Sort sort = arg.getType()->isIntegerTy(1)
                          ? s.solver.getBooleanSort()
                          : tf.bv(static_cast<unsigned>(s.layout.getTypeSizeInBits(arg.getType()).getFixedValue()));
    // A captured value the specialiser did not fold (a vector, a value wider than 64 bits) is read here;
    // anything else is open, and marked so.
    if (fact && fact->bytes && !sort.isBoolean() &&
        (!arg.getType()->isVectorTy() || s.launch.endianness == format::Endianness::Little))
      if (auto bits = model::capturedScalarBits(*fact->bytes, sort.getBitVectorSize(), s.launch.endianness)) {
        s.sharedValues[&arg] = SymValue{s.solver.mkBitVector(sort.getBitVectorSize(), llvm::toString(*bits, 16, false), 16), {}};
        continue;
      }
    cvc5::Term open = tf.fresh(sort, "arg_" + argumentName(arg, s.launch));
    if (fact && fact->bytes) {
      // A captured value that does not fit: the capture is wrong about something, so no value of it is
      // known to be the launch's.
      std::string why = "the argument " + argumentName(arg, s.launch) + ", whose captured value does not fit its type";
      s.sharedValues[&arg] = SymValue{open, Exactness{why}};
      continue;
    }
    // SPEC §5: a value the capture does not give is unconstrained — the kernel may be launched with any of
    // them, so each is a real launch (exact, like the ids), and a witness names the one it chose.
    s.sharedValues[&arg] = SymValue{open, {}};
    if (!arg.use_empty())
      s.openArguments.push_back(OpenArgument{argumentName(arg, s.launch), argumentType(s.kernel, no), open});
  }
}

/// An array term (offset → byte) holding `bytes` at `origin` and onwards, over `base`.
cvc5::Term storeBytes(TermFactory &tf, cvc5::Term base, std::uint64_t origin, const std::vector<unsigned char> &bytes) {
  for (std::size_t i = 0; i < bytes.size(); ++i)
    base = tf.op(cvc5::Kind::STORE, {base, tf.constant(64, origin + i), tf.constant(8, bytes[i])});
  return base;
}

/// Whether the launch gives no bytes for memory object `object`: local memory (never initialised) or a
/// buffer whose capture has no data (SPEC §5: its contents are open).
bool contentsOpen(const EncodingState &s, std::uint64_t object) {
  if (object >= kLocalArgumentObject && object < kConstantVariableObject)
    return true; // __local arguments and variables
  if (object >= kConstantVariableObject)
    return false;
  bool argument = false;
  for (const model::ArgumentFact &fact : s.launch.arguments)
    if (fact.kind == model::ArgumentFact::Kind::Buffer && fact.root == object) {
      if (fact.data)
        return false;
      argument = true;
    }
  return argument || object >= (1ull << 47); // (1 << 47) + n: a pointer argument without a capture
}

/// Which memory objects a write may reach; read-only buffers with captured bytes become exact tables.
void setUpReadOnlyTables(EncodingState &s) {
  // Counters (CounterResult::exactWithGuard): objects written by exactly one counter call and nothing else.
  std::map<std::uint64_t, std::vector<const llvm::Instruction *>> writersOf;
  bool unknownWriter = false;
  for (const auto &[inst, pointer] : writtenPointers(s.kernel)) {
    auto roots = rootsOf(pointer);
    if (!roots) {
      unknownWriter = true;
      break;
    }
    for (const llvm::Value *root : *roots)
      if (auto it = s.sharedPointers.find(root); it != s.sharedPointers.end() && it->second.object.isBitVectorValue())
        writersOf[std::stoull(it->second.object.getBitVectorValue(10))].push_back(inst);
  }
  if (unknownWriter) {
    s.anyObjectMayBeWritten = true;
    return;
  }
  for (const auto &[object, writers] : writersOf) {
    s.writtenObjects.insert(object);
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(writers.front());
        call && call->getCalledFunction() && std::all_of(writers.begin(), writers.end(), [&](auto *w) { return w == call; }) &&
        counterStep(*call, model::classifyBuiltin(*call->getCalledFunction())) && contentsOpen(s, object))
      s.openCounterCalls.insert(call);
  }
  TermFactory &tf = s.tf;
  cvc5::Sort array = s.solver.mkArraySort(tf.bv(64), tf.bv(8));
  // Program-scope `constant` variables (OpenCL 1.2 §6.5.3: initialised at compile time, read-only): their
  // initialisers are their bytes, in the device's order (the module's data layout).
  for (llvm::GlobalVariable &g : s.kernel.getParent()->globals()) {
    auto shared = s.sharedPointers.find(&g);
    if (g.getAddressSpace() != 2 || shared == s.sharedPointers.end() || !g.hasDefinitiveInitializer() ||
        !shared->second.object.isBitVectorValue())
      continue;
    std::uint64_t size = s.layout.getTypeAllocSize(g.getValueType()).getFixedValue();
    if (size == 0 || size > s.options.maxCapturedTableBytes)
      continue;
    std::vector<unsigned char> bytes(size);
    llvm::Type *byteType = llvm::Type::getInt8Ty(g.getContext());
    bool known = true;
    for (std::uint64_t i = 0; i < size && known; ++i) {
      llvm::Constant *c = llvm::ConstantFoldLoadFromConst(g.getInitializer(), byteType, llvm::APInt(64, i), s.layout);
      auto *ci = llvm::dyn_cast_or_null<llvm::ConstantInt>(c);
      known = ci != nullptr;
      if (known)
        bytes[i] = static_cast<unsigned char>(ci->getZExtValue());
    }
    if (!known)
      continue; // an initialiser the folder cannot read bytewise (an address): its values stay open
    std::uint64_t object = std::stoull(shared->second.object.getBitVectorValue(10));
    s.capturedTables[object] = storeBytes(tf, tf.fresh(array, "constant_" + std::to_string(object)), 0, bytes);
    s.capturedRanges[object].push_back({0, bytes.size()});
    s.capturedBytes[object] = {0, std::move(bytes)};
  }
  for (llvm::Argument &arg : s.kernel.args()) {
    unsigned no = arg.getArgNo();
    if (no >= s.launch.arguments.size() || !arg.getType()->isPointerTy())
      continue;
    const model::ArgumentFact &fact = s.launch.arguments[no];
    if (arg.hasByValAttr() && fact.kind == model::ArgumentFact::Kind::Scalar && fact.bytes) {
      // A struct passed by value: the kernel reads its fields from private memory, and the capture has
      // its bytes (SPEC §3: the scalar value is the struct's bytes in the device's order).
      const std::vector<std::uint8_t> &bytes = *fact.bytes; // in memory order (ScalarCodec)
      std::uint64_t object = std::stoull(s.sharedPointers[&arg].object.getBitVectorValue(10));
      s.capturedTables[object] =
          storeBytes(tf, tf.fresh(array, "byval_" + std::to_string(no)), 0, {bytes.begin(), bytes.end()});
      s.capturedRanges[object].push_back({0, bytes.size()});
      continue;
    }
    if (arg.hasByValAttr() && fact.kind == model::ArgumentFact::Kind::Scalar && !fact.bytes) {
      // A struct passed by value without captured bytes (not captured, or opened by --open=scalars): any
      // value is a real launch (SPEC §5), the same for every work-item. One open array that both read, so
      // a witness names the fields it needs ("shape[1] = 8"); the kernel's own stores to its copy make the
      // object written, and then its reads are open values as for any private variable.
      auto shared = s.sharedPointers.find(&arg);
      if (shared == s.sharedPointers.end() || !shared->second.object.isBitVectorValue())
        continue;
      std::uint64_t object = std::stoull(shared->second.object.getBitVectorValue(10));
      if (s.writtenObjects.count(object) || s.openContents.count(object))
        continue;
      std::uint64_t size = s.layout.getTypeAllocSize(arg.getParamByValType()).getFixedValue();
      EncodingState::OpenContents open;
      open.array = tf.fresh(array, "byval_" + argumentName(arg, s.launch));
      open.ranges = std::vector<std::pair<std::uint64_t, std::uint64_t>>{{0, size}};
      open.fields = memberNames(arg);
      s.openContents[object] = std::move(open);
      continue;
    }
    if (fact.kind != model::ArgumentFact::Kind::Buffer || !fact.data || !fact.size ||
        *fact.size > s.options.maxCapturedTableBytes || s.writtenObjects.count(fact.root))
      continue;
    // Several read-only sub-buffers of one buffer each add their own captured bytes to its table (then
    // reads go through the byte table only); one buffer passed twice adds them once.
    bool more = s.capturedTables.count(fact.root) != 0;
    auto raw = s.capturedBytes.find(fact.root);
    if (more && raw != s.capturedBytes.end() && raw->second.first == fact.origin &&
        raw->second.second.size() == *fact.size)
      continue;
    // A loose data/<hash>.bin file or a record of the capture's packs (CaptureBlobs.h).
    auto blob = format::readCaptureFile(*fact.data);
    if (!blob)
      continue;
    std::vector<unsigned char> bytes(blob->begin(), blob->end());
    // Bytes outside the capture are open: the table starts from an unknown array, not from zeros.
    cvc5::Term table = more ? s.capturedTables[fact.root] : tf.fresh(array, "captured_" + std::to_string(fact.root));
    s.capturedTables[fact.root] = storeBytes(tf, table, fact.origin, bytes);
    s.capturedRanges[fact.root].push_back({fact.origin, bytes.size()});
    if (more)
      s.capturedBytes.erase(fact.root);
    else
      s.capturedBytes[fact.root] = {fact.origin, std::move(bytes)};
  }
  // Read-only global and constant buffers the tables above do not cover: open contents, one array for both
  // work-items (EncodingState::openContents).
  for (llvm::Argument &arg : s.kernel.args()) {
    auto shared = s.sharedPointers.find(&arg);
    if (shared == s.sharedPointers.end() || !shared->second.object.isBitVectorValue() ||
        (shared->second.space != Space::Global && shared->second.space != Space::Constant))
      continue;
    std::uint64_t object = std::stoull(shared->second.object.getBitVectorValue(10));
    if (s.writtenObjects.count(object) || s.capturedTables.count(object) || s.openContents.count(object))
      continue;
    EncodingState::OpenContents open;
    open.array = tf.fresh(array, "contents_" + argumentName(arg, s.launch));
    if (!contentsOpen(s, object))
      open.how = Exactness{"the contents of " + argumentName(arg, s.launch) + " (captured, too large to read exactly)"};
    std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
    bool sized = true;
    for (const model::ArgumentFact &fact : s.launch.arguments)
      if (fact.kind == model::ArgumentFact::Kind::Buffer && fact.root == object) {
        if (!fact.size)
          sized = false;
        else
          ranges.push_back({fact.origin, *fact.size});
      }
    if (sized && !ranges.empty())
      open.ranges = std::move(ranges);
    s.openContents[object] = std::move(open);
  }
}

/// Every work-group holds one work-item (a captured local size of 1 in each dimension): no two distinct
/// work-items share a group, so local memory is never shared, and no same-group race or divergence exists
/// (OpenCL 1.2 §3.2: a work-group's local memory and barriers are its work-items').
bool oneWorkItemPerGroup(const model::LaunchConfig &l) {
  if (!l.localSize)
    return false;
  for (unsigned d = 0; d < l.workDim && d < 3; ++d)
    if ((*l.localSize)[d] != 1)
      return false;
  return true;
}

/// Uniform reads: two work-items that read one place of shared memory with one plain load read the same
/// value — when they are in one group and one barrier interval of the memory's fence, or, for global
/// memory, in different groups — unless a data race on that place comes first. Asserted for every load
/// whose value is open (AccessRecord::loaded), for the pair's reads at the same site.
///
/// Why it is sound (GPUVerify's equality abstraction argues the same way): take any execution with a race
/// or a barrier divergence, and its first one. Before it, no write to a place meets a read of it in the
/// same interval (same group) or anywhere (different groups): that would be an earlier race. So every read
/// before the first defect sees the value the place had at the interval's start (same group) or throughout
/// (never written, different groups) — the same for both. Reads after the first defect do not decide it,
/// and the facts leave their values free to agree. The two-thread query for that first defect therefore
/// has a model, and `verified` (every query unsatisfiable) means there is no defect.
void stateUniformReads(EncodingState &s) {
  TermFactory &tf = s.tf;
  bool alone = oneWorkItemPerGroup(s.launch);
  for (std::size_t id = 0; id < s.sites.size() && id < s.records[0].size() && id < s.records[1].size(); ++id) {
    const AccessRecord &a = s.records[0][id], &b = s.records[1][id];
    if (!a.present || !b.present || a.loaded.isNull() || b.loaded.isNull() ||
        a.loaded.getSort() != b.loaded.getSort() || s.sites[id].collective)
      continue;
    bool local = s.sites[id].space == MemorySpace::Local;
    if (local && alone)
      continue; // never both in one group: the fact would be vacuous, and its reach terms are large
    cvc5::Term together = tf.land(s.sameGroup, local ? tf.eq(a.localEpoch, b.localEpoch) : tf.eq(a.globalEpoch, b.globalEpoch));
    if (!local)
      together = tf.lor(together, tf.lnot(s.sameGroup));
    cvc5::Term samePlace = tf.land(tf.eq(a.pointer.object, b.pointer.object), tf.eq(a.pointer.offset, b.pointer.offset));
    cvc5::Term both = tf.land(tf.land(a.reach, b.reach), tf.land(samePlace, together));
    s.solver.assertFormula(tf.lor(tf.lnot(both), tf.eq(a.loaded, b.loaded)));
  }
}

/// Atomic counters: two distinct work-items that each atomically add the same non-zero constant `step`
/// to one location get different old values back, provided that
///   - nothing else writes that memory (no other atomic, no plain store: the counter is only counted);
///   - the counts cannot wrap: with N additions in all, old values repeat only when some k < N has
///     k · step ≡ 0 (mod 2^width), i.e. N > 2^(width − trailing zeros of step). N is bounded by the
///     work-items times the counter's call sites; a call inside a loop that was not unrolled has no bound,
///     and then nothing is stated;
///   - the two work-items share the counter: a counter in local memory is one per work-group, and an
///     atomic of memory_scope_work_group is atomic only within a group — then only work-items of one group
///     get distinct values.
/// This is what makes `out[atomic_inc(&n)] = v` (appending to a list) provable.
void stateCounterFacts(EncodingState &s) {
  TermFactory &tf = s.tf;
  // object → the one step its counters add; 0 when they add different steps or anything else writes it
  std::map<std::uint64_t, std::uint64_t> stepOf;
  std::map<std::uint64_t, std::uint64_t> sitesOn; // object → counter call sites (of work-item A)
  std::set<unsigned> counterSites;
  for (const CounterResult &c : s.counterResults[0])
    counterSites.insert(c.site);
  for (const CounterResult &c : s.counterResults[0]) {
    if (!c.object.isBitVectorValue())
      return; // which memory is counted depends on control flow: say nothing
    std::uint64_t object = std::stoull(c.object.getBitVectorValue(10));
    auto [it, added] = stepOf.emplace(object, c.step);
    if ((!added && it->second != c.step) || c.inLoop) // mixed steps; an unbounded number of additions
      it->second = 0;
    ++sitesOn[object];
  }
  for (unsigned t = 0; t < 2; ++t)
    for (std::size_t id = 0; id < s.records[t].size(); ++id) {
      const AccessRecord &r = s.records[t][id];
      if (!r.present || !s.sites[id].writes || counterSites.count(static_cast<unsigned>(id)))
        continue;
      if (!r.pointer.object.isBitVectorValue()) {
        for (auto &[object, step] : stepOf)
          step = 0; // a write anywhere: no counter is known to be left alone
        continue;
      }
      std::uint64_t object = std::stoull(r.pointer.object.getBitVectorValue(10));
      auto it = stepOf.find(object);
      if (it == stepOf.end())
        continue;
      // A counter of one group (local memory, or work-group scope) may be set in another barrier
      // interval (of its memory's fence): `if (lid == 0) n = 0; barrier(…); atomic_inc(&n)`. Such a write
      // is ordered before or after all of the group's counting.
      bool local = s.sites[id].space == MemorySpace::Local;
      const cvc5::Term &epoch = local ? r.localEpoch : r.globalEpoch;
      bool apart = epoch.isBitVectorValue();
      for (const CounterResult &c : s.counterResults[t])
        if (c.object.isBitVectorValue() && std::stoull(c.object.getBitVectorValue(10)) == object)
          apart = apart && c.groupScoped && c.epoch.isBitVectorValue() && c.epoch != epoch;
      if (!apart)
        it->second = 0;
    }
  if (s.anyObjectMayBeWritten)
    return;
  std::uint64_t items = 1;
  for (unsigned d = 0; d < 3; ++d)
    items *= std::max<std::uint64_t>(s.launch.globalSize[d], 1);
  for (const CounterResult &a : s.counterResults[0])
    for (const CounterResult &b : s.counterResults[1]) {
      std::uint64_t object = std::stoull(a.object.getBitVectorValue(10));
      if (!b.object.isBitVectorValue() || stepOf[object] == 0 || a.step != stepOf[object] ||
          b.step != stepOf[object] || a.value.getSort() != b.value.getSort())
        continue;
      unsigned width = a.value.getSort().getBitVectorSize();
      unsigned zeros = 0;
      while (zeros < 64 && ((a.step >> zeros) & 1) == 0)
        ++zeros;
      unsigned period = width > zeros ? width - zeros : 0; // values repeat after 2^period additions
      // N = items × sites ≤ 2^period, computed without overflow.
      std::uint64_t sites = sitesOn[object];
      bool noWrap = period >= 64 || (items <= ((std::uint64_t{1} << period) / sites));
      if (!noWrap)
        continue;
      cvc5::Term same =
          tf.land(tf.land(a.reach, b.reach), tf.land(tf.eq(a.object, b.object), tf.eq(a.offset, b.offset)));
      if (a.groupScoped || b.groupScoped)
        same = tf.land(same, s.sameGroup);
      s.solver.assertFormula(tf.lor(tf.lnot(same), tf.lnot(tf.eq(a.value, b.value))));
    }
}

/// One solver query under the deadline, logged for --dump-smt2.
/// `budgetMs`: a limit of its own for this query (below the deadline's); a timeout then sets budgetHit.
QueryOutcome ask(EncodingState &s, const cvc5::Term &query, const std::string &label,
                 std::optional<long long> budgetMs = std::nullopt);

/// Exclusive successes: of the atomic_cmpxchg calls at one site on one location, within one barrier
/// interval of a work-group (local memory) or within the launch (global memory), at most one that
/// changes the value succeeds, provided that
///   - every work-item there passes the same `expected` value e (asked of the solver, under the facts
///     stated so far);
///   - nothing else writes that memory in that interval (no other site, plain or atomic; for global
///     memory, nowhere in the kernel), and each work-item makes the call at most once (not in a loop).
/// Why: a call succeeds only when the location holds e. The location changes only by successes; one
/// whose `desired` is not e leaves a value other than e, and no call can succeed after it. So two
/// work-items' calls that both succeed cannot both store values other than e. This is what proves
/// `if (atomic_cmpxchg(&x, before, before + 1) == before) r = x;` free of races: the winner's read meets
/// only failing calls, which write nothing (CompareExchange).
void stateExclusiveSuccesses(EncodingState &s) {
  TermFactory &tf = s.tf;
  if (s.anyObjectMayBeWritten || s.compareExchanges[0].empty())
    return;
  bool alone = oneWorkItemPerGroup(s.launch);
  auto constant = [](const cvc5::Term &t) { return t.isBitVectorValue(); };
  for (const CompareExchange &a : s.compareExchanges[0]) {
    if (a.inLoop || !constant(a.object) || (a.local && (alone || !constant(a.epoch))))
      continue;
    std::uint64_t object = constantOf(a.object);
    bool alonePerInterval = true;
    for (unsigned t = 0; t < 2 && alonePerInterval; ++t)
      for (std::size_t id = 0; id < s.records[t].size(); ++id) {
        const AccessRecord &r = s.records[t][id];
        if (!r.present || !s.sites[id].writes || id == a.site)
          continue;
        if (!constant(r.pointer.object)) {
          alonePerInterval = false; // a write to memory that depends on control flow
          break;
        }
        if (constantOf(r.pointer.object) != object)
          continue;
        // Local memory: a write in another barrier interval is ordered before or after every call here.
        if (!a.local || !constant(r.localEpoch) || r.localEpoch == a.epoch) {
          alonePerInterval = false;
          break;
        }
      }
    if (!alonePerInterval)
      continue;
    for (const CompareExchange &b : s.compareExchanges[1]) {
      if (b.site != a.site || a.expected.getSort() != b.expected.getSort())
        continue;
      cvc5::Term together = tf.land(tf.land(a.reach, b.reach),
                                    tf.land(tf.eq(a.object, b.object), tf.eq(a.offset, b.offset)));
      if (a.local)
        together = tf.land(together, tf.land(s.sameGroup, tf.eq(a.epoch, b.epoch)));
      cvc5::Term differ = tf.land(together, tf.lnot(tf.eq(a.expected, b.expected)));
      std::string label = "uniform expected value of the atomic_cmpxchg at site " + std::to_string(a.site);
      if (ask(s, tf.land(s.distinct, differ), label).status != QueryOutcome::Status::Unsat)
        continue;
      cvc5::Term changes = tf.land(tf.land(a.success, tf.lnot(tf.eq(a.desired, a.expected))),
                                   tf.land(b.success, tf.lnot(tf.eq(b.desired, b.expected))));
      s.solver.assertFormula(tf.lnot(tf.land(together, changes)));
    }
  }
}

/// The results of counter calls marked exactWithGuard (atomic_inc, atomic_add of one constant) are exact
/// only where a real execution can give them; a witness must keep to those (WitnessGuard). The counter
/// starts open (contentsOpen) and nothing but this one call writes it (setUpReadOnlyTables), so one
/// work-item's result alone can be any value: the initial value plus its place in the order. Two
/// work-items that count on one counter (one location; one group for a group-scoped one) get results
/// `step` apart when one counted right after the other; other distances need calls in between that the
/// witness does not show, so a witness keeps to `step`. Proofs are unchanged: a guard only restricts
/// witnesses, and the facts stateCounterFacts states hold in every execution.
void guardCounterResults(EncodingState &s) {
  TermFactory &tf = s.tf;
  for (unsigned t = 0; t < 2; ++t)
    for (const CounterResult &c : s.counterResults[t]) {
      if (!c.exactWithGuard)
        continue;
      cvc5::Term realisable = tf.boolean(true);
      for (const CounterResult &o : s.counterResults[1 - t]) {
        if (o.site != c.site)
          continue;
        cvc5::Term shared = tf.land(o.reach, tf.land(tf.eq(o.object, c.object), tf.eq(o.offset, c.offset)));
        if (c.groupScoped || o.groupScoped)
          shared = tf.land(shared, s.sameGroup);
        cvc5::Term step = tf.constant(c.value.getSort().getBitVectorSize(), c.step);
        cvc5::Term apart = tf.lor(tf.eq(o.value, tf.add(c.value, step)), tf.eq(c.value, tf.add(o.value, step)));
        realisable = tf.land(realisable, tf.lor(tf.lnot(shared), apart));
      }
      s.guards[t].push_back(WitnessGuard{tf.land(c.reach, tf.lnot(realisable)), c.what});
    }
}

std::uint64_t modelValue(cvc5::Solver &solver, const cvc5::Term &t) {
  cvc5::Term v = solver.getValue(t);
  return v.isBitVectorValue() ? std::stoull(v.getBitVectorValue(10)) : 0;
}

WorkItemIds idsFromModel(EncodingState &s, unsigned t) {
  WorkItemIds ids;
  for (unsigned d = 0; d < 3; ++d) {
    ids.global[d] = modelValue(s.solver, s.ids[t].global[d]);
    ids.local[d] = modelValue(s.solver, s.ids[t].local[d]);
    ids.group[d] = modelValue(s.solver, s.ids[t].group[d]);
  }
  return ids;
}

/// `bits` as an OpenCL C literal of `type` (a kernel_arg_base_type spelling: "int", "uchar", "float",
/// "int4"): "7", "-1", "1.5f", "(int2)(1, -2)". Without a type it is the unsigned value.
std::string literalOf(const llvm::APInt &bits, const std::string &type) {
  std::string element = type;
  unsigned lanes = 1;
  std::size_t digits = element.find_last_not_of("0123456789");
  if (digits != std::string::npos && digits + 1 < element.size()) {
    lanes = static_cast<unsigned>(std::stoul(element.substr(digits + 1)));
    element = element.substr(0, digits + 1);
  }
  static const std::map<std::string, unsigned> kWidth = {
      {"char", 8},  {"uchar", 8},  {"short", 16}, {"ushort", 16}, {"int", 32},   {"uint", 32},
      {"long", 64}, {"ulong", 64}, {"half", 16},  {"float", 32},  {"double", 64}, {"bool", 8}};
  auto width = kWidth.find(element);
  unsigned laneBits = width == kWidth.end() ? 0 : width->second;
  unsigned slots = lanes == 3 ? 4 : lanes; // a 3-lane vector takes the room of 4
  if (!laneBits || lanes == 0 || laneBits * slots != bits.getBitWidth())
    return llvm::toString(bits, 10, false);
  bool isSigned = element == "char" || element == "short" || element == "int" || element == "long";
  auto one = [&](const llvm::APInt &lane) -> std::string {
    if (element == "bool")
      return lane.isZero() ? "false" : "true";
    if (element == "float" || element == "double") {
      double v;
      if (element == "float") {
        float f;
        std::uint32_t u = static_cast<std::uint32_t>(lane.getZExtValue());
        std::memcpy(&f, &u, sizeof f);
        v = f;
      } else {
        std::uint64_t u = lane.getZExtValue();
        std::memcpy(&v, &u, sizeof v);
      }
      if (!std::isfinite(v))
        return "as_" + element + "(0x" + llvm::toString(lane, 16, false) + ")";
      char text[64];
      std::snprintf(text, sizeof text, element == "float" ? "%.9g" : "%.17g", v);
      std::string t = text;
      if (t.find_first_of(".e") == std::string::npos)
        t += ".0";
      return element == "float" ? t + "f" : t;
    }
    if (element == "half")
      return "as_half((ushort)0x" + llvm::toString(lane, 16, false) + ")";
    return llvm::toString(lane, 10, isSigned);
  };
  if (lanes == 1)
    return one(bits);
  std::string out = "(" + type + ")(";
  for (unsigned i = 0; i < lanes; ++i)
    out += (i ? ", " : "") + one(bits.extractBits(laneBits, i * laneBits)); // lane 0 in the low bits
  return out + ")";
}

/// The values the current model gives the scalar arguments the capture does not give.
OpenValues openValuesFromModel(EncodingState &s) {
  OpenValues out;
  for (const OpenArgument &a : s.openArguments) {
    cvc5::Term v = s.solver.getValue(a.term);
    if (v.isBooleanValue()) {
      out.emplace_back(a.name, v.getBooleanValue() ? "true" : "false");
      continue;
    }
    if (!v.isBitVectorValue())
      continue;
    llvm::APInt bits(v.getSort().getBitVectorSize(), v.getBitVectorValue(16), 16);
    out.emplace_back(a.name, literalOf(bits, a.type));
  }
  // The open contents the two work-items read (a buffer without captured bytes: any contents are a real
  // launch, so the witness says which), at most 8, each element once.
  std::set<std::string> named;
  for (unsigned t = 0; t < 2; ++t)
    for (const EncodingState::OpenRead &r : s.openReads[t]) {
      cvc5::Term reached = s.solver.getValue(r.reach);
      if (named.size() >= 8 || !reached.isBooleanValue() || !reached.getBooleanValue())
        continue;
      std::uint64_t offset = modelValue(s.solver, r.offset);
      std::string name = r.fields && r.fields->count(offset) ? r.name + "." + r.fields->at(offset)
                         : r.fields                          ? r.name + " byte " + std::to_string(offset)
                         : offset % r.elementBytes == 0 ? r.name + "[" + std::to_string(offset / r.elementBytes) + "]"
                                                        : r.name + " byte " + std::to_string(offset);
      cvc5::Term v = s.solver.getValue(r.value);
      if (!v.isBitVectorValue() || !named.insert(name).second)
        continue;
      llvm::APInt bits(v.getSort().getBitVectorSize(), v.getBitVectorValue(16), 16);
      out.emplace_back(name, literalOf(bits, r.type));
    }
  return out;
}

std::optional<std::array<std::uint64_t, 3>> localSizeFromModel(EncodingState &s) {
  if (!s.localSizeOpen)
    return std::nullopt;
  return std::array<std::uint64_t, 3>{modelValue(s.solver, s.localSize[0]), modelValue(s.solver, s.localSize[1]),
                                      modelValue(s.solver, s.localSize[2])};
}

/// The first guard (WitnessGuard) the current model breaks, or null: a witness there rests on behaviour the
/// kernel does not define, where exact terms over-approximate.
const WitnessGuard *brokenGuard(EncodingState &s) {
  for (unsigned t = 0; t < 2; ++t)
    for (const WitnessGuard &g : s.guards[t]) {
      cvc5::Term v = s.solver.getValue(g.violated);
      if (v.isBooleanValue() && v.getBooleanValue())
        return &g;
    }
  return nullptr;
}

/// Both work-items keep every guard.
cvc5::Term withinGuards(EncodingState &s) {
  cvc5::Term all = s.tf.boolean(true);
  for (unsigned t = 0; t < 2; ++t)
    for (const WitnessGuard &g : s.guards[t])
      all = s.tf.land(all, s.tf.lnot(g.violated));
  return all;
}


/// After `query` was satisfiable with an exact witness: if the model breaks a guard, ask again within the
/// guards. Sat: the new model stands (true). Unsat: every witness of the query needs that behaviour — `out`
/// becomes a satisfiable outcome through an abstraction named by the guard (false). Unknown: `out` is
/// that answer (false).
bool keepWithinGuards(EncodingState &s, const cvc5::Term &query, const std::string &label, QueryOutcome &out) {
  const WitnessGuard *broken = brokenGuard(s);
  if (!broken)
    return true;
  std::string what = broken->what;
  QueryOutcome again = ask(s, s.tf.land(query, withinGuards(s)), label + ", defined behaviour only");
  if (again.status == QueryOutcome::Status::Sat)
    return true;
  if (again.status == QueryOutcome::Status::Unknown) {
    out = again;
    return false;
  }
  out = QueryOutcome{};
  out.status = QueryOutcome::Status::Sat;
  out.exact = false;
  out.abstraction = what;
  return false;
}

/// A witness reads better with small values of the open arguments (an index 7 rather than 2147483647): when
/// the model's are not all in [0, 256], ask once more with them there; when that has no witness, ask
/// `query` again for a model. `query` holds in the current model (the caller's witness query, guards included).
void preferSmallValues(EncodingState &s, const cvc5::Term &query, const std::string &label) {
  TermFactory &tf = s.tf;
  cvc5::Term small = tf.boolean(true);
  bool allSmall = true;
  // Open arguments, counter results that start open and open contents read (an index 3 rather than
  // 2147483647, which a buffer of the launch would not hold).
  std::vector<cvc5::Term> terms;
  for (const OpenArgument &a : s.openArguments)
    terms.push_back(a.term);
  for (unsigned t = 0; t < 2; ++t)
    for (const CounterResult &c : s.counterResults[t])
      if (c.exactWithGuard)
        terms.push_back(c.value);
  for (unsigned t = 0; t < 2; ++t)
    for (const EncodingState::OpenRead &r : s.openReads[t])
      terms.push_back(r.value);
  for (const cvc5::Term &term : terms) {
    if (!term.getSort().isBitVector())
      continue;
    unsigned w = tf.width(term);
    if (w <= 9 || w > 64)
      continue;
    cvc5::Term in = tf.ule(term, tf.constant(w, 256));
    cvc5::Term now = s.solver.getValue(in);
    allSmall = allSmall && now.isBooleanValue() && now.getBooleanValue();
    small = tf.land(small, in);
  }
  if (allSmall)
    return;
  if (ask(s, tf.land(query, small), label + ", small open values").status == QueryOutcome::Status::Sat)
    return;
  ask(s, query, label + ", any open values");
}

QueryOutcome ask(EncodingState &s, const cvc5::Term &query, const std::string &label,
                 std::optional<long long> budgetMs) {
  auto started = std::chrono::steady_clock::now();
  std::optional<long long> limit;
  if (s.options.deadline)
    limit = std::max<long long>(
        1, std::chrono::duration_cast<std::chrono::milliseconds>(*s.options.deadline - started).count());
  bool budgetBinds = budgetMs && (!limit || *budgetMs < *limit);
  if (budgetBinds)
    limit = std::max<long long>(1, *budgetMs);
  if (limit || s.limitSet)
    s.solver.setOption("tlimit-per", limit ? std::to_string(*limit) : "0");
  s.limitSet = limit.has_value();
  cvc5::Result r = s.solver.checkSatAssuming(query);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
  s.queryLog.push_back({label, query, r.toString() + " in " + std::to_string(ms.count()) + " ms"});
  QueryOutcome out;
  if (r.isUnsat()) {
    out.status = QueryOutcome::Status::Unsat;
  } else if (r.isSat()) {
    out.status = QueryOutcome::Status::Sat;
  } else {
    out.status = QueryOutcome::Status::Unknown;
    bool timeout = r.getUnknownExplanation() == cvc5::UnknownExplanation::TIMEOUT;
    out.unknownReason = timeout ? "solver timeout" : "the solver gave up";
    // The per-query limit is what was left of the instantiation's time: a timeout then is the whole
    // analysis running out of time.
    out.deadlineHit = timeout && s.options.deadline.has_value() && !budgetBinds;
    out.budgetHit = timeout && budgetBinds;
  }
  return out;
}

} // namespace

format::Expected<std::unique_ptr<KernelEncoding>> KernelEncoding::encode(llvm::Function &kernel,
                                                                        const model::LaunchConfig &launch,
                                                                        const EncodeOptions &options) {
  auto impl = std::make_unique<Impl>(kernel, launch, options);
  EncodingState &s = impl->state;
  try {
    setUpLaunch(s);
    setUpSharedValues(s);
    setUpReadOnlyTables(s);
    for (unsigned t = 0; t < 2; ++t)
      if (auto status = encodeThread(s, t); !status)
        return format::fail(status.error());
    stateCounterFacts(s);
    guardCounterResults(s);
    stateUniformReads(s);
    stateExclusiveSuccesses(s);
  } catch (const cvc5::CVC5ApiException &e) {
    return format::fail(std::string("internal error while encoding: ") + e.what());
  }
  return std::unique_ptr<KernelEncoding>(new KernelEncoding(std::move(impl)));
}

KernelEncoding::KernelEncoding(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
KernelEncoding::~KernelEncoding() = default;

const std::vector<AccessSite> &KernelEncoding::accesses() const { return m_impl->state.sites; }
const std::vector<BarrierSite> &KernelEncoding::barriers() const { return m_impl->state.barriers; }
namespace {

void collectConstants(const cvc5::Term &t, std::set<cvc5::Term> &seen, std::vector<cvc5::Term> &out) {
  std::vector<cvc5::Term> todo{t};
  while (!todo.empty()) {
    cvc5::Term u = todo.back();
    todo.pop_back();
    if (!seen.insert(u).second)
      continue;
    if (u.getKind() == cvc5::Kind::CONSTANT)
      out.push_back(u);
    for (const cvc5::Term &child : u)
      todo.push_back(child);
  }
}

} // namespace

std::string KernelEncoding::smtLog() const {
  EncodingState &s = m_impl->state;
  // A script cvc5 (or any SMT-LIB 2 solver) replays: declarations, the encoding's assertions, then each
  // query under check-sat-assuming, with the answer clcapture-verify got and how long it took.
  std::vector<cvc5::Term> assertions = s.solver.getAssertions();
  std::set<cvc5::Term> seen;
  std::vector<cvc5::Term> constants;
  for (const cvc5::Term &a : assertions)
    collectConstants(a, seen, constants);
  for (const auto &q : s.queryLog)
    collectConstants(q.query, seen, constants);
  std::sort(constants.begin(), constants.end(), [](const cvc5::Term &x, const cvc5::Term &y) { return x.getId() < y.getId(); });
  std::string out = "; clcapture-verify: the two-thread encoding of one launch (replay: cvc5 --incremental FILE)\n"
                    "(set-logic QF_ABVFP)\n(set-option :produce-models true)\n(set-option :incremental true)\n";
  for (const cvc5::Term &c : constants)
    out += "(declare-const " + c.toString() + " " + c.getSort().toString() + ")\n";
  for (const cvc5::Term &a : assertions)
    out += "(assert " + a.toString() + ")\n";
  for (const auto &q : s.queryLog)
    out += "; " + q.label + "\n; clcapture-verify: " + q.answer + "\n(check-sat-assuming (" + q.query.toString() + "))\n";
  return out;
}

namespace {

/// Whether `t` (a bit-vector) is a multiple of 2^k whatever its variables are, by its structure: a constant
/// with k low zero bits, a sum or ite of such terms, a product with one such factor, a left shift by at
/// least k, or an extension or low extract (wider than k bits) of one.
bool multipleOfPowerOfTwo(const cvc5::Term &t, unsigned k, unsigned depth = 0) {
  if (k == 0)
    return true;
  if (depth > 64 || !t.getSort().isBitVector())
    return false;
  using cvc5::Kind;
  if (t.isBitVectorValue()) {
    std::string bits = t.getBitVectorValue(2);
    return bits.size() >= k && bits.find('1', bits.size() - k) == std::string::npos;
  }
  switch (t.getKind()) {
  case Kind::BITVECTOR_ADD:
  case Kind::BITVECTOR_SUB:
    for (const cvc5::Term &c : t)
      if (!multipleOfPowerOfTwo(c, k, depth + 1))
        return false;
    return true;
  case Kind::BITVECTOR_MULT:
    for (const cvc5::Term &c : t)
      if (multipleOfPowerOfTwo(c, k, depth + 1))
        return true;
    return false;
  case Kind::ITE:
    return multipleOfPowerOfTwo(t[1], k, depth + 1) && multipleOfPowerOfTwo(t[2], k, depth + 1);
  case Kind::BITVECTOR_SHL:
    if (t[1].isBitVectorValue() && std::stoull(t[1].getBitVectorValue(10)) >= k)
      return true;
    return multipleOfPowerOfTwo(t[0], k, depth + 1);
  case Kind::BITVECTOR_SIGN_EXTEND:
  case Kind::BITVECTOR_ZERO_EXTEND:
    return multipleOfPowerOfTwo(t[0], k, depth + 1);
  case Kind::BITVECTOR_EXTRACT: {
    // ((_ extract hi lo) x): a multiple of 2^k when lo = 0 and x is one (and the result keeps k bits).
    cvc5::Op op = t.getOp();
    if (op.getNumIndices() != 2)
      return false;
    unsigned long high = std::stoul(op[0].getIntegerValue()), low = std::stoul(op[1].getIntegerValue());
    return low == 0 && high + 1 > k && multipleOfPowerOfTwo(t[0], k, depth + 1);
  }
  default:
    return false;
  }
}

/// The common size of every access of both sets when it is a power of two 2^k and every offset is a
/// multiple of it by its structure: then two accesses overlap exactly when their offsets are equal, a
/// condition the solver settles faster than the two comparisons of byte ranges (OpenCV's
/// ifft_multi_radix_rows, ten strided stores against themselves: 39 s → 22 s). nullopt otherwise.
std::optional<std::uint64_t> alignedUnit(EncodingState &s, const std::vector<unsigned> &a, const std::vector<unsigned> &b) {
  std::optional<std::uint64_t> unit;
  for (unsigned t = 0; t < 2; ++t)
    for (unsigned id : t == 0 ? a : b) {
      const AccessRecord &r = s.records[t][id];
      if (!r.size.isBitVectorValue())
        return std::nullopt;
      std::uint64_t size = constantOf(r.size);
      if (size == 0 || (size & (size - 1)) != 0 || (unit && *unit != size))
        return std::nullopt;
      unit = size;
      unsigned k = 0;
      while ((std::uint64_t{1} << k) < size)
        ++k;
      if (!multipleOfPowerOfTwo(r.pointer.offset, k))
        return std::nullopt;
    }
  return unit;
}

/// One work-item's choice among several access sites: fresh terms equal to the chosen site's.
struct SiteChoice {
  std::vector<unsigned> sites;    ///< candidates, present for this work-item
  std::vector<Exactness> how;     ///< per candidate: how exact its reach, pointer, size (and value) are
  cvc5::Term selector;            ///< which candidate (absent with one candidate)
  cvc5::Term constraint;          ///< selector in range ∧ (selector = i ⇒ the fresh terms are site i's)
  cvc5::Term reach, object, offset, size, epoch, value;
  cvc5::Term done;       ///< the async copies complete before the access (one bit per copy site)
  cvc5::Term tagBit;     ///< the chosen site's own copy bit (0 unless it is an async copy)
  cvc5::Term collective; ///< Bool: the chosen site is a work-group's collective access (async copy)
  cvc5::Term siteId;     ///< the chosen site's id (32-bit)
  bool allExact = true, noneExact = true;

  cvc5::Term exactOnly(TermFactory &tf) const {
    cvc5::Term any = tf.boolean(false);
    for (std::size_t i = 0; i < sites.size(); ++i)
      if (how[i].exact())
        any = tf.lor(any, isChosen(tf, i));
    return any;
  }
  cvc5::Term isChosen(TermFactory &tf, std::size_t i) const {
    return sites.size() == 1 ? tf.boolean(true) : tf.eq(selector, tf.constant(32, i));
  }
};

const cvc5::Term &epochOf(const AccessRecord &r, bool local) { return local ? r.localEpoch : r.globalEpoch; }

SiteChoice chooseSite(EncodingState &s, unsigned t, const std::vector<unsigned> &sites, bool local,
                      bool withValue, bool ordering, unsigned query) {
  TermFactory &tf = s.tf;
  SiteChoice c;
  c.sites = sites;
  for (unsigned id : sites) {
    const AccessRecord &r = s.records[t][id];
    Exactness how = r.reachHow & r.pointer.how & r.sizeHow;
    if (withValue)
      how = how & r.value.how;
    if (ordering)
      how = how & r.doneHow; // whether a copy is complete decides the race
    c.how.push_back(how);
    c.allExact = c.allExact && how.exact();
    c.noneExact = c.noneExact && !how.exact();
  }
  if (sites.size() == 1) {
    const AccessRecord &r = s.records[t][sites[0]];
    c.constraint = tf.boolean(true);
    c.reach = r.reach;
    c.object = r.pointer.object;
    c.offset = r.pointer.offset;
    c.size = r.size;
    c.epoch = epochOf(r, local);
    c.done = r.done;
    c.tagBit = r.tagBit;
    c.collective = tf.boolean(s.sites[sites[0]].collective);
    c.siteId = tf.constant(32, sites[0]);
    if (withValue)
      c.value = r.value.term;
    return c;
  }
  std::string tag = std::string("_") + (t == 0 ? "A" : "B") + "_q" + std::to_string(query);
  const AccessRecord &first = s.records[t][sites[0]];
  c.selector = tf.fresh(tf.bv(32), "site" + tag);
  c.reach = tf.boolean(true);
  c.object = tf.fresh(tf.bv(64), "object" + tag);
  c.offset = tf.fresh(tf.bv(64), "offset" + tag);
  c.size = tf.fresh(tf.bv(64), "size" + tag);
  c.epoch = tf.fresh(epochOf(first, local).getSort(), "interval" + tag);
  c.done = tf.fresh(tf.bv(64), "done" + tag);
  c.tagBit = tf.fresh(tf.bv(64), "tag" + tag);
  c.collective = tf.fresh(s.solver.getBooleanSort(), "collective" + tag);
  c.siteId = tf.fresh(tf.bv(32), "site_id" + tag);
  if (withValue)
    c.value = tf.fresh(first.value.term.getSort(), "value" + tag);
  c.constraint = tf.ult(c.selector, tf.constant(32, sites.size()));
  for (std::size_t i = 0; i < sites.size(); ++i) {
    const AccessRecord &r = s.records[t][sites[i]];
    cvc5::Term is = tf.land(r.reach, tf.eq(c.object, r.pointer.object));
    is = tf.land(is, tf.land(tf.eq(c.offset, r.pointer.offset), tf.eq(c.size, r.size)));
    is = tf.land(is, tf.eq(c.epoch, epochOf(r, local)));
    is = tf.land(is, tf.land(tf.eq(c.done, r.done), tf.eq(c.siteId, tf.constant(32, sites[i]))));
    is = tf.land(is, tf.eq(c.tagBit, r.tagBit));
    is = tf.land(is, tf.eq(c.collective, tf.boolean(s.sites[sites[i]].collective)));
    if (withValue)
      is = tf.land(is, tf.eq(c.value, r.value.term));
    c.constraint = tf.land(c.constraint, tf.lor(tf.lnot(c.isChosen(tf, i)), is));
  }
  return c;
}

/// Same-group pairs need one barrier interval: where every interval is a constant (straight-line or
/// unrolled code), sites whose interval the other work-item never has cannot race and are dropped.
void dropSitesInOtherIntervals(EncodingState &s, std::vector<unsigned> &a, std::vector<unsigned> &b, bool local) {
  auto constantIntervals = [&](unsigned t, const std::vector<unsigned> &sites, std::set<std::uint64_t> &out) {
    for (unsigned id : sites) {
      const cvc5::Term &e = epochOf(s.records[t][id], local);
      if (!e.isBitVectorValue())
        return false;
      out.insert(constantOf(e));
    }
    return true;
  };
  std::set<std::uint64_t> ea, eb;
  for (unsigned id : a)
    if (s.sites[id].collective)
      return; // an async copy is ordered by the wait on its event, not by intervals
  for (unsigned id : b)
    if (s.sites[id].collective)
      return;
  if (!constantIntervals(0, a, ea) || !constantIntervals(1, b, eb))
    return;
  auto keep = [&](unsigned t, std::vector<unsigned> &sites, const std::set<std::uint64_t> &other) {
    sites.erase(std::remove_if(sites.begin(), sites.end(),
                               [&](unsigned id) { return !other.count(constantOf(epochOf(s.records[t][id], local))); }),
                sites.end());
  };
  keep(0, a, eb);
  keep(1, b, ea);
}

/// A site whose memory object is a constant that no site of the other work-item can have never overlaps
/// them (objects are memory objects: arguments the sidecar says alias share one, row 11): it is dropped
/// before the solver sees its reach and address terms, which can be large (32 unrolled reads through
/// captured tables in OpenMM's computeNonbonded, over 85 s of bit-blasting against one write elsewhere).
void dropSitesOfOtherObjects(EncodingState &s, std::vector<unsigned> &a, std::vector<unsigned> &b) {
  auto objects = [&](unsigned t, const std::vector<unsigned> &sites, std::set<std::uint64_t> &out) {
    for (unsigned id : sites) {
      const cvc5::Term &o = s.records[t][id].pointer.object;
      if (!o.isBitVectorValue())
        return false; // some site's object is open: it may be any
      out.insert(constantOf(o));
    }
    return true;
  };
  std::set<std::uint64_t> oa, ob;
  bool allA = objects(0, a, oa), allB = objects(1, b, ob);
  auto keep = [&](unsigned t, std::vector<unsigned> &sites, const std::set<std::uint64_t> &other) {
    sites.erase(std::remove_if(sites.begin(), sites.end(),
                               [&](unsigned id) {
                                 const cvc5::Term &o = s.records[t][id].pointer.object;
                                 return o.isBitVectorValue() && !other.count(constantOf(o));
                               }),
                sites.end());
  };
  if (allB)
    keep(0, a, ob);
  if (allA)
    keep(1, b, oa);
}

} // namespace

bool KernelEncoding::groupingIrrelevant(const std::vector<unsigned> &a, const std::vector<unsigned> &b) const {
  const EncodingState &s = m_impl->state;
  for (unsigned t = 0; t < 2; ++t)
    for (unsigned id : t == 0 ? a : b) {
      const AccessRecord &r = s.records[t][id];
      if (!r.present)
        continue;
      const cvc5::Term &e = s.sites[id].space == MemorySpace::Local ? r.localEpoch : r.globalEpoch;
      if (s.sites[id].space != MemorySpace::Global || s.sites[id].collective || !e.isBitVectorValue() ||
          std::stoull(e.getBitVectorValue(10)) != 0)
        return false;
    }
  return true;
}

QueryOutcome KernelEncoding::checkRace(const std::vector<unsigned> &aSites, const std::vector<unsigned> &bSites,
                                       Scope scope, bool differentValues, std::optional<long long> budgetMs) {
  EncodingState &s = m_impl->state;
  TermFactory &tf = s.tf;
  QueryOutcome out;
  out.status = QueryOutcome::Status::Unsat;
  std::vector<unsigned> a, b;
  for (unsigned id : aSites)
    if (s.records[0][id].present)
      a.push_back(id);
  for (unsigned id : bSites)
    if (s.records[1][id].present)
      b.push_back(id);
  if (a.empty() || b.empty())
    return out;
  dropSitesOfOtherObjects(s, a, b);
  if (a.empty() || b.empty())
    return out;
  bool local = s.sites[a[0]].space == MemorySpace::Local;
  if (scope == Scope::SameGroup && oneWorkItemPerGroup(s.launch))
    return out; // no two work-items share a group
  if (scope == Scope::SameGroup) {
    dropSitesInOtherIntervals(s, a, b, local);
    if (a.empty() || b.empty())
      return out;
  } else if (scope == Scope::DifferentGroups) {
    // One work-group only: no pair of work-items in different groups (asked once).
    if (!s.severalGroups) {
      cvc5::Result r = s.solver.checkSatAssuming(tf.lnot(s.sameGroup));
      s.severalGroups = !r.isUnsat();
    }
    if (!*s.severalGroups)
      return out;
  }
  if (differentValues) {
    // Comparing values needs every writer's value, all of one width; otherwise nothing is proven benign.
    std::optional<unsigned> width;
    for (unsigned t = 0; t < 2; ++t)
      for (unsigned id : t == 0 ? a : b) {
        const AccessRecord &r = s.records[t][id];
        if (!r.hasValue || !r.value.term.getSort().isBitVector() ||
            (width && *width != r.value.term.getSort().getBitVectorSize())) {
          out.status = QueryOutcome::Status::Sat;
          out.exact = false;
          return out;
        }
        width = r.value.term.getSort().getBitVectorSize();
      }
  }
  unsigned query = s.queryCount++;
  try {
    bool copies = false;
    for (unsigned id : a)
      copies = copies || s.sites[id].collective;
    for (unsigned id : b)
      copies = copies || s.sites[id].collective;
    bool ordering = copies && scope == Scope::SameGroup;
    SiteChoice ca = chooseSite(s, 0, a, local, differentValues, ordering, query);
    SiteChoice cb = chooseSite(s, 1, b, local, differentValues, ordering, query);
    cvc5::Term q = tf.land(ca.constraint, cb.constraint);
    q = tf.land(q, tf.land(ca.reach, cb.reach));
    q = tf.land(q, tf.eq(ca.object, cb.object));
    if (alignedUnit(s, a, b))
      q = tf.land(q, tf.eq(ca.offset, cb.offset)); // aligned units of one size overlap only when they coincide
    else
      q = tf.land(q, tf.land(tf.ult(ca.offset, tf.add(cb.offset, cb.size)), tf.ult(cb.offset, tf.add(ca.offset, ca.size))));
    if (scope == Scope::SameGroup) {
      q = tf.land(q, s.sameGroup);
      if (!ordering) {
        q = tf.land(q, tf.eq(ca.epoch, cb.epoch)); // a barrier of the memory's fence orders plain accesses
      } else {
        // An async copy is the group's, not one work-item's (OpenCL 1.2 §6.12.10). It is ordered before an
        // access only by a wait_group_events on its own event that the access follows — a barrier does
        // not complete it; it is ordered after accesses that a barrier (of the memory's fence) separates
        // from its start; it does not race with itself. Two plain accesses: one barrier interval.
        cvc5::Term zero = tf.constant(64, 0);
        auto completeBefore = [&](const SiteChoice &copy, const SiteChoice &other) {
          return tf.land(copy.collective, tf.lnot(tf.eq(tf.op(cvc5::Kind::BITVECTOR_AND, {copy.tagBit, other.done}), zero)));
        };
        auto startsAfter = [&](const SiteChoice &copy, const SiteChoice &other) {
          return tf.land(tf.land(copy.collective, tf.lnot(other.collective)), tf.ult(other.epoch, copy.epoch));
        };
        cvc5::Term ordered = tf.lor(completeBefore(ca, cb), completeBefore(cb, ca));
        ordered = tf.lor(ordered, tf.lor(startsAfter(ca, cb), startsAfter(cb, ca)));
        ordered = tf.lor(ordered, tf.land(tf.land(ca.collective, cb.collective), tf.eq(ca.siteId, cb.siteId)));
        cvc5::Term plain = tf.land(tf.lnot(ca.collective), tf.lnot(cb.collective));
        ordered = tf.lor(ordered, tf.land(plain, tf.lnot(tf.eq(ca.epoch, cb.epoch))));
        q = tf.land(q, tf.lnot(ordered));
      }
    }
    else if (scope == Scope::DifferentGroups)
      q = tf.land(q, tf.lnot(s.sameGroup));
    if (differentValues) {
      // Same-value writes are benign only when they put the same bytes in the bytes both write: equal
      // values at different offsets (a vstore2 overlapping another by one lane, packed struct fields) do
      // not. Widths are equal (checked above); on a little-endian device, with d = off_B − off_A > 0, A's
      // bytes [d, w) meet B's bytes [0, w − d): (v_A >> 8d) against (v_B << 8d) >> 8d, and the other way
      // round for d < 0. Big-endian: any offset difference counts as different bytes.
      unsigned width = tf.width(ca.value);
      cvc5::Term differ = tf.lnot(tf.eq(ca.value, cb.value));
      cvc5::Term sameOffset = tf.eq(ca.offset, cb.offset);
      if (s.launch.endianness == format::Endianness::Little) {
        auto shifted = [&](const cvc5::Term &low, const cvc5::Term &high, const cvc5::Term &from, const cvc5::Term &to) {
          cvc5::Term bits = tf.resize(tf.mul(tf.op(cvc5::Kind::BITVECTOR_SUB, {to, from}), tf.constant(64, 8)), width, false);
          cvc5::Term lowPart = tf.op(cvc5::Kind::BITVECTOR_LSHR, {low, bits});
          cvc5::Term highPart = tf.op(cvc5::Kind::BITVECTOR_LSHR, {tf.op(cvc5::Kind::BITVECTOR_SHL, {high, bits}), bits});
          return tf.lnot(tf.eq(lowPart, highPart));
        };
        cvc5::Term aFirst = tf.ult(ca.offset, cb.offset);
        differ = tf.ite(sameOffset, differ,
                        tf.ite(aFirst, shifted(ca.value, cb.value, ca.offset, cb.offset),
                               shifted(cb.value, ca.value, cb.offset, ca.offset)));
      } else {
        differ = tf.lor(tf.lnot(sameOffset), differ);
      }
      q = tf.land(q, differ);
    }
    std::string label = "race between access" + std::string(a.size() > 1 ? "es" : "");
    for (unsigned id : a)
      label += " " + std::to_string(id);
    label += " (A) and";
    for (unsigned id : b)
      label += " " + std::to_string(id);
    label += std::string(" (B), ") +
             (scope == Scope::SameGroup ? "same group" : scope == Scope::DifferentGroups ? "different groups" : "any two work-items") +
             (differentValues ? ", different values" : "");
    // A witness through exact sites first; only when there is none, one through an abstraction.
    bool mixed = !(ca.allExact && cb.allExact) && !ca.noneExact && !cb.noneExact;
    cvc5::Term asked = q;
    if (mixed) {
      asked = tf.land(q, tf.land(ca.exactOnly(tf), cb.exactOnly(tf)));
      out = ask(s, asked, label + ", exact sites only", budgetMs);
      if (out.status == QueryOutcome::Status::Unknown)
        return out;
    }
    if (!mixed || out.status == QueryOutcome::Status::Unsat) {
      asked = q;
      out = ask(s, q, label, budgetMs);
    }
    if (out.status != QueryOutcome::Status::Sat)
      return out;
    auto chosen = [&](const SiteChoice &c) -> std::size_t {
      return c.sites.size() == 1 ? 0 : static_cast<std::size_t>(modelValue(s.solver, c.selector));
    };
    std::size_t ia = chosen(ca), ib = chosen(cb);
    Exactness how = ca.how[ia] & cb.how[ib];
    if (how.exact()) {
      if (!keepWithinGuards(s, asked, label, out))
        return out;
      preferSmallValues(s, tf.land(asked, withinGuards(s)), label);
      ia = chosen(ca);
      ib = chosen(cb);
      how = ca.how[ia] & cb.how[ib];
    }
    out.exact = how.exact();
    out.abstraction = how.abstraction;
    RaceWitness w;
    w.values = openValuesFromModel(s);
    w.siteA = ca.sites[ia];
    w.siteB = cb.sites[ib];
    w.a = idsFromModel(s, 0);
    w.b = idsFromModel(s, 1);
    w.offsetA = modelValue(s.solver, ca.offset);
    w.offsetB = modelValue(s.solver, cb.offset);
    std::uint64_t object = modelValue(s.solver, ca.object);
    if (auto it = s.objectNames.find(object); it != s.objectNames.end())
      w.object = it->second;
    // Offsets are within the root object; a sub-buffer argument's own origin is left in (bytes of the parent).
    w.localSize = localSizeFromModel(s);
    out.race = w;
  } catch (const cvc5::CVC5ApiException &e) {
    out.status = QueryOutcome::Status::Unknown;
    out.unknownReason = std::string("solver error: ") + e.what();
  }
  return out;
}

QueryOutcome KernelEncoding::checkDivergence(unsigned barrier) {
  EncodingState &s = m_impl->state;
  TermFactory &tf = s.tf;
  const BarrierRecord &ra = s.barrierRecords[0][barrier];
  const BarrierRecord &rb = s.barrierRecords[1][barrier];
  QueryOutcome out;
  if (!ra.present || !rb.present || oneWorkItemPerGroup(s.launch)) {
    out.status = QueryOutcome::Status::Unsat; // a group of one work-item cannot disagree with itself
    return out;
  }
  const std::string &function = s.barriers[barrier].function;
  try {
    // In a loop, both at the same iteration: a work-group function is reached by the whole group at each.
    cvc5::Term together = s.sameGroup;
    for (std::size_t i = 0; i < ra.iterations.size() && i < rb.iterations.size(); ++i)
      together = tf.land(together, tf.eq(ra.iterations[i], rb.iterations[i]));
    cvc5::Term q = tf.land(together, tf.land(ra.reach, tf.lnot(rb.reach)));
    std::string label = function + " " + std::to_string(barrier) + " reached by A, not by B of the same group";
    out = ask(s, q, label);
    if (out.status == QueryOutcome::Status::Sat) {
      Exactness how = ra.reachHow & rb.reachHow;
      if (how.exact() && !keepWithinGuards(s, q, label, out))
        return out;
      if (how.exact())
        preferSmallValues(s, tf.land(q, withinGuards(s)), label);
      out.exact = how.exact();
      out.abstraction = how.abstraction;
      out.divergence = DivergenceWitness{idsFromModel(s, 0), idsFromModel(s, 1), false, openValuesFromModel(s),
                                         localSizeFromModel(s)};
      return out;
    }
    if (out.status != QueryOutcome::Status::Unsat || ra.uniformArgs.size() != rb.uniformArgs.size())
      return out;
    // Both reach it: with the same arguments (the same elements and event of an async copy, the same
    // events waited for, the same fence flags)?
    cvc5::Term differ = tf.boolean(false);
    for (std::size_t i = 0; i < ra.uniformArgs.size(); ++i)
      if (ra.uniformArgs[i].getSort() == rb.uniformArgs[i].getSort() && ra.uniformArgs[i] != rb.uniformArgs[i])
        differ = tf.lor(differ, tf.lnot(tf.eq(ra.uniformArgs[i], rb.uniformArgs[i])));
    if (differ.isBooleanValue() && !differ.getBooleanValue())
      return out;
    q = tf.land(together, tf.land(tf.land(ra.reach, rb.reach), differ));
    label = function + " " + std::to_string(barrier) + " reached by A and B of the same group with different arguments";
    out = ask(s, q, label);
    if (out.status != QueryOutcome::Status::Sat)
      return out;
    Exactness how = ra.reachHow & rb.reachHow & ra.argsHow & rb.argsHow;
    if (how.exact() && !keepWithinGuards(s, q, label, out))
      return out;
    if (how.exact())
      preferSmallValues(s, tf.land(q, withinGuards(s)), label);
    out.exact = how.exact();
    out.abstraction = how.abstraction;
    out.divergence = DivergenceWitness{idsFromModel(s, 0), idsFromModel(s, 1), true, openValuesFromModel(s),
                                       localSizeFromModel(s)};
  } catch (const cvc5::CVC5ApiException &e) {
    out.status = QueryOutcome::Status::Unknown;
    out.unknownReason = std::string("solver error: ") + e.what();
  }
  return out;
}

} // namespace clcapture::encode
