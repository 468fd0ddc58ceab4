//===- RecordedValues.cpp - Names and values at one point of a recording ------===//
#include "RecordedValues.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace clcapture::debug {

namespace fmt = clcapture::format;

namespace {

/// The bytes of lane `lane` of a value whose lanes are `laneBytes` wide.
std::uint64_t laneBits(const RecordedValue &v, unsigned lane, unsigned laneBytes) {
  std::uint64_t bits = 0;
  for (unsigned b = 0; b < laneBytes; ++b) {
    unsigned at = lane * laneBytes + b;
    std::uint32_t word = v.words[at / 4];
    bits |= static_cast<std::uint64_t>((word >> (8 * (at % 4))) & 0xFF) << (8 * b);
  }
  return bits;
}

unsigned laneBytesOf(const trace::TraceValue &s) {
  unsigned lanes = s.lanes == 3 ? 4 : std::max(1u, s.lanes);
  return std::max(1u, s.size / lanes);
}

std::optional<Scalar> laneScalar(const trace::TraceValue &s, std::uint64_t bits, unsigned bytes) {
  Scalar r;
  r.bytes = bytes;
  using trace::ValueClass;
  const ValueClass c = s.valueClass;
  if (c == ValueClass::Int) {
    unsigned shift = 64 - 8 * bytes;
    r.kind = Scalar::Kind::Signed;
    r.s = shift >= 64 ? 0 : static_cast<std::int64_t>(bits << shift) >> shift;
  } else if (c == ValueClass::UInt || c == ValueClass::Bool) {
    r.kind = Scalar::Kind::Unsigned;
    r.u = bits;
  } else if (c == ValueClass::Float || c == ValueClass::Double || c == ValueClass::Half) {
    r.kind = Scalar::Kind::Float;
    if (bytes == 4) {
      float f;
      auto w = static_cast<std::uint32_t>(bits);
      std::memcpy(&f, &w, 4);
      r.f = f;
      r.singlePrecision = true;
    } else if (bytes == 8) {
      std::memcpy(&r.f, &bits, 8);
    } else if (bytes == 2) {
      r.f = halfToDouble(static_cast<std::uint16_t>(bits));
      r.singlePrecision = true;
    } else {
      return std::nullopt;
    }
  } else if (c == ValueClass::Pointer) {
    r.kind = Scalar::Kind::Pointer;
    r.u = bits;
  } else {
    return std::nullopt;
  }
  return r;
}

std::string hexBits(std::uint64_t bits, unsigned bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%0*llx", static_cast<int>(2 * bytes),
                static_cast<unsigned long long>(bits));
  return text;
}

std::string laneText(const trace::TraceValue &s, std::uint64_t bits, unsigned bytes, NumberFormat format) {
  auto scalar = laneScalar(s, bits, bytes);
  if (!scalar)
    return hexBits(bits, bytes);
  if (scalar->kind == Scalar::Kind::Pointer)
    return "(" + s.type + ") " + hexBits(bits, bytes);
  if (s.valueClass == trace::ValueClass::Bool && format == NumberFormat::Natural)
    return bits ? "true" : "false";
  return formatScalar(*scalar, nullptr, format);
}

} // namespace

std::string compact(const std::string &text) {
  std::string out;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c)))
      out += c;
  return out;
}

std::string formatRecorded(const RecordedValue &v, NumberFormat format) {
  const trace::TraceValue &s = *v.slot;
  if (s.valueClass == trace::ValueClass::Bytes) {
    std::string text = "{";
    for (unsigned w = 0; w < s.words(); ++w)
      text += (w ? ", " : "") + hexBits(v.words[w], 4);
    return text + "}";
  }
  unsigned bytes = laneBytesOf(s);
  if (s.lanes <= 1)
    return laneText(s, laneBits(v, 0, bytes), bytes, format);
  std::string text = "{";
  for (unsigned lane = 0; lane < s.lanes; ++lane)
    text += (lane ? ", " : "") + laneText(s, laneBits(v, lane, bytes), bytes, format);
  return text + "}";
}

std::string recordedBits(const RecordedValue &v) {
  const trace::TraceValue &s = *v.slot;
  unsigned bytes = laneBytesOf(s);
  if (s.valueClass == trace::ValueClass::Bytes || bytes > 8)
    return formatRecorded(v, NumberFormat::Hex);
  std::string text = s.lanes > 1 ? "{" : "";
  for (unsigned lane = 0; lane < std::max(1u, s.lanes); ++lane)
    text += (lane ? ", " : "") + hexBits(laneBits(v, lane, bytes), bytes);
  return text + (s.lanes > 1 ? "}" : "");
}

std::optional<Scalar> recordedScalar(const RecordedValue &v) {
  if (v.slot->lanes > 1)
    return std::nullopt;
  unsigned bytes = laneBytesOf(*v.slot);
  if (bytes > 8)
    return std::nullopt;
  return laneScalar(*v.slot, laneBits(v, 0, bytes), bytes);
}

RecordedState::RecordedState(const Recording &recording, std::uint64_t item, std::size_t position)
    : m_recording(recording), m_item(item), m_position(position) {}

std::vector<std::size_t> RecordedState::frameRecords() const {
  const std::vector<Record> &records = m_recording.records(m_item);
  std::vector<std::size_t> out;
  if (records.empty())
    return out;
  std::size_t at = std::min(m_position, records.size() - 1);
  unsigned depth = records[at].depth;
  const std::string &function = records[at].site->function;
  for (std::size_t i = at + 1; i-- > 0;) {
    const Record &r = records[i];
    if (r.depth < depth)
      break;
    if (r.depth > depth || r.site->function != function)
      continue; // a callee's
    out.push_back(i);
    if (r.site->kind == trace::SiteKind::Entry)
      break;
  }
  return out;
}

std::optional<RecordedValue> RecordedState::lookup(const std::string &name) const {
  return lookupIn(frameRecords(), compact(name));
}

std::optional<RecordedValue> RecordedState::lookupIn(const std::vector<std::size_t> &frame,
                                                     const std::string &wanted) const {
  const std::vector<Record> &records = m_recording.records(m_item);
  unsigned line = records.empty() ? 0 : records[std::min(m_position, records.size() - 1)].site->line;
  for (std::size_t i : frame) {
    const Record &r = records[i];
    for (std::size_t s = 0; s < r.site->values.size(); ++s) {
      const trace::TraceValue &slot = r.site->values[s];
      if (compact(slot.name) != wanted)
        continue;
      if (slot.declares && slot.scopeEndLine && line > *slot.scopeEndLine)
        return std::nullopt; // its block has ended
      return RecordedValue{&slot, m_recording.valueWords(r, s), &r};
    }
  }
  return std::nullopt;
}

std::vector<RecordedValue> RecordedState::visible() const {
  const std::vector<Record> &records = m_recording.records(m_item);
  std::vector<RecordedValue> out;
  std::vector<std::string> seen;
  auto frame = frameRecords();
  for (auto it = frame.rbegin(); it != frame.rend(); ++it) {
    for (const trace::TraceValue &slot : records[*it].site->values) {
      std::string key = compact(slot.name);
      if (slot.name == "condition" || std::find(seen.begin(), seen.end(), key) != seen.end())
        continue;
      seen.push_back(key);
      if (auto v = lookupIn(frame, key))
        out.push_back(*v);
    }
  }
  return out;
}

fmt::Expected<Scalar> RecordedState::evaluate(const Expr &expr) const {
  auto unsignedValue = [](std::uint64_t v) {
    Scalar s;
    s.kind = Scalar::Kind::Unsigned;
    s.u = v;
    return s;
  };
  switch (expr.kind) {
  case Expr::Kind::Integer: {
    Scalar s;
    s.kind = expr.unsignedLiteral ? Scalar::Kind::Unsigned : Scalar::Kind::Signed;
    s.u = expr.integer;
    s.s = static_cast<std::int64_t>(expr.integer);
    return s;
  }
  case Expr::Kind::Real: {
    Scalar s;
    s.kind = Scalar::Kind::Float;
    s.f = expr.real;
    s.singlePrecision = expr.singlePrecision;
    return s;
  }
  case Expr::Kind::Call: {
    if (expr.operands.size() != 1)
      return fmt::fail(expr.text + " takes one argument");
    auto d = evaluate(*expr.operands[0]);
    if (!d)
      return d;
    std::uint64_t dim = d->kind == Scalar::Kind::Signed ? static_cast<std::uint64_t>(d->s) : d->u;
    if (dim > 2)
      return unsignedValue(expr.text == "get_local_size" || expr.text == "get_global_size" ? 1 : 0);
    const RecordedRange &r = m_recording.range();
    if (expr.text == "get_global_id")
      return unsignedValue(r.globalId(m_item)[dim]);
    if (expr.text == "get_local_id")
      return unsignedValue(r.localId(m_item)[dim]);
    if (expr.text == "get_group_id")
      return unsignedValue(r.groupId(m_item)[dim]);
    if (expr.text == "get_local_size")
      return unsignedValue(r.local[dim]);
    if (expr.text == "get_global_size")
      return unsignedValue(r.global[dim]);
    return fmt::fail("no function " + expr.text + " in a recording (only the work-item functions)");
  }
  case Expr::Kind::Unary: {
    auto a = evaluate(*expr.operands[0]);
    if (!a)
      return a;
    Scalar zero;
    zero.kind = Scalar::Kind::Signed;
    if (expr.text == "-")
      return arithmetic("-", zero, *a);
    if (expr.text == "+")
      return a;
    if (expr.text == "!")
      return arithmetic("==", *a, zero);
    if (expr.text == "~") {
      Scalar ones;
      ones.kind = Scalar::Kind::Signed;
      ones.s = -1;
      return arithmetic("^", *a, ones);
    }
    break;
  }
  case Expr::Kind::Binary: {
    auto a = evaluate(*expr.operands[0]);
    if (!a)
      return a;
    auto b = evaluate(*expr.operands[1]);
    if (!b)
      return b;
    return arithmetic(expr.text, *a, *b);
  }
  default:
    break;
  }
  // A name, or an element/member the kernel assigned (recorded by its text).
  std::string text = spell(expr);
  if (auto v = lookup(text)) {
    if (auto s = recordedScalar(*v))
      return *s;
    return fmt::fail(text + " is not a number (print shows it whole)");
  }
  return fmt::fail("no value of " + text + " is recorded in this frame of work-item " +
                   std::to_string(m_item) + " up to here");
}

fmt::Expected<std::string> RecordedState::print(const std::string &expression, NumberFormat format) const {
  if (auto v = lookup(expression))
    return formatRecorded(*v, format);
  auto parsed = parseExpression(expression);
  if (!parsed)
    return fmt::fail(parsed.error());
  auto value = evaluate(**parsed);
  if (!value)
    return fmt::fail(value.error());
  return formatScalar(*value, nullptr, format);
}

} // namespace clcapture::debug
