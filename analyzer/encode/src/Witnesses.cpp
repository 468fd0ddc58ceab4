//===- Witnesses.cpp - Reading a witness out of a model, and keeping it to defined behaviour ----===//

#include "Witnesses.h"

#include "SolverQuery.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <llvm/ADT/APInt.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Analysis/CFG.h>
#include <map>
#include <set>
#include <vector>

namespace clcapture::encode::detail {

namespace {

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
      {"char", 8},  {"uchar", 8},  {"short", 16}, {"ushort", 16}, {"int", 32},    {"uint", 32},
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

/// The first guard (WitnessGuard) the current model breaks, or null: a witness there rests on behaviour the
/// kernel does not define, where exact terms over-approximate.
/// Whether work-item `t`'s step at `inst` counts for a witness: always, or with `upTo` (a bounds witness:
/// work-item A's execution up to that access) only A's steps that may run before it.
bool before(unsigned t, const llvm::Instruction *inst, const llvm::Instruction *upTo) {
  if (!upTo)
    return true;
  if (t != 0)
    return false;
  return !inst || (inst != upTo && llvm::isPotentiallyReachable(inst, upTo));
}

const WitnessGuard *brokenGuard(EncodingState &s, const llvm::Instruction *upTo) {
  for (unsigned t = 0; t < 2; ++t)
    for (const WitnessGuard &g : s.guards[t]) {
      if (!before(t, g.inst, upTo))
        continue;
      cvc5::Term v = s.solver.getValue(g.violated);
      if (v.isBooleanValue() && v.getBooleanValue())
        return &g;
    }
  return nullptr;
}

} // namespace

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

OpenValues openValuesFromModel(EncodingState &s, const llvm::Instruction *upTo) {
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
      if (!before(t, r.inst, upTo))
        continue;
      cvc5::Term reached = s.solver.getValue(r.reach);
      if (named.size() >= 8 || !reached.isBooleanValue() || !reached.getBooleanValue())
        continue;
      std::uint64_t offset = modelValue(s.solver, r.offset);
      std::string name = r.fields && r.fields->count(offset) ? r.name + "." + r.fields->at(offset)
                         : r.fields                          ? r.name + " byte " + std::to_string(offset)
                         : offset % r.elementBytes == 0
                             ? r.name + "[" + std::to_string(offset / r.elementBytes) + "]"
                             : r.name + " byte " + std::to_string(offset);
      cvc5::Term v = s.solver.getValue(r.value);
      if (!v.isBitVectorValue() || !named.insert(name).second)
        continue;
      llvm::APInt bits(v.getSort().getBitVectorSize(), v.getBitVectorValue(16), 16);
      out.emplace_back(name, literalOf(bits, r.type));
    }
  return out;
}

OpenValues indexVariablesFromModel(EncodingState &s, const AccessRecord &r) {
  static const std::map<unsigned, const char *> kSigned = {
      {8, "char"}, {16, "short"}, {32, "int"}, {64, "long"}};
  OpenValues out;
  for (const auto &[name, term] : r.indexVariables) {
    cvc5::Term v = s.solver.getValue(term);
    if (!v.isBitVectorValue())
      continue;
    unsigned bits = v.getSort().getBitVectorSize();
    llvm::APInt value(bits, v.getBitVectorValue(16), 16);
    out.emplace_back(name, literalOf(value, kSigned.count(bits) ? kSigned.at(bits) : ""));
  }
  return out;
}

std::optional<std::array<std::uint64_t, 3>> localSizeFromModel(EncodingState &s) {
  if (!s.localSizeOpen)
    return std::nullopt;
  return std::array<std::uint64_t, 3>{modelValue(s.solver, s.localSize[0]),
                                      modelValue(s.solver, s.localSize[1]),
                                      modelValue(s.solver, s.localSize[2])};
}

cvc5::Term withinGuards(EncodingState &s, const llvm::Instruction *upTo) {
  cvc5::Term all = s.tf.boolean(true);
  for (unsigned t = 0; t < 2; ++t)
    for (const WitnessGuard &g : s.guards[t])
      if (before(t, g.inst, upTo))
        all = s.tf.land(all, s.tf.lnot(g.violated));
  return all;
}

bool keepWithinGuards(EncodingState &s, const cvc5::Term &query, const std::string &label, QueryOutcome &out,
                      const llvm::Instruction *upTo) {
  const WitnessGuard *broken = brokenGuard(s, upTo);
  if (!broken)
    return true;
  std::string what = broken->what;
  QueryOutcome again = ask(s, s.tf.land(query, withinGuards(s, upTo)), label + ", defined behaviour only");
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

namespace {

/// The least unsigned value of `term` (at most 64 bits) over the models of `query`, by bisection from `high`,
/// a value of it in the current model: each probe asks `query ∧ term ≤ mid` within `probeMs`, while `probes`
/// are left and until `until`; a probe not settled in time ends it. Returns the least value proven to have a
/// model; `modelHolds` says whether the solver's current model is one of `query ∧ term ≤ that`.
std::uint64_t bisectLeast(EncodingState &s, const cvc5::Term &query, const cvc5::Term &term,
                          std::uint64_t high, unsigned &probes, std::chrono::steady_clock::time_point until,
                          const std::string &label, bool &modelHolds) {
  constexpr long long kProbeMs = 500;
  TermFactory &tf = s.tf;
  unsigned w = tf.width(term);
  std::uint64_t low = 0;
  modelHolds = true;
  while (low < high && probes > 0 && std::chrono::steady_clock::now() < until) {
    std::uint64_t mid = low + (high - low) / 2;
    --probes;
    QueryOutcome o = ask(s, tf.land(query, tf.ule(term, tf.constant(w, mid))), label, kProbeMs);
    modelHolds = o.status == QueryOutcome::Status::Sat;
    if (modelHolds) {
      high = std::min(mid, modelValue(s.solver, term));
    } else if (o.status == QueryOutcome::Status::Unsat) {
      low = mid + 1;
    } else {
      probes = 0; // not settled in time: keep what is proven
    }
  }
  return high;
}

/// After a bisection that left the solver without a model: one of `query ∧ preferred` (which has one), else
/// one of `query`.
void restoreModel(EncodingState &s, const cvc5::Term &query, const cvc5::Term &preferred,
                  const std::string &label) {
  if (ask(s, s.tf.land(query, preferred), label).status != QueryOutcome::Status::Sat)
    ask(s, query, label + ", any model");
}

} // namespace

void preferLeastArguments(EncodingState &s, const cvc5::Term &query, const std::string &label) {
  unsigned probes = 96;
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  TermFactory &tf = s.tf;
  cvc5::Term fixed = tf.boolean(true); // the least values found so far: query ∧ fixed has a model
  bool modelHolds = true;              // the solver's current model is one of query ∧ fixed
  for (const OpenArgument &a : s.openArguments) {
    if (!a.term.getSort().isBitVector() || tf.width(a.term) > 64)
      continue;
    if (!modelHolds) { // the last probe had no model: take one of query ∧ fixed again
      if (probes == 0)
        break;
      --probes;
      modelHolds = ask(s, tf.land(query, fixed), label + ", least open values", 500).status ==
                   QueryOutcome::Status::Sat;
      if (!modelHolds)
        break;
    }
    std::uint64_t least = bisectLeast(s, tf.land(query, fixed), a.term, modelValue(s.solver, a.term), probes,
                                      until, label + ", least " + a.name, modelHolds);
    fixed = tf.land(fixed, tf.ule(a.term, tf.constant(tf.width(a.term), least)));
  }
  if (!modelHolds)
    restoreModel(s, query, fixed, label + ", least open values");
}

void preferNearestOffset(EncodingState &s, const cvc5::Term &query, const cvc5::Term &offset,
                         const std::string &label) {
  TermFactory &tf = s.tf;
  if (!offset.getSort().isBitVector() || tf.width(offset) != 64 || offset.isBitVectorValue())
    return;
  // Past the end the least offset is nearest; before the start (a negative offset) the greatest, which is
  // the least of its complement.
  bool before = modelValue(s.solver, offset) >> 63;
  cvc5::Term distance = before ? tf.op(cvc5::Kind::BITVECTOR_NOT, {offset}) : offset;
  unsigned probes = 24;
  bool modelHolds = true;
  std::uint64_t least = bisectLeast(s, query, distance, modelValue(s.solver, distance), probes,
                                    std::chrono::steady_clock::now() + std::chrono::seconds(5),
                                    label + ", nearest access", modelHolds);
  if (!modelHolds)
    restoreModel(s, query, tf.ule(distance, tf.constant(64, least)), label + ", nearest access");
}

} // namespace clcapture::encode::detail
