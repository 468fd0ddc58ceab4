//===- EncodeLoadedValues.cpp - What a load reads: captured tables, open contents, captured words -===//
//
// ThreadEncoder::loadValue and its helpers: read-only memory with captured bytes read exactly (a choice among
// the words, or a byte table), read-only memory without them read through one open array for both
// work-items, with the captured words' ranges and constant-offset words of large buffers (docs/semantics.md
// rows 13, 13b, 13d, 13e); the guards that keep a witness inside the captured bytes.
//
//===----------------------------------------------------------------------===//

#include "ThreadEncoderImpl.h"

#include <algorithm>
#include <map>

namespace clcapture::encode {

namespace {

/// The offset lies in one of the (origin, size) ranges with room for `size` bytes.
cvc5::Term insideRanges(TermFactory &tf, const std::vector<std::pair<std::uint64_t, std::uint64_t>> &ranges,
                        const cvc5::Term &offset, unsigned size) {
  cvc5::Term inside = tf.boolean(false);
  for (const auto &[origin, bytes] : ranges)
    if (bytes >= size)
      inside = tf.lor(inside, tf.land(tf.ule(tf.constant(64, origin), offset),
                                      tf.ule(offset, tf.constant(64, origin + bytes - size))));
  return inside;
}

} // namespace

cvc5::Term ThreadEncoder::readBytes(const cvc5::Term &array, const cvc5::Term &offset, unsigned size,
                                    unsigned bits) {
  bool little = m_s.launch.endianness == format::Endianness::Little;
  cvc5::Term result;
  for (unsigned i = 0; i < size; ++i) {
    cvc5::Term byte = m_tf.op(cvc5::Kind::SELECT, {array, m_tf.add(offset, m_tf.constant(64, i))});
    result = result.isNull() ? byte : little ? m_tf.concat(byte, result) : m_tf.concat(result, byte);
  }
  return m_tf.resize(result, bits, false);
}

bool ThreadEncoder::readAsBytes(llvm::Type *type) const {
  // A vector is one value with lane 0 in the low bits (row 14): its bytes in memory, read as one
  // little-endian integer, when it has no padding and no i1 lanes.
  if (type->isIntegerTy(1))
    return false;
  if (!type->isVectorTy())
    return true;
  return m_s.launch.endianness == format::Endianness::Little && !type->getScalarType()->isIntegerTy(1) &&
         !type->getScalarType()->isPointerTy() &&
         m_s.layout.getTypeSizeInBits(type).getFixedValue() ==
             8 * m_s.layout.getTypeStoreSize(type).getFixedValue();
}

void ThreadEncoder::guardRead(llvm::Instruction &inst, llvm::Type *type, const SymPointer &ptr) {
  if (!ptr.object.isBitVectorValue() || !readAsBytes(type))
    return;
  std::uint64_t object = std::stoull(ptr.object.getBitVectorValue(10));
  unsigned size = static_cast<unsigned>(m_s.layout.getTypeStoreSize(type).getFixedValue());
  std::string name = m_s.objectNames.count(object) ? m_s.objectNames[object] : std::string("a buffer");
  if (m_s.capturedTables.count(object)) {
    // Bytes outside the captured ones are open: reading them is out of bounds of every captured argument
    // (undefined), so a witness must read captured bytes only.
    guard(inst, m_tf.lnot(insideRanges(m_tf, m_s.capturedRanges[object], ptr.offset, size)),
          "a read outside the captured bytes of " + name + " at " + placeOf(&inst));
    return;
  }
  if (auto open = m_s.openContents.find(object); open != m_s.openContents.end() && open->second.ranges)
    guard(inst, m_tf.lnot(insideRanges(m_tf, *open->second.ranges, ptr.offset, size)),
          "a read outside " + name + " at " + placeOf(&inst));
}

std::optional<cvc5::Term> ThreadEncoder::capturedWordAt(const EncodingState::OpenContents &open,
                                                        const cvc5::Term &offset, unsigned size) {
  // Row 13d: a constant offset wholly inside a captured region whose bytes are kept reads its word.
  if (!offset.isBitVectorValue())
    return std::nullopt;
  std::uint64_t at = std::stoull(offset.getBitVectorValue(10));
  bool little = m_s.launch.endianness == format::Endianness::Little;
  for (const auto &words : open.capturedWords) {
    if (!words->bytes || at < words->origin || at - words->origin > words->size ||
        words->size - (at - words->origin) < size)
      continue;
    const auto *bytes = reinterpret_cast<const unsigned char *>(words->bytes->data());
    return m_tf.constant(8 * size, detail::composeWord(bytes + (at - words->origin), size, little));
  }
  return std::nullopt;
}

void ThreadEncoder::boundByCapturedWords(const EncodingState::OpenContents &open, const cvc5::Term &offset,
                                         unsigned size, const cvc5::Term &value) {
  // Row 13d: a whole word of a captured region, at origin + k·size, is one of the region's words of that
  // size, so it lies between their least and greatest (both orders). A read elsewhere gets no fact.
  for (const auto &words : open.capturedWords) {
    const std::optional<detail::WordRange> &range = words->of(size);
    if (!range) // no word of this size fits the region
      continue;
    unsigned bits = 8 * size;
    cvc5::Term whole = wholeWordAt(m_tf, offset, words->origin, words->size, size);
    std::uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    auto sconst = [&](std::int64_t v) { return m_tf.constant(bits, static_cast<std::uint64_t>(v) & mask); };
    cvc5::Term bounded =
        m_tf.land(m_tf.land(m_tf.ule(m_tf.constant(bits, range->umin), value),
                            m_tf.ule(value, m_tf.constant(bits, range->umax))),
                  m_tf.land(m_tf.op(cvc5::Kind::BITVECTOR_SLE, {sconst(range->smin), value}),
                            m_tf.op(cvc5::Kind::BITVECTOR_SLE, {value, sconst(range->smax)})));
    m_s.solver.assertFormula(m_tf.lor(m_tf.lnot(whole), bounded));
  }
}

SymValue ThreadEncoder::loadValue(llvm::Instruction &inst, llvm::Type *type, const SymPointer &ptr,
                                  bool wordwise) {
  // Read-only buffers with captured bytes are read exactly, read-only buffers without them through one open
  // array (openContents); anything another work-item may write is an unknown (the adversarial abstraction),
  // and so is private memory here (privateValueAt reads the variables it can follow).
  if (ptr.object.isBitVectorValue() && readAsBytes(type)) {
    std::uint64_t object = std::stoull(ptr.object.getBitVectorValue(10));
    auto table = m_s.capturedTables.find(object);
    auto raw = wordwise ? m_s.capturedBytes.find(object) : m_s.capturedBytes.end();
    unsigned size = static_cast<unsigned>(m_s.layout.getTypeStoreSize(type).getFixedValue());
    if (wordwise)
      guardRead(inst, type, ptr);
    if (raw != m_s.capturedBytes.end() && size <= 8 && raw->second.second.size() / size <= 1024) {
      // Aligned reads as a choice among the captured words: far easier for the solver than an array of
      // byte stores. An unaligned offset falls back to the byte table below.
      const auto &[origin, data] = raw->second;
      unsigned bits = static_cast<unsigned>(m_s.layout.getTypeSizeInBits(type).getFixedValue());
      bool little = m_s.launch.endianness == format::Endianness::Little;
      // The byte table is needed only for unaligned offsets: an offset that is origin + k·size by
      // construction reads a whole word or lies outside the captured bytes, which are open either way — a
      // fresh value, far cheaper for the solver than an array of byte stores. (Choosing the word by the
      // bits of k instead of comparing whole offsets was measured slower: 34 s against 16 s on a 64-entry
      // permutation.)
      cvc5::Term result = isMultipleOf(ptr.offset, size) && origin % size == 0
                              ? m_tf.fresh(m_tf.bv(bits), "outside_captured_" + std::to_string(object))
                              : loadValue(inst, type, ptr, /*wordwise=*/false).term;
      std::uint64_t least = ~0ull, greatest = 0;
      for (std::size_t at = 0; at + size <= data.size(); at += size) {
        std::uint64_t word = EncodingState::capturedWord(data, at, size, little);
        result = m_tf.ite(m_tf.eq(ptr.offset, m_tf.constant(64, origin + at)),
                          m_tf.resize(m_tf.constant(size * 8, word), bits, false), result);
        least = std::min(least, word);
        greatest = std::max(greatest, word);
      }
      noteDistinctWordRead(inst, object, size, bits, ptr.offset, result);
      if (!result.isBitVectorValue() && bits == 8 * size && data.size() >= size)
        // (a constant offset's word is a constant: nothing to leave open)
        m_s.tableWordReads.push_back({result, ptr.offset, origin, data.size(), size, least, greatest});
      return SymValue{result, ptr.how};
    }
    if (auto open = m_s.openContents.find(object); open != m_s.openContents.end()) {
      // Memory nothing writes: both work-items read one array of open bytes (guardRead keeps a witness
      // inside its views).
      unsigned bits = static_cast<unsigned>(m_s.layout.getTypeSizeInBits(type).getFixedValue());
      const cvc5::Term &array =
          m_thread == 1 && !open->second.arrayOfB.isNull() ? open->second.arrayOfB : open->second.array;
      SymValue read{readBytes(array, ptr.offset, size, bits), open->second.how & ptr.how};
      if ((type->isIntegerTy() || type->isFloatingPointTy()) && bits == 8 * size) { // floats: their bits
        if (auto word = capturedWordAt(open->second, ptr.offset, size))
          return SymValue{*word, ptr.how};
        boundByCapturedWords(open->second, ptr.offset, size, read.term);
      }
      if (read.how.exact()) {
        static const std::map<unsigned, const char *> kInt = {
            {8, "char"}, {16, "short"}, {32, "int"}, {64, "long"}};
        std::string spelling = type->isFloatTy()                         ? "float"
                               : type->isDoubleTy()                      ? "double"
                               : type->isHalfTy()                        ? "half"
                               : type->isIntegerTy() && kInt.count(bits) ? kInt.at(bits)
                                                                         : "";
        m_s.openReads[m_thread].push_back(EncodingState::OpenRead{
            m_s.objectNames.count(object) ? m_s.objectNames[object] : std::string("buffer"), spelling, size,
            m_reach[inst.getParent()], ptr.offset, read.term,
            open->second.fields.empty() ? nullptr : &open->second.fields, &inst});
      }
      return read;
    }
    if (table != m_s.capturedTables.end()) {
      unsigned bits = static_cast<unsigned>(m_s.layout.getTypeSizeInBits(type).getFixedValue());
      return SymValue{readBytes(table->second, ptr.offset, size, bits), ptr.how};
    }
  }
  const char *where = ptr.space == MemorySpace::Local      ? "local"
                      : ptr.space == MemorySpace::Private  ? "private"
                      : ptr.space == MemorySpace::Constant ? "constant"
                                                           : "global";
  return freshValue(type, std::string("a value read from ") + where + " memory at " + placeOf(&inst));
}

} // namespace clcapture::encode
