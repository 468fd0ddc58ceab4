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
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

namespace clcapture::debug {

namespace {

// The lexical scopes around `loc`, innermost first, up to its function; for code inlined from a helper (clang
// inlines always_inline helpers even at -O0), on through the scopes around the call it was inlined at.
std::vector<const llvm::DIScope *> scopesAround(const llvm::DILocation *loc) {
  std::vector<const llvm::DIScope *> chain;
  for (; loc; loc = loc->getInlinedAt()) {
    const llvm::DIScope *scope = loc->getScope();
    while (scope) {
      chain.push_back(scope);
      if (llvm::isa<llvm::DISubprogram>(scope))
        break;
      const auto *block = llvm::dyn_cast<llvm::DILexicalBlockBase>(scope);
      scope = block ? block->getScope() : nullptr;
    }
  }
  return chain;
}

} // namespace

WorkItemView::WorkItemView(const oclgrind::Context &context, const oclgrind::WorkItem &item,
                           const llvm::Instruction *next, const ExecutionMonitor *monitor)
    : m_context(context), m_item(item), m_next(next), m_monitor(monitor),
      m_trace(monitor ? monitor->traceOf(&item) : nullptr) {}

std::vector<NamedVariable> WorkItemView::visible() const {
  std::vector<NamedVariable> found;
  // A finished work-item sees what it saw at its last line.
  const llvm::Instruction *at = m_next ? m_next : (m_trace ? m_trace->lastLocated : nullptr);
  if (!at)
    return found;
  auto chain = scopesAround(at->getDebugLoc().get());
  // Locals and arguments: the function's llvm.dbg.declare records, in a scope around the line. At -O0 every
  // variable's storage is an alloca of the entry block, which has run before any line of the function does
  // (a variable declared further down the block is shown before its declaration, as gdb shows it).
  const llvm::Function *current = at->getFunction();
  std::vector<std::pair<std::size_t, NamedVariable>> ranked;
  // A work-item that has not begun has no storage yet (m_trace: the monitor has seen it begin).
  static const std::vector<const llvm::DbgDeclareInst *> none;
  const auto &declares = m_trace ? m_monitor->declaresOf(*current) : none;
  for (const llvm::DbgDeclareInst *declare : declares) {
    std::size_t depth = chain.size();
    for (std::size_t i = 0; i < chain.size(); ++i)
      if (chain[i] == declare->getVariable()->getScope()) {
        depth = i;
        break;
      }
    if (depth == chain.size())
      continue;
    NamedVariable v;
    v.name = declare->getVariable()->getName().str();
    v.type = declare->getVariable()->getType();
    v.place.space = AddressSpace::Private;
    v.place.address = m_item.getOperand(declare->getAddress()).getPointer();
    v.argument = declare->getVariable()->getArg() != 0;
    v.argumentNumber = declare->getVariable()->getArg();
    ranked.emplace_back(depth, v);
  }
  // Innermost scope first; in one scope, the later declaration first (C's shadowing).
  std::reverse(ranked.begin(), ranked.end());
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto &a, const auto &b) { return a.first < b.first; });
  for (const auto &entry : ranked) {
    bool shadowed = false;
    for (const NamedVariable &earlier : found)
      shadowed = shadowed || earlier.name == entry.second.name;
    if (!shadowed)
      found.push_back(entry.second);
  }
  // __local and static variables of the function, then program-scope variables.
  const llvm::Function *function = current;
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

oclgrind::Memory *WorkItemView::memoryOf(AddressSpace space) const {
  return memoryFor(m_context, m_item, space);
}

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
