//===- DistinctTableWords.cpp - Equal words of a table of distinct words sit at one place ----===//
//
// docs/semantics.md row 13c: which captured-table reads get the fact (noteDistinctWordRead, with the accesses
// their values address) and the facts one race query states (distinctWordFacts).
//
//===----------------------------------------------------------------------===//

#include "DistinctTableWords.h"

#include "ThreadEncoderImpl.h"

#include <algorithm>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Instructions.h>
#include <set>
#include <tuple>
#include <vector>

namespace clcapture::encode {

namespace {

/// The accesses whose address the value `load` reads may take part in: through an index of a getelementptr
/// and the pointers derived from it, up to the load, store, atomic or call (vstore's offset, an atomic's
/// pointer) that uses it, followed through arithmetic, casts, PHIs, selects, call results and private
/// variables. Only queries about such accesses profit from distinctWordFacts. Empty when the search grows
/// past its bound (then no fact is stated: the solver is left to find it out, as without the facts).
std::vector<const llvm::Instruction *> addressedAccesses(const llvm::Instruction &load) {
  std::vector<const llvm::Instruction *> accesses;
  std::vector<const llvm::Value *> todo{&load};
  std::set<const llvm::Value *> seen{&load};
  auto follow = [&](const llvm::Value *v) {
    if (seen.insert(v).second)
      todo.push_back(v);
  };
  auto access = [&](const llvm::Instruction *inst) {
    if (std::find(accesses.begin(), accesses.end(), inst) == accesses.end())
      accesses.push_back(inst);
  };
  while (!todo.empty()) {
    if (seen.size() > 512)
      return {};
    const llvm::Value *v = todo.back();
    todo.pop_back();
    for (const llvm::User *user : v->users()) {
      if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(user)) {
        if (store->getPointerOperand() == v) {
          access(store);
          continue;
        }
        // The value kept in a private variable: follow the variable's loads.
        const llvm::Value *base = llvm::getUnderlyingObject(store->getPointerOperand());
        if (llvm::isa<llvm::AllocaInst>(base))
          for (const llvm::User *u : base->users()) {
            if (llvm::isa<llvm::LoadInst>(u))
              follow(u);
            else if (llvm::isa<llvm::GetElementPtrInst>(u))
              for (const llvm::User *w : u->users())
                if (llvm::isa<llvm::LoadInst>(w))
                  follow(w);
          }
      } else if (const auto *read = llvm::dyn_cast<llvm::LoadInst>(user)) {
        if (read->getPointerOperand() == v)
          access(read);
        else
          follow(read);
      } else if (llvm::isa<llvm::AtomicRMWInst>(user) || llvm::isa<llvm::AtomicCmpXchgInst>(user)) {
        access(llvm::cast<llvm::Instruction>(user));
      } else if (const auto *call = llvm::dyn_cast<llvm::CallBase>(user)) {
        access(call);
        if (!call->getType()->isVoidTy())
          follow(call);
      } else if (const auto *inst = llvm::dyn_cast<llvm::Instruction>(user)) {
        if (!inst->getType()->isVoidTy())
          follow(inst); // arithmetic, casts, PHIs, selects, getelementptrs and the pointers they make
      }
    }
  }
  return accesses;
}

} // namespace

void ThreadEncoder::noteDistinctWordRead(const llvm::Instruction &inst, std::uint64_t object, unsigned size,
                                         unsigned bits, const cvc5::Term &offset, const cvc5::Term &value) {
  const auto &[origin, data] = m_s.capturedBytes.at(object);
  std::size_t count = data.size() / size;
  if (count < 2 || (size & (size - 1)) != 0)
    return;
  auto known = m_s.wordsDistinct.find({object, size, bits});
  if (known == m_s.wordsDistinct.end()) {
    // The words as loadValue reads them (wordAt), cut to the bits the load keeps.
    bool little = m_s.launch.endianness == format::Endianness::Little;
    std::set<std::uint64_t> words;
    for (std::size_t at = 0; at + size <= data.size(); at += size) {
      std::uint64_t word = EncodingState::capturedWord(data, at, size, little);
      words.insert(bits < 64 ? word & ((std::uint64_t(1) << bits) - 1) : word);
    }
    known = m_s.wordsDistinct.emplace(std::make_tuple(object, size, bits), words.size() == count).first;
  }
  if (!known->second)
    return;
  std::vector<const llvm::Instruction *> accesses = addressedAccesses(inst);
  if (accesses.empty())
    return;
  // inside: offset = origin + k·size with k < count — exactly the offsets whose ite arm gives word k.
  cvc5::Term fromOrigin = m_tf.op(cvc5::Kind::BITVECTOR_SUB, {offset, m_tf.constant(64, origin)});
  cvc5::Term inside = m_tf.ule(fromOrigin, m_tf.constant(64, (count - 1) * size));
  if (size > 1)
    inside = m_tf.land(inside,
                       m_tf.eq(m_tf.op(cvc5::Kind::BITVECTOR_AND, {fromOrigin, m_tf.constant(64, size - 1)}),
                               m_tf.constant(64, 0)));
  m_s.distinctWordReads[m_thread].push_back({object, size, offset, value, inside, std::move(accesses)});
}

namespace detail {

cvc5::Term distinctWordFacts(EncodingState &s, const std::vector<unsigned> &a,
                             const std::vector<unsigned> &b) {
  TermFactory &tf = s.tf;
  auto addresses = [&](const EncodingState::DistinctWordRead &read, const std::vector<unsigned> &sites) {
    for (unsigned id : sites)
      if (std::find(read.accesses.begin(), read.accesses.end(), s.sites[id].inst) != read.accesses.end())
        return true;
    return false;
  };
  cvc5::Term facts = tf.boolean(true);
  for (const auto &ra : s.distinctWordReads[0]) {
    if (!addresses(ra, a))
      continue;
    for (const auto &rb : s.distinctWordReads[1])
      if (ra.object == rb.object && ra.size == rb.size && ra.value.getSort() == rb.value.getSort() &&
          addresses(rb, b))
        facts =
            tf.land(facts, tf.lor(tf.lnot(tf.land(tf.land(ra.inside, rb.inside), tf.eq(ra.value, rb.value))),
                                  tf.eq(ra.offset, rb.offset)));
  }
  return facts;
}

} // namespace detail

} // namespace clcapture::encode
