//===- CompilerFlags.h - The captured compiler_flags, for Clang -*- C++ -*-===//
//
// An instantiation's `compiler_flags` is the string the application gave clBuildProgram. It is split the way
// a POSIX shell splits words (quotes honoured), then sorted: what changes the meaning of the program (-D, -U,
// -I, -cl-std, the -cl-* options Clang understands) goes to Clang; what is meaningless to verification or
// vendor-specific (-cl-kernel-arg-info, -cl-nv-*, -w, -Werror, …) is dropped with a note. Nothing here ever
// fails on an option it does not know: a real driver accepted these flags, so we only report what we skip.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Expected.h"
#include "clcapture/frontend/CompilerMessage.h"

#include <string>
#include <string_view>
#include <vector>

namespace clcapture::frontend {

struct CompilerFlags {
  std::vector<std::string> clangArgs; ///< for `clang -cc1`, in their original order
  std::vector<CompilerMessage> notes; ///< one per ignored option, level Note, no file
};

/// Splits `text` into words like a POSIX shell: blanks separate words, '…' is literal, "…" keeps its content
/// with \" \\ \$ \` and \<newline> as escapes, a backslash outside quotes escapes the next character. Fails
/// on an unterminated quote.
format::Expected<std::vector<std::string>> splitShellWords(std::string_view text);

/// Splits and sorts `text` (see the file comment). Fails only when the words cannot be split.
format::Expected<CompilerFlags> parseCompilerFlags(std::string_view text);

} // namespace clcapture::frontend
