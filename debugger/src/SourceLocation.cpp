//===- SourceLocation.cpp - Where an instruction is in the captured source ---===//
#include "SourceLocation.h"

#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instruction.h>

namespace clcapture::debug {

namespace {

std::string baseName(llvm::StringRef path) {
  auto slash = path.rfind('/');
  return (slash == llvm::StringRef::npos ? path : path.substr(slash + 1)).str();
}

} // namespace

std::string shownFileName(llvm::StringRef debugFileName) {
  // Oclgrind compiles the source from memory under the name input.cl (its REMAP_INPUT); the compile unit
  // is <stdin>. Both are the kernel file.
  std::string name = baseName(debugFileName);
  return name == "input.cl" || name == "<stdin>" ? std::string() : name;
}

SourceLocation locationOf(const llvm::Instruction *instruction) {
  SourceLocation where;
  if (!instruction)
    return where;
  where.function = instruction->getFunction();
  const llvm::DILocation *loc = instruction->getDebugLoc().get();
  if (!loc)
    return where;
  where.line = loc->getLine();
  where.file = shownFileName(loc->getFilename());
  return where;
}

std::vector<SourceFrame> framesAt(const llvm::Instruction *instruction) {
  std::vector<SourceFrame> frames;
  if (!instruction)
    return frames;
  const llvm::DILocation *loc = instruction->getDebugLoc().get();
  if (!loc) {
    frames.push_back({instruction->getFunction()->getName().str(), {}, 0, false});
    return frames;
  }
  for (; loc; loc = loc->getInlinedAt()) {
    const llvm::DISubprogram *program = loc->getScope() ? loc->getScope()->getSubprogram() : nullptr;
    SourceFrame frame;
    frame.function = program ? program->getName().str() : instruction->getFunction()->getName().str();
    frame.file = shownFileName(loc->getFilename());
    frame.line = loc->getLine();
    frame.inlined = loc->getInlinedAt() != nullptr;
    frames.push_back(frame);
  }
  return frames;
}

unsigned firstLineOf(const llvm::Function &function) {
  // As gdb's `break FUNCTION`: past the prologue (the lines of the declaration and of its brace, where the
  // arguments are stored), unless the body shares them.
  const llvm::DISubprogram *program = function.getSubprogram();
  unsigned declared = program ? program->getLine() : 0;
  unsigned scope = program ? program->getScopeLine() : 0;
  unsigned first = 0;
  for (const llvm::Instruction &instruction : llvm::instructions(function))
    if (const llvm::DILocation *loc = instruction.getDebugLoc().get()) {
      if (!loc->getLine())
        continue;
      if (!first)
        first = loc->getLine();
      if (loc->getLine() != declared && loc->getLine() != scope)
        return loc->getLine();
    }
  return scope ? scope : first;
}

} // namespace clcapture::debug
