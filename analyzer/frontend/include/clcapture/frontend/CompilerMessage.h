//===- CompilerMessage.h - One message of the kernel compiler ---*- C++ -*-===//
//
// What Clang (or the flag parser) said about a captured kernel, in the form users know from compilers:
// `kernels/foo-1f2e.cl:3:5: error: use of undeclared identifier 'x'`. The file is the path as the capture
// gives it (relative to the capture folder), so a message can be pasted next to the capture.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

namespace clcapture::frontend {

enum class MessageLevel { Note, Warning, Error };

const char *toString(MessageLevel level);

struct CompilerMessage {
  MessageLevel level = MessageLevel::Error;
  std::string file;              ///< relative to the capture folder; empty for messages about no file
  unsigned line = 0, column = 0; ///< 1-based; 0 when the message has no position
  std::string text;              ///< lower-case, no final period

  /// `file[:line[:col]]: level: text`, or `level: text` without a file.
  std::string str() const;
};

/// Every message's str(), one per line (no final newline).
std::string joinMessages(const std::vector<CompilerMessage> &messages);

} // namespace clcapture::frontend
