//===- CommandInput.h - Where the debugger's commands come from --*- C++ -*-===//
//
// A terminal gets GNU Readline (line editing, history; the library liboclgrind already loads, so no second
// line editor's `readline` symbols clash with it); a file (-x) or a pipe gets plain lines, echoed after the
// prompt so that a batch session reads as the transcript of an interactive one.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <istream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>

namespace clcapture::debug {

class CommandInput {
public:
  virtual ~CommandInput() = default;
  /// The next line, nullopt at the end of the input.
  virtual std::optional<std::string> next(const std::string &prompt) = 0;
  /// Whether a person types the lines (an empty line then repeats the last command, as in gdb).
  virtual bool interactive() const = 0;
};

/// Readline on the terminal.
std::unique_ptr<CommandInput> terminalInput();
/// Lines of `in`, each echoed to `echo` after the prompt.
std::unique_ptr<CommandInput> scriptInput(std::istream &in, std::ostream &echo);
/// First `first`'s lines, then `then`'s (gdb's -x FILE without --batch: the script, then the terminal).
std::unique_ptr<CommandInput> chainedInput(std::unique_ptr<CommandInput> first,
                                           std::unique_ptr<CommandInput> then);

} // namespace clcapture::debug
