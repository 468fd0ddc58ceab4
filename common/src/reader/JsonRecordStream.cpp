//===- JsonRecordStream.cpp - Parse a capture file record by record, recovering a cut -===//

#include "JsonRecordStream.h"

#include "clcapture/format/JsonArrayFile.h"

#include <cstddef>
#include <utility>

namespace clcapture::format::reader {

namespace {

/// Line and column (1-based) of a byte offset.
std::pair<std::size_t, std::size_t> lineColumn(std::string_view text, std::size_t offset) {
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

/// A file with nothing but white space: the process died before the file's first write completed.
std::optional<Json> reportEmptyFile(Reporter &r, const ReadOptions &options, bool &truncated) {
  if (options.recoverTruncated) {
    // The process died before the file's first write completed: nothing was recorded.
    truncated = true;
    r.warning("", "file is empty (the application stopped before anything was recorded)");
    return std::nullopt;
  }
  r.error("", "file is empty");
  return std::nullopt;
}

/// One parse of `json`; with `stream`, each record goes to it and is dropped from the tree.
Json parseOnce(std::string_view json, int recordDepth, RecordStream *stream) {
  if (!stream)
    return Json::parse(json.begin(), json.end());
  // nlohmann's depths: the top value is 0, its keys and elements 1, and so on; a record is a value at
  // recordDepth (under `underKey` when there is one).
  std::string key;
  bool inRecords = false; // inside the array that holds the records
  Json::parser_callback_t callback = [&](int depth, Json::parse_event_t event, Json &parsed) {
    if (depth == recordDepth - 1) {
      if (event == Json::parse_event_t::key)
        key = parsed.get<std::string>();
      else if (event == Json::parse_event_t::array_start)
        inRecords = stream->underKey.empty() || key == stream->underKey;
      else if (event == Json::parse_event_t::array_end)
        inRecords = false;
      return true;
    }
    bool whole = event == Json::parse_event_t::object_end || event == Json::parse_event_t::array_end ||
                 event == Json::parse_event_t::value;
    if (depth != recordDepth || !whole || !inRecords)
      return true;
    stream->record(parsed);
    return false;
  };
  return Json::parse(json.begin(), json.end(), callback);
}

/// A file that ends mid-record: parsed again up to its last complete record. Nullopt (nothing reported)
/// when the text is not merely cut short.
std::optional<Json> parseRecovered(std::string_view text, int recordDepth, Reporter &r, bool &truncated,
                                   RecordStream *stream) {
  auto recovered = recoverTruncatedJson(text, recordDepth);
  if (!recovered)
    return std::nullopt;
  try {
    if (stream)
      stream->restart();
    Json j = parseOnce(recovered->text, recordDepth, stream);
    truncated = true;
    r.warning("", "file ends mid-record (the application was killed while writing); recovered the " +
                      std::to_string(recovered->records) + " complete record" +
                      (recovered->records == 1 ? "" : "s") + " before byte " +
                      std::to_string(recovered->cutOffset));
    return j;
  } catch (const Json::exception &) {
    return std::nullopt; // not merely truncated
  }
}

/// A syntax error, at its line and column.
void reportSyntaxError(std::string_view text, const Json::parse_error &e, Reporter &r) {
  auto [line, column] = lineColumn(text, e.byte == 0 ? 0 : e.byte - 1);
  Diagnostic d;
  d.file = r.file();
  d.line = line;
  d.column = column;
  std::string what = e.what();
  // nlohmann's text is "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error …".
  auto colon = what.find(": ");
  d.message = "invalid JSON: " + (colon == std::string::npos ? what : what.substr(colon + 2));
  r.list().add(std::move(d));
}

/// Any other JSON error, e.g. out_of_range.406: a number too large even for a double. nlohmann gives no
/// position here.
void reportJsonError(const Json::exception &e, Reporter &r) {
  std::string what = e.what();
  auto bracket = what.find("] ");
  r.error("", "invalid JSON: " + (bracket == std::string::npos ? what : what.substr(bracket + 2)));
}

} // namespace

std::optional<Json> parseJsonText(std::string_view text, int recordDepth, Reporter &r,
                                  const ReadOptions &options, bool &truncated, RecordStream *stream) {
  truncated = false;
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
    return reportEmptyFile(r, options, truncated);
  try {
    return parseOnce(text, recordDepth, stream);
  } catch (const Json::parse_error &e) {
    bool atEnd = e.byte >= text.size();
    if (atEnd && options.recoverTruncated)
      if (auto recovered = parseRecovered(text, recordDepth, r, truncated, stream))
        return recovered;
    if (stream)
      stream->restart();
    reportSyntaxError(text, e, r);
    return std::nullopt;
  } catch (const Json::exception &e) {
    if (stream)
      stream->restart();
    reportJsonError(e, r);
    return std::nullopt;
  }
}

} // namespace clcapture::format::reader
