//===- Breakpoints.cpp - Where the launch must stop, and when -----------------===//
#include "Breakpoints.h"

#include <cctype>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Module.h>

namespace clcapture::debug {

namespace fmt = clcapture::format;

namespace {

std::string trim(const std::string &s) {
  std::size_t b = s.find_first_not_of(" \t");
  std::size_t e = s.find_last_not_of(" \t");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

bool allDigits(const std::string &s) {
  if (s.empty())
    return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return false;
  return true;
}

// Whether some instruction of the program is on `line` of `file` ("" for the kernel file).
bool hasCode(const llvm::Module &module, const std::string &file, unsigned line) {
  for (const llvm::Function &function : module)
    for (const llvm::Instruction &instruction : llvm::instructions(function)) {
      SourceLocation where = locationOf(&instruction);
      if (where.line == line && where.file == file)
        return true;
    }
  return false;
}

} // namespace

fmt::Expected<const Breakpoint *> Breakpoints::add(const std::string &spec, bool temporary,
                                                   const llvm::Module &module,
                                                   const std::string &kernelFile) {
  std::string text = trim(spec);
  std::string location = text, condition;
  if (auto at = text.find(" if "); at != std::string::npos) {
    location = trim(text.substr(0, at));
    condition = trim(text.substr(at + 4));
  } else if (text.rfind("if ", 0) == 0) {
    return fmt::fail("a breakpoint needs a location before its condition");
  }
  if (location.empty())
    return fmt::fail("a breakpoint needs a location: LINE, FILE:LINE or FUNCTION");
  Breakpoint b;
  b.temporary = temporary;
  auto colon = location.rfind(':');
  if (colon != std::string::npos && allDigits(location.substr(colon + 1))) {
    b.file = location.substr(0, colon);
    if (b.file == kernelFile)
      b.file.clear();
    b.line = static_cast<unsigned>(std::stoul(location.substr(colon + 1)));
  } else if (allDigits(location)) {
    b.line = static_cast<unsigned>(std::stoul(location));
  } else {
    const llvm::Function *function = module.getFunction(location);
    if (!function || function->isDeclaration())
      return fmt::fail("no function \"" + location + "\" in the kernel's program");
    b.function = location;
    b.line = firstLineOf(*function);
    if (const llvm::DISubprogram *program = function->getSubprogram())
      b.file = shownFileName(program->getFilename());
  }
  if (b.line == 0 || !hasCode(module, b.file, b.line))
    return fmt::fail("no code on line " + std::to_string(b.line) + " of " +
                     (b.file.empty() ? kernelFile : b.file));
  if (!condition.empty()) {
    auto parsed = parseExpression(condition);
    if (!parsed)
      return fmt::fail(parsed.error());
    b.condition = std::move(*parsed);
    b.conditionText = condition;
  }
  b.number = m_next++;
  m_list.push_back(std::move(b));
  return &m_list.back();
}

const Watchpoint &Breakpoints::watch(Watchpoint w) {
  w.number = m_next++;
  m_watches.push_back(std::move(w));
  return m_watches.back();
}

bool Breakpoints::remove(int number) {
  for (auto it = m_list.begin(); it != m_list.end(); ++it)
    if (it->number == number) {
      m_list.erase(it);
      return true;
    }
  for (auto it = m_watches.begin(); it != m_watches.end(); ++it)
    if (it->number == number) {
      m_watches.erase(it);
      return true;
    }
  return false;
}

std::vector<Breakpoint *> Breakpoints::at(const SourceLocation &where) {
  std::vector<Breakpoint *> found;
  for (Breakpoint &b : m_list)
    if (b.line == where.line && b.file == where.file)
      found.push_back(&b);
  return found;
}

} // namespace clcapture::debug
