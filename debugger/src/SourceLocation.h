//===- SourceLocation.h - Where an instruction is in the captured source -*- C++ -*-===//
//
// Lines come from the instructions' debug locations. The kernel file is named as the capture names it
// (kernels/<name>-<hash>.cl, shown by its file name); a line of an included header carries the header's name.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

namespace llvm {
class StringRef;
class Function;
class Instruction;
} // namespace llvm

namespace clcapture::debug {

struct SourceLocation {
  std::string file;  ///< file name without folders; empty: the kernel file
  unsigned line = 0; ///< 0: the instruction has no line (an alloca, a debug intrinsic)
  const llvm::Function *function = nullptr;
  bool known() const { return line != 0; }
};

/// The instruction's location; the main file's name is given back empty (the kernel file).
SourceLocation locationOf(const llvm::Instruction *instruction);

/// One source-level frame at an instruction: the function, file and line; code inlined from a helper (clang
/// inlines always_inline helpers even at -O0) has the helper's frame, then the frame it was inlined into.
struct SourceFrame {
  std::string function;
  std::string file; ///< "" for the kernel file
  unsigned line = 0;
  bool inlined = false;
};
/// The frames at `instruction`, innermost first (one for code that was not inlined).
std::vector<SourceFrame> framesAt(const llvm::Instruction *instruction);

/// A debug file name as the debugger shows it: the file name alone; empty for the kernel file.
std::string shownFileName(llvm::StringRef debugFileName);

/// The first line of `function` (its scope line, else its first instruction's).
unsigned firstLineOf(const llvm::Function &function);

} // namespace clcapture::debug
