//===- LaunchSetUp.cpp - The launch's sizes, the work-items' ids, the shared values ----===//

#include "LaunchSetUp.h"

#include "ArgumentNames.h"
#include "LaunchFacts.h"
#include "clcapture/frontend/ProgramVariables.h"
#include "clcapture/model/LaunchSpecializer.h"

#include <algorithm>
#include <llvm/ADT/StringExtras.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Module.h>
#include <map>
#include <set>
#include <string>

namespace clcapture::encode::detail {

namespace {

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

/// Bounds an open scalar by the values of the launches a parametric proof covers (docs/semantics.md row 35):
/// one of them when there are at most model::kCandidateSetMax, else between the least and the greatest
/// in whichever order (unsigned or signed) gives the narrower interval. Each candidate's bits come from
/// capturedScalarBits, as a captured value's do, so every covered launch's value satisfies the bound; when
/// one does not fit the type, nothing is bounded.
void boundByCandidates(EncodingState &s, const cvc5::Term &open, const model::ArgumentFact &fact) {
  if (fact.candidates.empty() || !open.getSort().isBitVector())
    return;
  TermFactory &tf = s.tf;
  unsigned width = open.getSort().getBitVectorSize();
  std::vector<llvm::APInt> values;
  for (const std::vector<std::uint8_t> &bytes : fact.candidates) {
    auto bits = model::capturedScalarBits(bytes, width, s.launch.endianness);
    if (!bits)
      return;
    values.push_back(*bits);
  }
  auto term = [&](const llvm::APInt &v) {
    return s.solver.mkBitVector(width, llvm::toString(v, 16, false), 16);
  };
  auto unsignedLess = [](const llvm::APInt &a, const llvm::APInt &b) { return a.ult(b); };
  auto signedLess = [](const llvm::APInt &a, const llvm::APInt &b) { return a.slt(b); };
  auto [umin, umax] = std::minmax_element(values.begin(), values.end(), unsignedLess);
  auto [smin, smax] = std::minmax_element(values.begin(), values.end(), signedLess);
  llvm::APInt uspan = *umax - *umin, sspan = *smax - *smin; // both as unsigned counts of values
  if (values.size() <= model::kCandidateSetMax) {
    cvc5::Term any = tf.boolean(false);
    for (const llvm::APInt &v : values)
      any = tf.lor(any, tf.eq(open, term(v)));
    s.solver.assertFormula(any);
  } else if (uspan.ule(sspan)) {
    s.solver.assertFormula(tf.land(tf.ule(term(*umin), open), tf.ule(open, term(*umax))));
  } else {
    s.solver.assertFormula(tf.land(tf.op(cvc5::Kind::BITVECTOR_SLE, {term(*smin), open}),
                                   tf.op(cvc5::Kind::BITVECTOR_SLE, {open, term(*smax)})));
    return; // a signed interval may wrap in unsigned order: no unsigned bound
  }
  if (width <= 64)
    tf.boundVariable(open, umax->getZExtValue()); // as asserted: interval arithmetic may use it
}

} // namespace

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
        s.numGroups[d] = tf.op(
            cvc5::Kind::BITVECTOR_UDIV,
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
        tf.boundVariable(rel, l.globalSize[d] - 1); // as asserted: interval arithmetic may use it
        s.ids[t].local[d] = tf.op(cvc5::Kind::BITVECTOR_UREM, {rel, s.localSize[d]});
        s.ids[t].group[d] = tf.op(cvc5::Kind::BITVECTOR_UDIV, {rel, s.localSize[d]});
        s.ids[t].global[d] = tf.add(rel, s.globalOffset[d]);
        s.ids[t].localSize[d] = groupSize(d, s.ids[t].group[d]);
        continue;
      }
      cvc5::Term lid = idVariable(tf, "local_id_" + dim, (*l.localSize)[d]);
      cvc5::Term grp =
          idVariable(tf, "group_id_" + dim, (l.globalSize[d] + (*l.localSize)[d] - 1) / (*l.localSize)[d]);
      s.ids[t].localSize[d] = groupSize(d, grp);
      s.solver.assertFormula(tf.ult(lid, s.ids[t].localSize[d]));
      s.solver.assertFormula(tf.ult(grp, s.numGroups[d]));
      // As asserted (a last group is no larger than the others): interval arithmetic may use them.
      tf.boundVariable(lid, (*l.localSize)[d] - 1);
      tf.boundVariable(grp, (l.globalSize[d] + (*l.localSize)[d] - 1) / (*l.localSize)[d] - 1);
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
  // One work-item has no other to race with; the bounds query still asks about it, so A is free then.
  if (!oneWorkItem(s.launch))
    s.solver.assertFormula(s.distinct);
}

void setUpSharedValues(EncodingState &s) {
  TermFactory &tf = s.tf;
  std::uint64_t localVariables = 0, constantVariables = 0, globalVariables = 0;
  for (llvm::GlobalVariable &g : s.kernel.getParent()->globals()) {
    unsigned space = g.getAddressSpace();
    // Private ones are Clang's initialisers of private aggregates: read-only copies' sources, followed only
    // when nothing writes them (then ReadOnlyTables reads their initialisers).
    if (space != 3 && space != 2 && space != 1 && !(space == 0 && frontend::isUnwrittenVariable(g)))
      continue;
    std::uint64_t object = space == 3                 ? kLocalVariableObject + localVariables++
                           : space == 2 || space == 0 ? kConstantVariableObject + constantVariables++
                                                      : kGlobalVariableObject + globalVariables++;
    SymPointer p;
    p.space = static_cast<MemorySpace>(space);
    p.object = tf.constant(64, object);
    p.offset = tf.constant(64, 0);
    s.sharedPointers[&g] = p;
    // Clang names a kernel's __local variable "kernel.var"; the source name is what users know.
    std::string name = g.getName().str();
    if (auto dot = name.rfind('.'); dot != std::string::npos)
      name = name.substr(dot + 1);
    s.objectNames[object] = name;
    s.objectRegions[object].push_back({0, s.layout.getTypeAllocSize(g.getValueType()).getFixedValue()});
  }
  s.objectNames[kNullObject] = "NULL"; // a race through it reads "race on NULL[3]"
  std::set<std::uint64_t> unsized;     // objects some argument reaches without a known region
  // Per object with buffer arguments: whether every one of them is read-only, and whether every one is
  // write-only.
  std::map<std::uint64_t, std::pair<bool, bool>> allReadOnlyWriteOnly;
  for (llvm::Argument &arg : s.kernel.args()) {
    unsigned no = arg.getArgNo();
    const model::ArgumentFact *fact = no < s.launch.arguments.size() ? &s.launch.arguments[no] : nullptr;
    if (arg.getType()->isPointerTy()) {
      SymPointer p;
      p.space = static_cast<MemorySpace>(arg.getType()->getPointerAddressSpace());
      std::uint64_t object, origin = 0;
      if (p.space == MemorySpace::Local) {
        object = kLocalArgumentObject + no;
      } else if (p.space == MemorySpace::Private) {
        object = kPrivateObject + (1ull << 40) + no; // by-value struct
      } else if (fact && fact->kind == model::ArgumentFact::Kind::Buffer && fact->null) {
        object = kNullObject; // clSetKernelArg with NULL: accesses through it are null dereferences
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
        p.how = Exactness{"where " + argumentName(arg, s.launch) +
                          " lies in the memory it shares with another argument"};
      }
      s.sharedPointers[&arg] = p;
      if (!s.objectNames.count(object))
        s.objectNames[object] = argumentName(arg, s.launch);
      if (object == kNullObject)
        continue;
      if (fact && fact->kind == model::ArgumentFact::Kind::Buffer) {
        // An object is read-only (write-only) only when every buffer argument on it is: another argument
        // may reach the same bytes with the other right (a sub-buffer's flags are its own).
        auto &[readOnly, writeOnly] = allReadOnlyWriteOnly.try_emplace(object, true, true).first->second;
        readOnly = readOnly && fact->readOnly;
        writeOnly = writeOnly && fact->writeOnly;
      }
      bool sized = fact && fact->size && !fact->originOpen &&
                   (p.space == MemorySpace::Local || fact->kind == model::ArgumentFact::Kind::Buffer);
      if (fact && fact->kind == model::ArgumentFact::Kind::Sampler && fact->sampler)
        s.samplers[&arg] = *fact->sampler;
      if (sized)
        s.objectRegions[object].push_back({origin, *fact->size});
      else if (fact && fact->kind == model::ArgumentFact::Kind::Image && fact->image)
        s.images[object] = *fact->image; // its pixels, not bytes: checked by coordinates
      else if (p.space != MemorySpace::Private &&
               !(fact && fact->kind == model::ArgumentFact::Kind::Sampler)) {
        unsized.insert(object);
        s.unsizedObjects.insert(argumentName(arg, s.launch));
      }
      continue;
    }
    // Scalars the specialiser could not fold: open, but the same for both work-items.
    cvc5::Sort sort =
        arg.getType()->isIntegerTy(1)
            ? s.solver.getBooleanSort()
            : tf.bv(static_cast<unsigned>(s.layout.getTypeSizeInBits(arg.getType()).getFixedValue()));
    // A captured value the specialiser did not fold (a vector, a value wider than 64 bits) is read here;
    // anything else is open, and marked so.
    if (fact && fact->bytes && !sort.isBoolean() &&
        (!arg.getType()->isVectorTy() || s.launch.endianness == format::Endianness::Little))
      if (auto bits = model::capturedScalarBits(*fact->bytes, sort.getBitVectorSize(), s.launch.endianness)) {
        s.sharedValues[&arg] =
            SymValue{s.solver.mkBitVector(sort.getBitVectorSize(), llvm::toString(*bits, 16, false), 16), {}};
        continue;
      }
    cvc5::Term open = tf.fresh(sort, "arg_" + argumentName(arg, s.launch));
    if (fact && fact->bytes) {
      // A captured value that does not fit: the capture is wrong about something, so no value of it is
      // known to be the launch's.
      std::string why =
          "the argument " + argumentName(arg, s.launch) + ", whose captured value does not fit its type";
      s.sharedValues[&arg] = SymValue{open, Exactness{why}};
      continue;
    }
    // docs/contract.md §5: a value the capture does not give is unconstrained — the kernel may be launched
    // with any of them, so each is a real launch (exact, like the ids), and a witness names the one it chose.
    s.sharedValues[&arg] = SymValue{open, {}};
    if (fact)
      boundByCandidates(s, open, *fact);
    if (!arg.use_empty())
      s.openArguments.push_back(OpenArgument{argumentName(arg, s.launch), argumentType(s.kernel, no), open});
  }
  // An object that one argument reaches without a known region is not checked at all: an access through
  // that argument may lie anywhere in it.
  for (std::uint64_t object : unsized)
    s.objectRegions.erase(object);
  for (const auto &[object, modes] : allReadOnlyWriteOnly) {
    if (modes.first)
      s.readOnlyObjects.insert(object);
    if (modes.second)
      s.writeOnlyObjects.insert(object);
  }
}

} // namespace clcapture::encode::detail
