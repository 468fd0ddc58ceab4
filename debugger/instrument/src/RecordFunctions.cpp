//===- RecordFunctions.cpp - The OpenCL C that writes the trace ----------===//

#include "RecordFunctions.h"

#include "clcapture/trace/TraceLayout.h"

namespace clcapture::instrument {

namespace {

std::string u(unsigned n) {
  return std::to_string(n) + "u";
}

/// The block that stores value `index` at record word `word`: zero the last word, store the value through the
/// union, zero a 3-vector's padding lane, copy the words.
std::string valueStore(const RecordParam &p, unsigned index, unsigned word) {
  unsigned words = (p.size + 3) / 4;
  std::string v = "clcapture_v" + std::to_string(index);
  std::string value = p.storeType == p.type ? v : "(" + p.storeType + ")(" + v + ")";
  std::string text =
      "{ union { " + p.storeType + " clcapture_v; uint clcapture_w[" + std::to_string(words) + "];";
  if (p.padEnd > p.padBegin)
    text += " uchar clcapture_b[" + std::to_string(4 * words) + "];";
  text += " } clcapture_u; clcapture_u.clcapture_w[" + std::to_string(words - 1) + "] = 0u;";
  text += " clcapture_u.clcapture_v = " + value + ";";
  for (unsigned b = p.padBegin; b < p.padEnd; ++b)
    text += " clcapture_u.clcapture_b[" + std::to_string(b) + "] = 0;";
  for (unsigned w = 0; w < words; ++w)
    text += " clcapture_r[" + std::to_string(word + w) + "] = clcapture_u.clcapture_w[" + std::to_string(w) +
            "];";
  return text + " }";
}

} // namespace

std::string itemFunctionText() {
  return "uint clcapture_item(void) { return (uint)((get_global_id(2) - get_global_offset(2)) * "
         "get_global_size(1) * get_global_size(0) + (get_global_id(1) - get_global_offset(1)) * "
         "get_global_size(0) + (get_global_id(0) - get_global_offset(0))); } ";
}

unsigned recordWords(const RecordFunction &function) {
  unsigned words = trace::kRecordHeaderWords;
  for (const RecordParam &p : function.params)
    words += (p.size + 3) / 4;
  return words;
}

std::string recordFunctionText(const RecordFunction &function) {
  bool returns = function.returnsFirst && !function.params.empty();
  std::string text = (returns ? function.params[0].type : std::string("void")) + " clcapture_rec_" +
                     std::to_string(function.site) + "(__global uint *clcapture_t, uint *clcapture_s";
  for (std::size_t i = 0; i < function.params.size(); ++i)
    text += ", " + function.params[i].type + " clcapture_v" + std::to_string(i);
  std::string w = u(recordWords(function));
  // The sequence counts every record of a recording work-item, one that does not fit too (a gap shows it).
  text += ") { if (clcapture_t) { uint clcapture_q = (*clcapture_s)++; uint clcapture_p = "
          "atomic_add(&clcapture_t[0], " +
          w + "); if (clcapture_p + " + w +
          " > clcapture_t[2]) { "
          "atomic_inc(&clcapture_t[1]); } else { __global uint *clcapture_r = clcapture_t + " +
          u(trace::kTraceHeaderWords) + " + clcapture_p; clcapture_r[0] = " + u(function.site) +
          "; clcapture_r[1] = clcapture_item(); clcapture_r[2] = clcapture_q;";
  unsigned word = trace::kRecordHeaderWords;
  for (std::size_t i = 0; i < function.params.size(); ++i) {
    text += " " + valueStore(function.params[i], static_cast<unsigned>(i), word);
    word += (function.params[i].size + 3) / 4;
  }
  text += " } }";
  if (returns)
    text += " return clcapture_v0;";
  return text + " } ";
}

} // namespace clcapture::instrument
