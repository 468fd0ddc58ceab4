//===- RecordingDiff.cpp - Where two recordings of one launch first part ------===//
#include "RecordingDiff.h"

#include "RecordedValues.h"
#include "clcapture/replay/BufferComparison.h"

#include <algorithm>
#include <sstream>
#include <tuple>

namespace clcapture::debug {

namespace {

bool ignored(const DiffOptions &options, const trace::TraceValue &slot) {
  return slot.valueClass == trace::ValueClass::Pointer ||
         std::find(options.ignored.begin(), options.ignored.end(), compact(slot.name)) !=
             options.ignored.end() ||
         std::find(options.ignored.begin(), options.ignored.end(), slot.name) != options.ignored.end();
}

/// Whether slot `s` of the two records holds the same value.
bool sameValue(const Recording &a, const Record &ra, const Recording &b, const Record &rb, std::size_t s,
               const DiffOptions &options) {
  const trace::TraceValue &slot = ra.site->values[s];
  const std::uint32_t *wa = a.valueWords(ra, s);
  const std::uint32_t *wb = b.valueWords(rb, s);
  bool isFloat = slot.valueClass == trace::ValueClass::Float ||
                 slot.valueClass == trace::ValueClass::Double || slot.valueClass == trace::ValueClass::Half;
  if (!isFloat || options.ulps == 0)
    return std::equal(wa, wa + slot.words(), wb);
  unsigned lanes = slot.lanes == 3 ? 4 : std::max(1u, slot.lanes);
  unsigned laneBytes = std::max(1u, slot.size / lanes);
  for (unsigned lane = 0; lane < std::max(1u, slot.lanes); ++lane) {
    std::uint64_t x = 0, y = 0;
    for (unsigned byte = 0; byte < laneBytes; ++byte) {
      unsigned at = lane * laneBytes + byte;
      x |= static_cast<std::uint64_t>((wa[at / 4] >> (8 * (at % 4))) & 0xFF) << (8 * byte);
      y |= static_cast<std::uint64_t>((wb[at / 4] >> (8 * (at % 4))) & 0xFF) << (8 * byte);
    }
    auto distance = replay::ulpDistance(x, y, laneBytes);
    if (!distance || *distance > options.ulps)
      return false;
  }
  return true;
}

/// How far into its barrier interval record `index` is.
std::size_t intoEpoch(const std::vector<Record> &records, std::size_t index) {
  std::size_t start = index;
  while (start > 0 && records[start - 1].epoch == records[index].epoch)
    --start;
  return index - start;
}

} // namespace

std::optional<Divergence> firstDivergence(const Recording &reference, const Recording &other,
                                          const DiffOptions &options) {
  std::optional<Divergence> best;
  std::tuple<unsigned, std::size_t, std::uint64_t> bestKey{};
  auto consider = [&](Divergence d, const std::vector<Record> &records) {
    std::tuple<unsigned, std::size_t, std::uint64_t> key{records[d.index].epoch, intoEpoch(records, d.index),
                                                         d.item};
    if (!best || key < bestKey) {
      best = d;
      bestKey = key;
    }
  };
  for (std::uint64_t item : reference.items()) {
    const auto &ra = reference.records(item);
    const auto &rb = other.records(item);
    std::size_t n = std::min(ra.size(), rb.size());
    std::optional<Divergence> found;
    for (std::size_t i = 0; i < n && !found; ++i) {
      if (ra[i].site->id != rb[i].site->id) {
        found = Divergence{Divergence::Kind::Path, item, i, &ra[i], &rb[i], 0};
        break;
      }
      for (std::size_t s = 0; s < ra[i].site->values.size(); ++s)
        if (!ignored(options, ra[i].site->values[s]) &&
            !sameValue(reference, ra[i], other, rb[i], s, options)) {
          found = Divergence{Divergence::Kind::Value, item, i, &ra[i], &rb[i], s};
          break;
        }
    }
    if (!found && ra.size() != rb.size() && n < std::max(ra.size(), rb.size())) {
      // One ran statements the other did not (or its trace was full).
      if (n < ra.size())
        found = Divergence{Divergence::Kind::Missing, item, n, &ra[n], nullptr, 0};
      else
        found = Divergence{Divergence::Kind::Missing, item, n, nullptr, &rb[n], 0};
    }
    if (found)
      consider(*found, found->reference ? ra : rb);
  }
  // A work-item only the other recorded.
  for (std::uint64_t item : other.items())
    if (reference.records(item).empty() && !best)
      best = Divergence{Divergence::Kind::Missing, item, 0, nullptr, &other.records(item)[0], 0};
  return best;
}

std::string describeDivergence(const Divergence &d, const Recording &reference, const Recording &other,
                               const std::string &referenceName, const std::string &otherName) {
  std::ostringstream out;
  const RecordedRange &range = reference.range();
  Id3 g = range.globalId(d.item), l = range.localId(d.item), w = range.groupId(d.item);
  auto id3 = [&](const Id3 &id) {
    std::string text = "(" + std::to_string(id[0]);
    for (unsigned k = 1; k < range.dims; ++k)
      text += ", " + std::to_string(id[k]);
    return text + ")";
  };
  const Record *at = d.reference ? d.reference : d.other;
  std::string file = reference.origin().kernelFileName;
  out << "first divergence: work-item " << id3(g) << " (local " << id3(l) << " of group " << id3(w) << "), "
      << file << ':' << at->site->line << " `" << at->site->text << "` (its recorded statement " << d.index
      << ", barrier interval " << at->epoch << ")\n";
  switch (d.kind) {
  case Divergence::Kind::Value: {
    const trace::TraceValue &slot = d.reference->site->values[d.slot];
    RecordedValue a{&slot, reference.valueWords(*d.reference, d.slot), d.reference};
    RecordedValue b{&slot, other.valueWords(*d.other, d.slot), d.other};
    out << "  variable " << slot.name << " (" << slot.type << "): " << otherName << ' ' << formatRecorded(b)
        << " [" << recordedBits(b) << "], " << referenceName << ' ' << formatRecorded(a) << " ["
        << recordedBits(a) << "]\n";
    if (referenceName.find("interpreter") != std::string::npos) {
      std::string bits = recordedBits(a);
      if (bits.find("a5a5") != std::string::npos)
        out << "  the interpreter's value is made of 0xA5 bytes: the bytes it fills local memory with before "
               "the kernel writes it, so this statement read local memory nothing had written "
               "(uninitialised)\n";
    }
    break;
  }
  case Divergence::Kind::Path:
    out << "  the control flow parted: " << referenceName << " ran line " << d.reference->site->line << " `"
        << d.reference->site->text << "`, " << otherName << " ran line " << d.other->site->line << " `"
        << d.other->site->text << "`\n";
    break;
  case Divergence::Kind::Missing:
    out << "  only " << (d.reference ? referenceName : otherName) << " recorded this statement (the other "
        << "ended before it"
        << (reference.recordsDropped() || other.recordsDropped() ? ", or its trace was full" : "") << ")\n";
    break;
  }
  // The statements that led to it, in both recordings.
  const auto &ra = reference.records(d.item);
  const auto &rb = other.records(d.item);
  std::size_t from = d.index > 5 ? d.index - 5 : 0;
  if (from < d.index)
    out << "  the statements before it in this work-item (" << otherName << " | " << referenceName << "):\n";
  for (std::size_t i = from; i < d.index && i < ra.size() && i < rb.size(); ++i) {
    out << "    " << file << ':' << ra[i].site->line << " `" << ra[i].site->text << "`";
    const char *separator = ": ";
    for (std::size_t s = 0; s < ra[i].site->values.size(); ++s) {
      const trace::TraceValue &slot = ra[i].site->values[s];
      if (slot.valueClass == trace::ValueClass::Pointer)
        continue; // addresses in two different memories
      RecordedValue a{&slot, reference.valueWords(ra[i], s), &ra[i]};
      RecordedValue b{&slot, other.valueWords(rb[i], s), &rb[i]};
      out << separator << slot.name << " = " << formatRecorded(b) << " | " << formatRecorded(a);
      separator = ", ";
    }
    out << '\n';
  }
  return out.str();
}

} // namespace clcapture::debug
