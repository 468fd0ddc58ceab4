//===- RecordFunctions.h - The OpenCL C that writes the trace -*- C++ -*-===//
//
// The functions clcapture-instrument adds to the kernel's source (docs/device-debugging.md, "The trace
// buffer"): `clcapture_item()`, the work-item's linear global id without offset, and one
// `clcapture_rec_<site>` per record site, which takes the trace pointer, the sequence counter and the
// site's values, reserves the record's words with one atomic_add on word 0, counts a record that does not fit
// in word 1, and otherwise writes site, work-item, sequence and each value's words (its bytes through a
// union with a `uint` array, the last word's padding 0). Every generated text is one line, so that the
// instrumented source keeps the original's line numbers. No Clang here.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

namespace clcapture::instrument {

/// One value parameter of a record function.
struct RecordParam {
  std::string type;      ///< the parameter's type ("float4", "ulong", "struct P", the return type)
  std::string storeType; ///< the type whose bytes are recorded ("uint" for a bool, "ulong" for a pointer)
  unsigned size = 0;     ///< bytes recorded
  unsigned padBegin = 0; ///< bytes [padBegin, padEnd) are zeroed after the store (a 3-vector's 4th lane)
  unsigned padEnd = 0;
};

struct RecordFunction {
  unsigned site = 0;
  /// Condition and return sites: the function returns its first value, so the call can stand for it.
  bool returnsFirst = false;
  std::vector<RecordParam> params;
};

/// `uint clcapture_item(void)`, the work-item's linear global id without offset (x + y·Gx + z·Gx·Gy).
std::string itemFunctionText();

/// `clcapture_rec_<site>`'s definition, one line.
std::string recordFunctionText(const RecordFunction &function);

/// The record's length in words: site, work-item, sequence, then every value's words.
unsigned recordWords(const RecordFunction &function);

} // namespace clcapture::instrument
