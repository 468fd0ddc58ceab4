//===- Recording.cpp - What an instrumented launch recorded, by work-item --===//
#include "Recording.h"

#include "clcapture/format/BlobStore.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace clcapture::debug {

namespace fmt = clcapture::format;
using nlohmann::json;

namespace {

constexpr const char *kRecordingFormat = "clcapture-recording/1";
constexpr std::uint32_t kUnwritten = 0xFFFFFFFFu;

const char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string toBase64(const std::uint8_t *data, std::size_t size) {
  std::string out;
  out.reserve((size + 2) / 3 * 4);
  for (std::size_t i = 0; i < size; i += 3) {
    std::uint32_t chunk = static_cast<std::uint32_t>(data[i]) << 16;
    if (i + 1 < size)
      chunk |= static_cast<std::uint32_t>(data[i + 1]) << 8;
    if (i + 2 < size)
      chunk |= data[i + 2];
    out += kBase64[(chunk >> 18) & 63];
    out += kBase64[(chunk >> 12) & 63];
    out += i + 1 < size ? kBase64[(chunk >> 6) & 63] : '=';
    out += i + 2 < size ? kBase64[chunk & 63] : '=';
  }
  return out;
}

fmt::Expected<std::vector<std::uint8_t>> fromBase64(const std::string &text) {
  std::vector<std::uint8_t> out;
  std::uint32_t chunk = 0;
  int bits = 0;
  for (char c : text) {
    if (c == '=')
      break;
    const char *at = std::strchr(kBase64, c);
    if (!at || c == '\0')
      return fmt::fail("the trace is not base64 (a '" + std::string(1, c) + "')");
    chunk = (chunk << 6) | static_cast<std::uint32_t>(at - kBase64);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<std::uint8_t>(chunk >> bits));
    }
  }
  return out;
}

std::uint32_t wordAt(const std::vector<std::uint8_t> &bytes, std::size_t word) {
  std::uint32_t value = 0;
  for (std::size_t b = 0; b < 4; ++b)
    value |= static_cast<std::uint32_t>(bytes[word * 4 + b]) << (8 * b);
  return value;
}

template <typename T> T field(const json &object, const char *name, T fallback) {
  auto it = object.find(name);
  return it == object.end() || it->is_null() ? fallback : it->get<T>();
}

json idJson(const Id3 &id) {
  return json::array({id[0], id[1], id[2]});
}
Id3 idFrom(const json &j, std::uint64_t fallback) {
  Id3 id{fallback, fallback, fallback};
  for (std::size_t d = 0; d < 3 && d < j.size(); ++d)
    id[d] = j[d].get<std::uint64_t>();
  return id;
}

} // namespace

Id3 RecordedRange::globalId(std::uint64_t linear) const {
  Id3 id{linear % global[0], (linear / global[0]) % global[1], linear / (global[0] * global[1])};
  for (std::size_t d = 0; d < 3; ++d)
    id[d] += offset[d];
  return id;
}

Id3 RecordedRange::localId(std::uint64_t linear) const {
  Id3 g = globalId(linear);
  return {(g[0] - offset[0]) % local[0], (g[1] - offset[1]) % local[1], (g[2] - offset[2]) % local[2]};
}

Id3 RecordedRange::groupId(std::uint64_t linear) const {
  Id3 g = globalId(linear);
  return {(g[0] - offset[0]) / local[0], (g[1] - offset[1]) / local[1], (g[2] - offset[2]) / local[2]};
}

std::uint64_t RecordedRange::linear(const Id3 &g) const {
  return (g[0] - offset[0]) + (g[1] - offset[1]) * global[0] + (g[2] - offset[2]) * global[0] * global[1];
}

fmt::Expected<Recording> Recording::decode(trace::TraceLayout layout,
                                           const std::vector<std::uint8_t> &traceBytes, RecordedRange range,
                                           RecordingOrigin origin) {
  std::size_t header = trace::kTraceHeaderWords;
  if (traceBytes.size() < header * 4)
    return fmt::fail("the trace buffer holds " + std::to_string(traceBytes.size()) +
                     " bytes, less than its header");
  Recording r;
  r.m_layout = std::move(layout);
  r.m_range = range;
  r.m_origin = std::move(origin);
  r.m_wordsUsed = wordAt(traceBytes, 0);
  r.m_recordsDropped = wordAt(traceBytes, 1);
  r.m_capacityWords = wordAt(traceBytes, 2);
  std::size_t available = traceBytes.size() / 4 - header;
  std::size_t used = static_cast<std::size_t>(std::min<std::uint64_t>(r.m_wordsUsed, r.m_capacityWords));
  if (used > available)
    return fmt::fail("the trace says " + std::to_string(used) + " words are used; the buffer holds " +
                     std::to_string(available));
  r.m_words.resize(used);
  for (std::size_t w = 0; w < used; ++w)
    r.m_words[w] = wordAt(traceBytes, header + w);
  if (!r.index())
    return fmt::fail("the trace is damaged: a record names a site the layout does not have, or runs past the "
                     "used words");
  return r;
}

bool Recording::index() {
  m_byItem.clear();
  m_shortItems.clear();
  m_recordCount = 0;
  // Records of the work-items that ran at the same time are interleaved (the cursor is atomic, but a record
  // that did not fit leaves the words it would have used unwritten): walk by each site's length.
  std::size_t w = 0;
  std::size_t end = m_words.size();
  while (w + trace::kRecordHeaderWords <= end) {
    const trace::TraceSite *site = m_layout.site(m_words[w]);
    // A full trace ends with the words a record that did not fit reserved but never wrote (the host fills
    // the buffer with 0xFF bytes).
    if (m_recordsDropped > 0 && (m_words[w] == kUnwritten || (site && w + site->words() > end)))
      break;
    if (!site || w + site->words() > end) {
      return false;
    }
    Record rec;
    rec.site = site;
    rec.sequence = m_words[w + 2];
    rec.firstWord = w + trace::kRecordHeaderWords;
    m_byItem[m_words[w + 1]].push_back(rec);
    w += site->words();
    ++m_recordCount;
  }
  for (auto &[item, records] : m_byItem) {
    std::stable_sort(records.begin(), records.end(),
                     [](const Record &a, const Record &b) { return a.sequence < b.sequence; });
    // Call depth, from the functions the records go through (OpenCL C has no recursion): an entry record
    // is a call (a function already on the stack is called again from below it), a record after a return
    // record is in the caller, any other record of a function on the stack is a return to it.
    std::vector<std::string> stack;
    bool returned = false;
    unsigned epoch = 0;
    bool gap = false;
    for (std::size_t i = 0; i < records.size(); ++i) {
      Record &rec = records[i];
      const std::string &function = rec.site->function;
      if (returned && stack.size() > 1)
        stack.pop_back();
      returned = rec.site->kind == trace::SiteKind::Return;
      auto on = std::find(stack.begin(), stack.end(), function);
      if (rec.site->kind == trace::SiteKind::Entry) {
        if (on != stack.end())
          stack.erase(on, stack.end());
        stack.push_back(function);
      } else if (on != stack.end()) {
        stack.erase(on + 1, stack.end());
      } else {
        stack.push_back(function);
      }
      rec.depth = static_cast<unsigned>(stack.size() - 1);
      rec.epoch = epoch;
      if (rec.site->kind == trace::SiteKind::Barrier)
        ++epoch;
      if (rec.sequence != i)
        gap = true;
    }
    if (gap)
      m_shortItems.push_back(item);
  }
  return true;
}

std::vector<std::uint64_t> Recording::items() const {
  std::vector<std::uint64_t> out;
  for (const auto &[item, records] : m_byItem)
    out.push_back(item);
  return out;
}

const std::vector<Record> &Recording::records(std::uint64_t item) const {
  static const std::vector<Record> kNone;
  auto it = m_byItem.find(item);
  return it == m_byItem.end() ? kNone : it->second;
}

const std::uint32_t *Recording::valueWords(const Record &record, std::size_t slot) const {
  std::size_t at = record.firstWord;
  for (std::size_t s = 0; s < slot; ++s)
    at += record.site->values[s].words();
  return m_words.data() + at;
}

std::string Recording::summary() const {
  std::ostringstream out;
  out << m_byItem.size() << " work-item" << (m_byItem.size() == 1 ? "" : "s") << " recorded ("
      << m_layout.recordItems << "), " << m_recordCount << " statement" << (m_recordCount == 1 ? "" : "s")
      << ", " << std::min(m_wordsUsed, m_capacityWords) * 4 << " of " << m_capacityWords * 4
      << " trace bytes";
  if (m_recordsDropped > 0) {
    out << "; the trace is SHORT: " << m_recordsDropped << " statement" << (m_recordsDropped == 1 ? "" : "s")
        << " did not fit, so the work-items' last recorded statements are not their last";
    if (!m_shortItems.empty())
      out << " (" << m_shortItems.size() << " work-item" << (m_shortItems.size() == 1 ? "" : "s")
          << " with gaps)";
    out << "; raise --trace-bytes or record fewer work-items (--record-items)";
  }
  return out.str();
}

fmt::Status Recording::save(const std::filesystem::path &file) const {
  nlohmann::ordered_json j;
  // "format" first: a reader (clcapture pack) recognises a recording by its first bytes.
  j["format"] = kRecordingFormat;
  j["device"] = m_origin.device;
  j["capture"] = m_origin.capture;
  j["launch"] = m_origin.launch;
  j["run"] = m_origin.run;
  j["seconds"] = m_origin.seconds;
  j["kernel_file"] = m_origin.kernelFileName;
  j["kernel_source"] = m_origin.kernelSource;
  j["instrumented_source"] = m_origin.instrumentedSource;
  j["outputs_same_as_plain"] = m_origin.outputsSame;
  if (!m_origin.outputsSame)
    j["outputs_difference"] = m_origin.outputsDifference;
  j["ndrange"] = {{"dims", m_range.dims},
                  {"global", idJson(m_range.global)},
                  {"local", idJson(m_range.local)},
                  {"offset", idJson(m_range.offset)}};
  j["layout"] = nlohmann::ordered_json::parse(trace::layoutJson(m_layout));
  j["words_used"] = m_wordsUsed;
  j["capacity_words"] = m_capacityWords;
  j["records_dropped"] = m_recordsDropped;
  std::vector<std::uint8_t> bytes(m_words.size() * 4);
  for (std::size_t w = 0; w < m_words.size(); ++w)
    for (std::size_t b = 0; b < 4; ++b)
      bytes[w * 4 + b] = static_cast<std::uint8_t>(m_words[w] >> (8 * b));
  j["trace"] = toBase64(bytes.data(), bytes.size());
  std::string text = j.dump(1) + "\n";
  return fmt::writeFileAtomically(file, text.data(), text.size());
}

fmt::Expected<Recording> Recording::load(const std::filesystem::path &file) {
  std::ifstream in(file, std::ios::binary);
  if (!in)
    return fmt::fail("cannot read the recording " + file.string());
  std::ostringstream text;
  text << in.rdbuf();
  try {
    json j = json::parse(text.str());
    if (field<std::string>(j, "format", "") != kRecordingFormat)
      return fmt::fail(file.string() + " is not a clcapture recording (its \"format\" is not \"" +
                       kRecordingFormat + "\")");
    auto layout = trace::parseTraceLayout(j.at("layout").dump());
    if (!layout)
      return fmt::fail(file.string() + ": " + layout.error());
    RecordingOrigin origin;
    origin.device = field<std::string>(j, "device", "");
    origin.capture = field<std::string>(j, "capture", "");
    origin.launch = field<std::size_t>(j, "launch", 0);
    origin.run = field<std::uint32_t>(j, "run", 1);
    origin.seconds = field<double>(j, "seconds", 0);
    origin.kernelFileName = field<std::string>(j, "kernel_file", layout->source);
    origin.kernelSource = field<std::string>(j, "kernel_source", "");
    origin.instrumentedSource = field<std::string>(j, "instrumented_source", "");
    origin.outputsSame = field<bool>(j, "outputs_same_as_plain", true);
    origin.outputsDifference = field<std::string>(j, "outputs_difference", "");
    const json &n = j.at("ndrange");
    RecordedRange range;
    range.dims = field<unsigned>(n, "dims", 1);
    range.global = idFrom(n.at("global"), 1);
    range.local = idFrom(n.at("local"), 1);
    range.offset = idFrom(n.at("offset"), 0);
    auto bytes = fromBase64(j.at("trace").get<std::string>());
    if (!bytes)
      return fmt::fail(file.string() + ": " + bytes.error());
    std::uint64_t words = bytes->size() / 4;
    // The header the decoder reads: the used words (all of them kept), what did not fit, the capacity.
    std::vector<std::uint8_t> buffer(trace::kTraceHeaderWords * 4, 0);
    auto put = [&buffer](std::size_t word, std::uint64_t value) {
      for (std::size_t b = 0; b < 4; ++b)
        buffer[word * 4 + b] = static_cast<std::uint8_t>(value >> (8 * b));
    };
    put(0, words);
    put(1, field<std::uint64_t>(j, "records_dropped", 0));
    put(2, words);
    buffer.insert(buffer.end(), bytes->begin(), bytes->begin() + static_cast<std::ptrdiff_t>(words * 4));
    auto recording = decode(std::move(*layout), buffer, range, std::move(origin));
    if (!recording)
      return fmt::fail(file.string() + ": " + recording.error());
    recording->m_wordsUsed = field<std::uint64_t>(j, "words_used", words);
    recording->m_capacityWords = field<std::uint64_t>(j, "capacity_words", words);
    return recording;
  } catch (const json::exception &e) {
    return fmt::fail(file.string() + " is not a valid recording: " + e.what());
  }
}

} // namespace clcapture::debug
