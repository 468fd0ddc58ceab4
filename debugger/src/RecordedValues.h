//===- RecordedValues.h - Names and values at one point of a recording -*- C++ -*-===//
//
// What a work-item "sees" at record K of a recording (docs/device-debugging.md): for each name, the value the
// latest record of its frame gave it — a variable, `condition`, `return`, or an lvalue recorded by its text
// (`scratch[l]`). Expressions over those names (print, breakpoint conditions) take the debugger's C
// expression parser and its arithmetic; the work-item functions answer from the recording's NDRange.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ExpressionEvaluator.h"
#include "ExpressionParser.h"
#include "Recording.h"
#include "ValueFormat.h"

#include <optional>
#include <string>
#include <vector>

namespace clcapture::debug {

/// One recorded value: its slot (name, type, class) and its words.
struct RecordedValue {
  const trace::TraceValue *slot = nullptr;
  const std::uint32_t *words = nullptr;
  const Record *record = nullptr; ///< the record that wrote it
};

/// A recorded value as gdb would print it (`{1, 2, 3}` for vectors, `(pointer) 0x…`).
std::string formatRecorded(const RecordedValue &value, NumberFormat format = NumberFormat::Natural);
/// The same value's bits as hexadecimal words (for the --diff report).
std::string recordedBits(const RecordedValue &value);
/// A scalar value (one lane); nullopt for vectors, structs and bytes.
std::optional<Scalar> recordedScalar(const RecordedValue &value);
/// `text` without blanks: how recorded lvalues and typed names are matched.
std::string compact(const std::string &text);

class RecordedState {
public:
  /// Work-item `item` after its record `position` ran.
  RecordedState(const Recording &recording, std::uint64_t item, std::size_t position);

  /// NAME's latest value in the current frame (its entry record included), or a kernel argument's; nullopt
  /// when no record of the frame gave it one.
  std::optional<RecordedValue> lookup(const std::string &name) const;
  /// Every name the frame has recorded so far, in the order first recorded (still in scope).
  std::vector<RecordedValue> visible() const;
  /// EXPR as one scalar; fails naming what cannot be evaluated.
  format::Expected<Scalar> evaluate(const Expr &expr) const;
  /// `print`'s text: the whole recorded value when EXPR names one (a vector, a struct), else its scalar.
  format::Expected<std::string> print(const std::string &expression, NumberFormat format) const;

private:
  /// The records of the current frame, newest first.
  std::vector<std::size_t> frameRecords() const;
  /// lookup() within `frame` (frameRecords()), for a name already compact().
  std::optional<RecordedValue> lookupIn(const std::vector<std::size_t> &frame,
                                        const std::string &wanted) const;
  const Recording &m_recording;
  std::uint64_t m_item;
  std::size_t m_position;
};

} // namespace clcapture::debug
