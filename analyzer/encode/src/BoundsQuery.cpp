//===- BoundsQuery.cpp - KernelEncoding::checkBounds: does an access leave its memory? ----===//
//
// One work-item (A) is enough: an access is out of bounds when A reaches it with a byte outside every region
// its object may be touched in (EncodingState::objectRegions), or reaches it through the null pointer.
// The sites of one source place are asked together, exact sites first, as the race query asks them.
//
//===----------------------------------------------------------------------===//

#include "KernelEncodingImpl.h"
#include "ReachGuards.h"
#include "SolverQuery.h"
#include "Witnesses.h"
#include "clcapture/encode/KernelEncoding.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

namespace clcapture::encode {

using namespace detail;

namespace {

/// [offset, offset + size) lies inside the region (origin, bytes), computed without wrapping.
cvc5::Term insideRegion(TermFactory &tf, const cvc5::Term &offset, const cvc5::Term &size,
                        std::uint64_t origin, std::uint64_t bytes) {
  cvc5::Term from = tf.op(cvc5::Kind::BITVECTOR_SUB, {offset, tf.constant(64, origin)});
  cvc5::Term room = tf.constant(64, bytes);
  return tf.land(tf.ule(tf.constant(64, origin), offset),
                 tf.land(tf.ule(size, room), tf.ule(from, tf.op(cvc5::Kind::BITVECTOR_SUB, {room, size}))));
}

/// The access through `r`'s pointer leaves its memory: through NULL, or outside every region of a sized
/// object (not yet joined with its reach).
cvc5::Term leaves(EncodingState &s, const AccessRecord &r) {
  TermFactory &tf = s.tf;
  const cvc5::Term &object = r.pointer.object, &offset = r.pointer.offset;
  cvc5::Term bad = tf.eq(object, tf.constant(64, kNullObject));
  auto outsideOf = [&](std::uint64_t id,
                       const std::vector<std::pair<std::uint64_t, std::uint64_t>> &regions) {
    cvc5::Term inside = tf.boolean(false);
    for (const auto &[origin, bytes] : regions)
      inside = tf.lor(inside, insideRegion(tf, offset, r.size, origin, bytes));
    return tf.land(tf.eq(object, tf.constant(64, id)), tf.lnot(inside));
  };
  if (object.isBitVectorValue()) { // one object: its regions only (a smaller term)
    auto regions = s.objectRegions.find(std::stoull(object.getBitVectorValue(10)));
    if (regions != s.objectRegions.end())
      bad = tf.lor(bad, outsideOf(regions->first, regions->second));
  } else {
    for (const auto &[id, regions] : s.objectRegions)
      bad = tf.lor(bad, outsideOf(id, regions));
  }
  if (!r.pointer.beyondArray.isNull()) // inside the object, past an array in it
    bad = tf.lor(bad, r.pointer.beyondArray);
  return bad;
}

/// Whether the host's flags forbid `site` to touch `object` as it does: a write to a read-only object, a read
/// of a write-only one (an atomic does both).
bool forbids(const EncodingState &s, const AccessSite &site, std::uint64_t object) {
  return (site.writes && s.readOnlyObjects.count(object)) || (site.reads && s.writeOnlyObjects.count(object));
}

/// The access at `site` touches an object the host's flags forbid it (not yet joined with its reach).
cvc5::Term misuses(EncodingState &s, const AccessRecord &r, const AccessSite &site) {
  TermFactory &tf = s.tf;
  cvc5::Term bad = tf.boolean(false);
  for (const std::set<std::uint64_t> *objects : {&s.readOnlyObjects, &s.writeOnlyObjects})
    for (std::uint64_t object : *objects)
      if (forbids(s, site, object))
        bad = tf.lor(bad, tf.eq(r.pointer.object, tf.constant(64, object)));
  return bad;
}

/// Work-item A reaches the access at `site` and it leaves its memory or touches an object it may not.
cvc5::Term outside(EncodingState &s, const AccessRecord &r, const AccessSite &site) {
  TermFactory &tf = s.tf;
  cvc5::Term some = tf.lnot(tf.eq(r.size, tf.constant(64, 0)));
  return tf.land(r.reach, tf.land(some, tf.lor(leaves(s, r), misuses(s, r, site))));
}

/// Work-item A reaches the image access at `site` and a coordinate leaves its image (docs/semantics.md row
/// 37i), with how exact that is; none when there is nothing to ask: the image's extents are not captured
/// (it is named unchecked), its sampler clamps the coordinates, or interval arithmetic shows each inside.
std::optional<std::pair<cvc5::Term, Exactness>> imageOutside(EncodingState &s, const AccessRecord &r,
                                                             const AccessSite &site) {
  TermFactory &tf = s.tf;
  bool open = !site.imageBoundsOpen.empty();
  if (!open && r.pixel.empty())
    return std::nullopt; // clamped by its sampler
  cvc5::Term bad = tf.boolean(false);
  bool asked = false;
  for (const auto &[object, image] : s.images) {
    std::vector<std::uint64_t> extent = model::imageCoordinateBounds(image);
    if (r.pointer.object.isBitVectorValue() && std::stoull(r.pointer.object.getBitVectorValue(10)) != object)
      continue;
    cvc5::Term out = tf.boolean(open);
    bool lanes = open;
    for (std::size_t i = 0; !open && i < extent.size() && i < r.pixel.size(); ++i) {
      // Unsigned: a negative coordinate is a large one, past every extent.
      cvc5::Term c = tf.resize(r.pixel[i], 64, false);
      if (tf.upperBoundAsserted(c) < extent[i])
        continue;
      out = tf.lor(out, tf.ule(tf.constant(64, extent[i]), c));
      lanes = true;
    }
    if (!lanes)
      continue;
    bad = tf.lor(bad, tf.land(tf.eq(r.pointer.object, tf.constant(64, object)), out));
    asked = true;
  }
  if (!asked)
    return std::nullopt;
  Exactness how = r.reachHow & (open ? Exactness{site.imageBoundsOpen} : r.pixelHow);
  return std::make_pair(tf.land(r.reach, bad), how);
}

/// Terms in a bounds query (distinct subterms) from which reads of captured tables are first left open.
constexpr std::size_t kLargeQueryTerms = 5000;

/// Whether `t` has at least `n` distinct subterms.
bool dagSizeAtLeast(const cvc5::Term &t, std::size_t n) {
  std::unordered_set<cvc5::Term> seen{t};
  std::vector<cvc5::Term> todo{t};
  while (!todo.empty() && seen.size() < n) {
    cvc5::Term u = todo.back();
    todo.pop_back();
    for (const cvc5::Term &child : u)
      if (seen.insert(child).second)
        todo.push_back(child);
  }
  return seen.size() >= n;
}

/// Whether interval arithmetic alone shows the access inside its memory, so no query is needed: its object is
/// one constant, not NULL, and either not checked or its offsets and size fit one region.
bool provablyInside(EncodingState &s, const AccessRecord &r, const AccessSite &site) {
  if (!r.pointer.object.isBitVectorValue() || !r.pointer.beyondArray.isNull())
    return false;
  std::uint64_t object = std::stoull(r.pointer.object.getBitVectorValue(10));
  if (object == kNullObject || forbids(s, site, object))
    return false;
  auto regions = s.objectRegions.find(object);
  if (regions == s.objectRegions.end())
    return true; // memory of unknown size: not checked
  auto fits = [&](std::uint64_t low, std::uint64_t high, std::uint64_t size) {
    std::uint64_t end = 0;
    if (__builtin_add_overflow(high, size, &end))
      return false;
    for (const auto &[origin, bytes] : regions->second)
      if (origin <= low && end <= origin + bytes)
        return true;
    return false;
  };
  if (fits(s.tf.lowerBoundAsserted(r.pointer.offset), s.tf.upperBoundAsserted(r.pointer.offset),
           s.tf.upperBoundAsserted(r.size)))
    return true;
  // The same under the bounds the access's own path keeps its values in (`if (j < n) … p[j]`, row 37h).
  TermFactory::Guards guards = guardsOf(s.tf, r.reach);
  if (guards.upper.empty() && guards.lower.empty())
    return false;
  auto [low, high] = s.tf.boundsUnder(r.pointer.offset, guards);
  return fits(low, high, s.tf.boundsUnder(r.size, guards).second);
}

std::string boundsLabel(const std::vector<unsigned> &sites, bool exactOnly) {
  std::string label = "out-of-bounds access at site" + std::string(sites.size() > 1 ? "s" : "");
  for (unsigned id : sites)
    label += " " + std::to_string(id);
  return label + (exactOnly ? ", exact sites only" : "");
}

/// The first of `terms` (one per site) that holds in the model.
std::size_t chosenSite(EncodingState &s, const std::vector<cvc5::Term> &terms) {
  for (std::size_t i = 0; i < terms.size(); ++i)
    if (s.solver.getValue(terms[i]).getBooleanValue())
      return i;
  return 0;
}

/// The witness of a satisfiable bounds query: the site whose term holds in the model, its place and region.
void describeBounds(EncodingState &s, const std::vector<unsigned> &sites,
                    const std::vector<cvc5::Term> &terms, const std::vector<Exactness> &how,
                    QueryOutcome &out) {
  std::size_t chosen = chosenSite(s, terms);
  const AccessRecord &r = s.records[0][sites[chosen]];
  BoundsWitness w;
  w.a = idsFromModel(s, 0);
  w.values = openValuesFromModel(s, s.sites[sites[chosen]].inst); // what A read on its way there
  w.localSize = localSizeFromModel(s);
  w.site = sites[chosen];
  w.variables = indexVariablesFromModel(s, r);
  std::uint64_t object = modelValue(s.solver, r.pointer.object);
  std::uint64_t offset = modelValue(s.solver, r.pointer.offset);
  w.size = modelValue(s.solver, r.size);
  w.null = object == kNullObject;
  w.beyondArray =
      !r.pointer.beyondArray.isNull() && s.solver.getValue(r.pointer.beyondArray).getBooleanValue();
  // Inside its memory but on an object the host's flags forbid this access: an access-mode finding.
  const AccessSite &site = s.sites[sites[chosen]];
  if (forbids(s, site, object) && !s.solver.getValue(leaves(s, r)).getBooleanValue())
    w.accessMode = site.writes && s.readOnlyObjects.count(object) ? "CL_MEM_READ_ONLY" : "CL_MEM_WRITE_ONLY";
  w.offset = offset;
  if (auto named = s.objectNames.find(object); named != s.objectNames.end())
    w.object = named->second;
  if (auto image = s.images.find(object); image != s.images.end() && !r.pixel.empty()) {
    w.imageExtent = model::imageCoordinateBounds(image->second);
    for (const cvc5::Term &c : r.pixel) { // as the kernel's int coordinates: signed
      unsigned bits = c.getSort().getBitVectorSize();
      std::uint64_t v = modelValue(s.solver, c);
      w.pixel.push_back(bits < 64 && (v >> (bits - 1)) & 1 ? static_cast<std::int64_t>(v | (~0ull << bits))
                                                           : static_cast<std::int64_t>(v));
    }
  }
  if (auto regions = s.objectRegions.find(object); regions != s.objectRegions.end() && !w.null) {
    // The region the access starts in or after (the nearest below it), else the first.
    const auto *best = &regions->second.front();
    for (const auto &region : regions->second)
      if (region.first <= offset && region.first >= best->first)
        best = &region;
    w.offset = offset - best->first;
    w.extent = best->second;
  }
  out.exact = how[chosen].exact();
  out.abstraction = how[chosen].abstraction;
  out.bounds = w;
}

} // namespace

QueryOutcome KernelEncoding::checkBounds(const std::vector<unsigned> &siteIds,
                                         std::optional<long long> budgetMs) {
  EncodingState &s = m_impl->state;
  TermFactory &tf = s.tf;
  QueryOutcome out;
  out.status = QueryOutcome::Status::Unsat;
  std::vector<unsigned> sites;
  std::vector<cvc5::Term> terms;
  std::vector<Exactness> how;
  for (unsigned id : siteIds) {
    const AccessRecord &r = s.records[0][id];
    if (!r.present)
      continue;
    if (s.sites[id].image) { // a pixel: its coordinates against the image's extents, not bytes
      if (auto image = imageOutside(s, r, s.sites[id])) {
        sites.push_back(id);
        terms.push_back(image->first);
        how.push_back(image->second);
      }
      continue;
    }
    if (provablyInside(s, r, s.sites[id]))
      continue;
    sites.push_back(id);
    terms.push_back(outside(s, r, s.sites[id]));
    how.push_back(r.reachHow & r.pointer.how & r.sizeHow);
  }
  try {
    // Exact sites first: a witness through one of them is a real access; then the others.
    for (bool exactPass : {true, false}) {
      cvc5::Term q = tf.boolean(false);
      bool any = false;
      for (std::size_t i = 0; i < terms.size(); ++i)
        if (how[i].exact() == exactPass) {
          q = tf.lor(q, terms[i]);
          any = true;
        }
      if (!any)
        continue;
      std::string label = boundsLabel(sites, exactPass && how.size() > 1);
      // A large query over reads of captured tables first asks the same with every such read as a value of
      // its own, between its table's least and greatest word when it reads a whole captured word (a
      // weakening: a model of the query is one of this with the reads' values): where the accesses'
      // guards, or the tables' ranges, keep them inside, that is settled without the choices among the
      // tables' words, which the solver otherwise bit-blasts whole, past its time limit (OpenMM
      // computeNonbonded: posq[j] under `j < PADDED_NUM_ATOMS`, j read from a 3.5 KiB table by 32 unrolled
      // reads: 7 s on a 1 s limit, and the launch past its own). Only large ones: on small ones the
      // solver answers the query itself sooner than the weakening, which is mostly satisfiable. Half the
      // place's budget: on a loaded machine a second was not always enough.
      if (!s.tableWordReads.empty() && dagSizeAtLeast(q, kLargeQueryTerms)) {
        std::vector<cvc5::Term> reads, open;
        cvc5::Term ranges = tf.boolean(true);
        for (const EncodingState::TableWordRead &read : s.tableWordReads) {
          unsigned bits = 8 * read.size;
          cvc5::Term fresh = tf.fresh(read.value.getSort(), "any_table_word");
          cvc5::Term whole = wholeWordAt(tf, read.offset, read.origin, read.bytes, read.size);
          cvc5::Term within = tf.land(tf.ule(tf.constant(bits, read.least), read.value),
                                      tf.ule(read.value, tf.constant(bits, read.greatest)));
          ranges = tf.land(ranges, tf.lor(tf.lnot(whole), within));
          reads.push_back(read.value);
          open.push_back(fresh);
        }
        cvc5::Term weak = tf.land(q, ranges).substitute(reads, open);
        long long firstMs = budgetMs ? std::max<long long>(1, *budgetMs / 2) : 2500;
        if (ask(s, weak, label + ", table reads within their ranges", firstMs).status ==
            QueryOutcome::Status::Unsat)
          continue;
      }
      out = ask(s, q, label, budgetMs);
      if (out.status == QueryOutcome::Status::Unknown)
        return out;
      if (out.status != QueryOutcome::Status::Sat)
        continue;
      if (exactPass) {
        // The witness keeps the guards of A's steps before the access it shows: its own read outside the
        // captured bytes is the defect, and what follows it is not part of the witness.
        std::size_t i = chosenSite(s, terms);
        const llvm::Instruction *own = s.sites[sites[i]].inst;
        if (!keepWithinGuards(s, terms[i], label, out, own))
          return out;
        cvc5::Term witness = tf.land(terms[i], withinGuards(s, own));
        preferSmallValues(s, witness, label);
        const AccessRecord &r = s.records[0][sites[i]];
        // Past the end or before the start of its memory (not NULL, not an access mode, not an array inside
        // it): the access nearest the memory, then the least open values that still make it. Not for a large
        // query, where each probe costs as much as the query (hashcat's bit-slice kernels: 8x the run).
        bool small = !dagSizeAtLeast(witness, kLargeQueryTerms);
        if (small && modelValue(s.solver, r.pointer.object) != kNullObject &&
            s.solver.getValue(leaves(s, r)).getBooleanValue() &&
            (r.pointer.beyondArray.isNull() || !s.solver.getValue(r.pointer.beyondArray).getBooleanValue())) {
          preferNearestOffset(s, witness, r.pointer.offset, label);
          witness = tf.land(witness,
                            tf.eq(r.pointer.offset, tf.constant(64, modelValue(s.solver, r.pointer.offset))));
        }
        if (small)
          preferLeastArguments(s, witness, label);
      }
      describeBounds(s, sites, terms, how, out);
      return out;
    }
  } catch (const cvc5::CVC5ApiException &e) {
    out.status = QueryOutcome::Status::Unknown;
    out.unknownReason = std::string("solver error: ") + e.what();
  }
  return out;
}

std::vector<std::string> KernelEncoding::uncheckedObjects() const {
  const EncodingState &s = m_impl->state;
  return {s.unsizedObjects.begin(), s.unsizedObjects.end()};
}

} // namespace clcapture::encode
