//===- WorkItemView.cpp - One paused work-item's variables and memory ---------===//
#include "WorkItemView.h"

#include <Context.h>
#include <Kernel.h>
#include <KernelInvocation.h>
#include <Memory.h>
#include <Program.h>
#include <WorkGroup.h>
#include <WorkItem.h>
#include <algorithm>
#include <cstring>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Instruction.h>
#include <llvm/IR/Module.h>

namespace clcapture::debug {

namespace {

// The lexical scopes around `loc`, innermost first, up to its function.
std::vector<const llvm::DIScope *> scopesAround(const llvm::DILocation *loc) {
  std::vector<const llvm::DIScope *> chain;
  const llvm::DIScope *scope = loc ? loc->getScope() : nullptr;
  while (scope) {
    chain.push_back(scope);
    if (llvm::isa<llvm::DISubprogram>(scope))
      break;
    const auto *block = llvm::dyn_cast<llvm::DILexicalBlockBase>(scope);
    scope = block ? block->getScope() : nullptr;
  }
  return chain;
}

} // namespace

WorkItemView::WorkItemView(const oclgrind::Context &context, const oclgrind::WorkItem &item,
                           const llvm::Instruction *next, const ItemTrace *trace)
    : m_context(context), m_item(item), m_next(next), m_trace(trace) {}

std::vector<NamedVariable> WorkItemView::visible() const {
  std::vector<NamedVariable> found;
  if (!m_next)
    return found;
  auto chain = scopesAround(m_next->getDebugLoc().get());
  // Locals: declared so far, in a scope around the next line; the innermost (then the latest) wins.
  if (m_trace) {
    std::vector<std::pair<std::size_t, NamedVariable>> ranked;
    for (const DeclaredVariable &d : m_trace->declared) {
      std::size_t depth = chain.size();
      for (std::size_t i = 0; i < chain.size(); ++i)
        if (chain[i] == d.variable->getScope()) {
          depth = i;
          break;
        }
      if (depth == chain.size())
        continue;
      NamedVariable v;
      v.name = d.variable->getName().str();
      v.type = d.variable->getType();
      v.place.space = AddressSpace::Private;
      v.place.address = m_item.getOperand(d.storage).getPointer();
      v.argument = d.variable->getArg() != 0;
      v.argumentNumber = d.variable->getArg();
      ranked.emplace_back(depth, v);
    }
    // Innermost scope first; among one scope, the latest declaration first.
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    for (auto it = ranked.begin(); it != ranked.end(); ++it) {
      bool shadowed = false;
      for (const NamedVariable &earlier : found)
        shadowed = shadowed || earlier.name == it->second.name;
      if (!shadowed)
        found.push_back(it->second);
    }
  }
  // __local and static variables of the function, then program-scope variables.
  const llvm::Function *function = m_next->getFunction();
  const llvm::DISubprogram *program = function ? function->getSubprogram() : nullptr;
  const llvm::Module *module = function ? function->getParent() : nullptr;
  if (!module)
    return found;
  for (const llvm::GlobalVariable &global : module->globals()) {
    llvm::SmallVector<llvm::DIGlobalVariableExpression *, 1> expressions;
    global.getDebugInfo(expressions);
    if (expressions.empty())
      continue;
    const llvm::DIGlobalVariable *variable = expressions.front()->getVariable();
    const llvm::DIScope *scope = variable->getScope();
    if (llvm::isa_and_nonnull<llvm::DISubprogram>(scope) && scope != program)
      continue;
    NamedVariable v;
    v.name = variable->getName().str();
    v.type = variable->getType();
    unsigned space = global.getType()->getAddressSpace();
    if (space == static_cast<unsigned>(AddressSpace::Local)) {
      v.place = {AddressSpace::Local, m_item.getWorkGroup()->getLocalMemoryAddress(&global)};
    } else if (space == static_cast<unsigned>(AddressSpace::Global) ||
               space == static_cast<unsigned>(AddressSpace::Constant)) {
      v.place = {static_cast<AddressSpace>(space), m_item.getOperand(&global).getPointer()};
    } else {
      continue;
    }
    bool shadowed = false;
    for (const NamedVariable &earlier : found)
      shadowed = shadowed || earlier.name == v.name;
    if (!shadowed)
      found.push_back(v);
  }
  return found;
}

std::optional<NamedVariable> WorkItemView::find(const std::string &name) const {
  for (const NamedVariable &v : visible())
    if (v.name == name)
      return v;
  return std::nullopt;
}

std::vector<NamedVariable> WorkItemView::arguments() const {
  std::vector<NamedVariable> args;
  for (const NamedVariable &v : visible())
    if (v.argument)
      args.push_back(v);
  std::sort(args.begin(), args.end(),
            [](const auto &a, const auto &b) { return a.argumentNumber < b.argumentNumber; });
  return args;
}

std::vector<NamedVariable> WorkItemView::locals() const {
  std::vector<NamedVariable> result;
  for (const NamedVariable &v : visible())
    if (!v.argument)
      result.push_back(v);
  return result;
}

namespace {

oclgrind::Memory *memoryFor(const oclgrind::Context &context, const oclgrind::WorkItem &item,
                            AddressSpace space) {
  switch (space) {
  case AddressSpace::Private:
    return item.getPrivateMemory();
  case AddressSpace::Global:
  case AddressSpace::Constant:
    return context.getGlobalMemory();
  case AddressSpace::Local:
    return item.getWorkGroup() ? item.getWorkGroup()->getLocalMemory() : nullptr;
  }
  return nullptr;
}

} // namespace

bool WorkItemView::read(const Place &place, std::size_t size, std::uint8_t *out) const {
  oclgrind::Memory *memory = memoryFor(m_context, m_item, place.space);
  if (!memory || !size || !memory->isAddressValid(place.address, size))
    return false;
  std::memcpy(out, memory->getPointer(place.address), size);
  return true;
}

bool WorkItemView::write(const Place &place, const std::uint8_t *bytes, std::size_t size) const {
  oclgrind::Memory *memory = memoryFor(m_context, m_item, place.space);
  if (!memory || !size || !memory->isAddressValid(place.address, size))
    return false;
  std::memcpy(memory->getPointer(place.address), bytes, size);
  return true;
}

} // namespace clcapture::debug
