//===- KernelEncoding.cpp - GPUVerify's two-thread reduction, in CVC5 ----===//

#include "clcapture/encode/KernelEncoding.h"

#include "EncodingState.h"
#include "ThreadEncoder.h"
#include "clcapture/model/Builtins.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>

namespace clcapture::encode {

struct KernelEncoding::Impl {
  Impl(llvm::Function &kernel, const model::LaunchConfig &launch, const EncodeOptions &options)
      : state(kernel, launch, options) {}
  EncodingState state;
};

EncodingState::EncodingState(llvm::Function &k, const model::LaunchConfig &l, const EncodeOptions &o)
    : kernel(k), launch(l), options(o), layout(k.getParent()->getDataLayout()) {
  solver.setOption("produce-models", "true");
  solver.setOption("incremental", "true");
  if (options.queryTimeoutMs)
    solver.setOption("tlimit-per", std::to_string(options.queryTimeoutMs));
  solver.setLogic("QF_ABV");
}

unsigned EncodingState::siteFor(const llvm::Instruction *inst) {
  auto it = siteOf.find(inst);
  if (it != siteOf.end())
    return it->second;
  unsigned id = static_cast<unsigned>(sites.size());
  AccessSite site;
  site.id = id;
  site.inst = inst;
  sites.push_back(site);
  siteOf[inst] = id;
  for (auto &r : records)
    r.resize(sites.size());
  return id;
}

unsigned EncodingState::barrierFor(const llvm::Instruction *inst, unsigned fences) {
  auto it = barrierOf.find(inst);
  if (it != barrierOf.end())
    return it->second;
  unsigned id = static_cast<unsigned>(barriers.size());
  barriers.push_back(BarrierSite{id, inst, fences});
  barrierOf[inst] = id;
  for (auto &r : barrierRecords)
    r.resize(barriers.size());
  return id;
}

namespace {

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
/// and memset destinations).
std::vector<const llvm::Value *> writtenPointers(llvm::Function &kernel) {
  std::vector<const llvm::Value *> out;
  for (llvm::Instruction &inst : llvm::instructions(kernel)) {
    if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst))
      out.push_back(store->getPointerOperand());
    else if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&inst))
      out.push_back(rmw->getPointerOperand());
    else if (auto *cx = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&inst))
      out.push_back(cx->getPointerOperand());
    else if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst)) {
      llvm::Function *callee = call->getCalledFunction();
      if (!callee)
        continue;
      if (auto *intr = llvm::dyn_cast<llvm::IntrinsicInst>(call)) {
        if (intr->getIntrinsicID() == llvm::Intrinsic::memcpy || intr->getIntrinsicID() == llvm::Intrinsic::memmove ||
            intr->getIntrinsicID() == llvm::Intrinsic::memset)
          out.push_back(call->getArgOperand(0));
        continue;
      }
      model::Builtin b = model::classifyBuiltin(*callee);
      if (b.kind == model::BuiltinKind::AtomicRmw || b.kind == model::BuiltinKind::AtomicStore)
        out.push_back(call->getArgOperand(0));
      else if (b.kind == model::BuiltinKind::VectorStore && call->arg_size() > 2)
        out.push_back(call->getArgOperand(2));
      else
        for (llvm::Value *arg : call->args())
          if (arg->getType()->isPointerTy())
            out.push_back(arg);
    }
  }
  return out;
}

void setUpLaunch(EncodingState &s) {
  TermFactory &tf = s.tf;
  const model::LaunchConfig &l = s.launch;
  s.localSizeOpen = !l.localSize;
  for (unsigned d = 0; d < 3; ++d) {
    s.globalSize[d] = tf.constant(64, l.globalSize[d]);
    s.globalOffset[d] = tf.constant(64, l.globalOffset[d]);
    if (l.localSize) {
      s.localSize[d] = tf.constant(64, (*l.localSize)[d]);
      s.numGroups[d] = tf.constant(64, l.globalSize[d] / (*l.localSize)[d]);
    } else {
      // A NULL local size: any legal work-group size (a divisor of the global size; OpenCL 1.2 §5.8).
      s.localSize[d] = tf.fresh(tf.bv(64), "local_size_" + std::to_string(d));
      s.solver.assertFormula(tf.ule(tf.constant(64, 1), s.localSize[d]));
      s.solver.assertFormula(tf.ule(s.localSize[d], s.globalSize[d]));
      s.solver.assertFormula(
          tf.eq(tf.op(cvc5::Kind::BITVECTOR_UREM, {s.globalSize[d], s.localSize[d]}), tf.constant(64, 0)));
      s.numGroups[d] = tf.op(cvc5::Kind::BITVECTOR_UDIV, {s.globalSize[d], s.localSize[d]});
    }
  }
  // Two work-items: ids within the NDRange, global id = group × local size + local id + offset.
  for (unsigned t = 0; t < 2; ++t) {
    const char *who = t == 0 ? "A" : "B";
    for (unsigned d = 0; d < 3; ++d) {
      cvc5::Term lid = tf.fresh(tf.bv(64), std::string("local_id_") + std::to_string(d) + "_" + who);
      cvc5::Term grp = tf.fresh(tf.bv(64), std::string("group_id_") + std::to_string(d) + "_" + who);
      s.solver.assertFormula(tf.ult(lid, s.localSize[d]));
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
      s.sharedPointers[&arg] = p;
      if (!s.objectNames.count(object))
        s.objectNames[object] = argumentName(arg, s.launch);
      continue;
    }
    // Scalars the specialiser could not fold: open, but the same for both work-items.
    cvc5::Sort sort = arg.getType()->isIntegerTy(1)
                          ? s.solver.getBooleanSort()
                          : tf.bv(static_cast<unsigned>(s.layout.getTypeSizeInBits(arg.getType()).getFixedValue()));
    Exactness how;
    if (!fact || !fact->bytes)
      how = Exactness{"the argument " + argumentName(arg, s.launch) + ", which the capture does not give"};
    s.sharedValues[&arg] = SymValue{tf.fresh(sort, "arg_" + argumentName(arg, s.launch)), how};
  }
}

/// Which memory objects a write may reach; read-only buffers with captured bytes become exact tables.
void setUpReadOnlyTables(EncodingState &s) {
  for (const llvm::Value *pointer : writtenPointers(s.kernel)) {
    auto roots = rootsOf(pointer);
    if (!roots) {
      s.anyObjectMayBeWritten = true;
      return;
    }
    for (const llvm::Value *root : *roots)
      if (auto it = s.sharedPointers.find(root); it != s.sharedPointers.end() && it->second.object.isBitVectorValue())
        s.writtenObjects.insert(std::stoull(it->second.object.getBitVectorValue(10)));
  }
  TermFactory &tf = s.tf;
  cvc5::Sort array = s.solver.mkArraySort(tf.bv(64), tf.bv(8));
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
      cvc5::Term table = tf.fresh(array, "byval_" + std::to_string(no));
      for (std::size_t i = 0; i < bytes.size(); ++i)
        table = tf.op(cvc5::Kind::STORE, {table, tf.constant(64, i), tf.constant(8, bytes[i])});
      s.capturedTables[object] = table;
      continue;
    }
    if (fact.kind != model::ArgumentFact::Kind::Buffer || !fact.data || !fact.size ||
        *fact.size > s.options.maxCapturedTableBytes || s.writtenObjects.count(fact.root) || s.capturedTables.count(fact.root))
      continue;
    std::ifstream in(*fact.data, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.eof() && !in.good())
      continue;
    // Bytes outside the capture are open: the table starts from an unknown array, not from zeros.
    cvc5::Term table = tf.fresh(array, "captured_" + std::to_string(fact.root));
    for (std::size_t i = 0; i < bytes.size(); ++i)
      table = tf.op(cvc5::Kind::STORE, {table, tf.constant(64, fact.origin + i),
                                        tf.constant(8, static_cast<unsigned char>(bytes[i]))});
    s.capturedTables[fact.root] = table;
    s.capturedBytes[fact.root] = {fact.origin, std::vector<unsigned char>(bytes.begin(), bytes.end())};
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

QueryOutcome ask(EncodingState &s, const cvc5::Term &query, const std::string &label) {
  s.smtLog += "; " + label + "\n(check-sat-assuming (" + query.toString() + "))\n";
  QueryOutcome out;
  cvc5::Result r = s.solver.checkSatAssuming(query);
  if (r.isUnsat()) {
    out.status = QueryOutcome::Status::Unsat;
  } else if (r.isSat()) {
    out.status = QueryOutcome::Status::Sat;
  } else {
    out.status = QueryOutcome::Status::Unknown;
    out.unknownReason = r.getUnknownExplanation() == cvc5::UnknownExplanation::TIMEOUT ? "solver timeout"
                                                                                       : "the solver gave up";
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
  } catch (const cvc5::CVC5ApiException &e) {
    return format::fail(std::string("internal error while encoding: ") + e.what());
  }
  return std::unique_ptr<KernelEncoding>(new KernelEncoding(std::move(impl)));
}

KernelEncoding::KernelEncoding(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
KernelEncoding::~KernelEncoding() = default;

const std::vector<AccessSite> &KernelEncoding::accesses() const { return m_impl->state.sites; }
const std::vector<BarrierSite> &KernelEncoding::barriers() const { return m_impl->state.barriers; }
std::string KernelEncoding::smtLog() const { return m_impl->state.smtLog; }

QueryOutcome KernelEncoding::checkRace(unsigned a, unsigned b, Scope scope, bool differentValues) {
  EncodingState &s = m_impl->state;
  TermFactory &tf = s.tf;
  const AccessRecord &ra = s.records[0][a];
  const AccessRecord &rb = s.records[1][b];
  QueryOutcome out;
  if (!ra.present || !rb.present) {
    out.status = QueryOutcome::Status::Unsat;
    return out;
  }
  const AccessSite &site = s.sites[a];
  cvc5::Term endA = tf.add(ra.pointer.offset, ra.size), endB = tf.add(rb.pointer.offset, rb.size);
  cvc5::Term q = tf.land(ra.reach, rb.reach);
  q = tf.land(q, tf.eq(ra.pointer.object, rb.pointer.object));
  q = tf.land(q, tf.land(tf.ult(ra.pointer.offset, endB), tf.ult(rb.pointer.offset, endA)));
  Exactness how = ra.reachHow & rb.reachHow & ra.pointer.how & rb.pointer.how & ra.sizeHow & rb.sizeHow;
  if (scope == Scope::SameGroup) {
    q = tf.land(q, s.sameGroup);
    // The barrier interval of the fence that orders this memory. Unrolled straight-line code gives constant
    // intervals: two different ones need no solver.
    bool local = site.space == MemorySpace::Local;
    const cvc5::Term &ea = local ? ra.localEpoch : ra.globalEpoch, &eb = local ? rb.localEpoch : rb.globalEpoch;
    if (ea.isBitVectorValue() && eb.isBitVectorValue() && ea != eb) {
      out.status = QueryOutcome::Status::Unsat;
      return out;
    }
    q = tf.land(q, tf.eq(ea, eb));
  } else {
    // One work-group only: no pair of work-items in different groups (asked once).
    if (!s.severalGroups) {
      cvc5::Result r = s.solver.checkSatAssuming(tf.lnot(s.sameGroup));
      s.severalGroups = !r.isUnsat();
    }
    if (!*s.severalGroups) {
      out.status = QueryOutcome::Status::Unsat;
      return out;
    }
    q = tf.land(q, tf.lnot(s.sameGroup));
  }
  if (differentValues) {
    if (!ra.hasValue || !rb.hasValue ||
        ra.value.term.getSort().getBitVectorSize() != rb.value.term.getSort().getBitVectorSize()) {
      out.status = QueryOutcome::Status::Sat;
      out.exact = false;
      return out;
    }
    q = tf.land(q, tf.lnot(tf.eq(ra.value.term, rb.value.term)));
    how = how & ra.value.how & rb.value.how;
  }
  try {
    out = ask(s, q, "race between access " + std::to_string(a) + " (A) and " + std::to_string(b) + " (B), " +
                        (scope == Scope::SameGroup ? "same group" : "different groups") +
                        (differentValues ? ", different values" : ""));
    if (out.status != QueryOutcome::Status::Sat)
      return out;
    out.exact = how.exact();
    out.abstraction = how.abstraction;
    RaceWitness w;
    w.a = idsFromModel(s, 0);
    w.b = idsFromModel(s, 1);
    w.offsetA = modelValue(s.solver, ra.pointer.offset);
    w.offsetB = modelValue(s.solver, rb.pointer.offset);
    std::uint64_t object = modelValue(s.solver, ra.pointer.object);
    if (auto it = s.objectNames.find(object); it != s.objectNames.end())
      w.object = it->second;
    // Offsets are within the root object; a sub-buffer argument's own origin is left in (bytes of the parent).
    if (s.localSizeOpen)
      w.localSize = std::array<std::uint64_t, 3>{modelValue(s.solver, s.localSize[0]), modelValue(s.solver, s.localSize[1]),
                                                 modelValue(s.solver, s.localSize[2])};
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
  if (!ra.present || !rb.present) {
    out.status = QueryOutcome::Status::Unsat;
    return out;
  }
  cvc5::Term q = tf.land(s.sameGroup, tf.land(ra.reach, tf.lnot(rb.reach)));
  try {
    out = ask(s, q, "barrier " + std::to_string(barrier) + " reached by A, not by B of the same group");
    if (out.status != QueryOutcome::Status::Sat)
      return out;
    Exactness how = ra.reachHow & rb.reachHow;
    out.exact = how.exact();
    out.abstraction = how.abstraction;
    out.divergence = DivergenceWitness{idsFromModel(s, 0), idsFromModel(s, 1)};
  } catch (const cvc5::CVC5ApiException &e) {
    out.status = QueryOutcome::Status::Unknown;
    out.unknownReason = std::string("solver error: ") + e.what();
  }
  return out;
}

} // namespace clcapture::encode
