//===- JsonRecordStream.h - Parse a capture file record by record, recovering a cut -*- C++ -*-===//
//
// Internal to clcapture_format's readers. captures.json and the sidecar are arrays of records (the
// sidecar's under `launches`) appended one at a time, so a file may end mid-record when the application
// was killed; and a launch-heavy file is large. The parse hands each record over as soon as it is
// complete and drops it from the tree, and a file cut short is parsed again up to its last
// complete record (recoverTruncatedJson, JsonArrayFile.h), with a warning.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "DiagnosticText.h"
#include "Reporter.h"
#include "clcapture/format/ReadOptions.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace clcapture::format::reader {

/// Called for each record (an element of the array at the record depth) as soon as the parser has it, in
/// file order; the record is then dropped from the tree, so a file of 64,000 launches is never held as one
/// tree. `restart` is called before the text is parsed again (a cut-short file is parsed a
/// second time, up to its last complete record): the records seen so far are to be forgotten.
struct RecordStream {
  std::function<void(Json &record)> record;
  std::function<void()> restart;
  /// The sidecar's records are the elements of its `launches` array; captures.json's, of the top array.
  std::string underKey;
};

/// Parses `text`, recovering a cut-short file when allowed. Returns nullopt after reporting a fatal error.
/// With `stream`, the records are handed to it instead of being kept in the returned tree.
std::optional<Json> parseJsonText(std::string_view text, int recordDepth, Reporter &r,
                                  const ReadOptions &options, bool &truncated,
                                  RecordStream *stream = nullptr);

} // namespace clcapture::format::reader
