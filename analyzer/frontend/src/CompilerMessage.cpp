//===- CompilerMessage.cpp - One message of the kernel compiler ----------===//

#include "clcapture/frontend/CompilerMessage.h"

namespace clcapture::frontend {

const char *toString(MessageLevel level) {
  switch (level) {
  case MessageLevel::Note:
    return "note";
  case MessageLevel::Warning:
    return "warning";
  case MessageLevel::Error:
    return "error";
  }
  return "error";
}

std::string CompilerMessage::str() const {
  std::string out;
  if (!file.empty()) {
    out += file;
    if (line != 0) {
      out += ":" + std::to_string(line);
      if (column != 0)
        out += ":" + std::to_string(column);
    }
    out += ": ";
  }
  out += toString(level);
  out += ": ";
  out += text;
  return out;
}

std::string joinMessages(const std::vector<CompilerMessage> &messages) {
  std::string out;
  for (const CompilerMessage &m : messages) {
    if (!out.empty())
      out += '\n';
    out += m.str();
  }
  return out;
}

} // namespace clcapture::frontend
