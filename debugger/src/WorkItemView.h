//===- WorkItemView.h - One paused work-item's variables and memory -*- C++ -*-===//
//
// The names a work-item can see where it is paused, as C scoping says: its local variables and arguments in
// the lexical blocks around its next line (the function's llvm.dbg.declare records, innermost first), the
// function's __local and static variables, program-scope variables. Each name is a place (address space and
// Oclgrind address) and a type from the debug information; reads and writes go to the memory the address
// space names: the work-item's private memory, its group's local memory, the launch's global memory.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "DebugTypes.h"
#include "ExecutionMonitor.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class DIType;
class Instruction;
} // namespace llvm

namespace oclgrind {
class Context;
class Memory;
class WorkItem;
} // namespace oclgrind

namespace clcapture::debug {

struct Place {
  AddressSpace space = AddressSpace::Private;
  std::size_t address = 0;
};

struct NamedVariable {
  std::string name;
  const llvm::DIType *type = nullptr;
  Place place;
  bool argument = false;
  unsigned argumentNumber = 0; ///< 1-based, for arguments
};

class WorkItemView {
public:
  /// `monitor`: the run the work-item is in (what it has done so far, the functions' debug records).
  WorkItemView(const oclgrind::Context &context, const oclgrind::WorkItem &item,
               const llvm::Instruction *next, const ExecutionMonitor *monitor);

  const oclgrind::WorkItem &item() const { return m_item; }
  const llvm::Instruction *next() const { return m_next; }

  /// The variable `name` names here, innermost scope first; nullopt when it names nothing visible.
  std::optional<NamedVariable> find(const std::string &name) const;
  /// The current function's arguments (in order) and its other visible locals (innermost first).
  std::vector<NamedVariable> arguments() const;
  std::vector<NamedVariable> locals() const;

  /// Reads or writes `size` bytes at `place`; false when no memory of its space holds them all.
  bool read(const Place &place, std::size_t size, std::uint8_t *out) const;
  bool write(const Place &place, const std::uint8_t *bytes, std::size_t size) const;
  /// The memory a place of this work-item is in (its private memory, its group's local memory, global).
  oclgrind::Memory *memoryOf(AddressSpace space) const;

private:
  std::vector<NamedVariable> visible() const;

  const oclgrind::Context &m_context;
  const oclgrind::WorkItem &m_item;
  const llvm::Instruction *m_next;
  const ExecutionMonitor *m_monitor;
  const ItemTrace *m_trace;
};

} // namespace clcapture::debug
