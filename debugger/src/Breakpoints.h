//===- Breakpoints.h - Where the launch must stop, and when -*- C++ -*-===//
//
// gdb's breakpoints on a captured kernel: a location (FILE:LINE, LINE in the kernel file, or a function's
// first line past its prologue), an optional condition evaluated in the work-item that reaches it,
// temporary ones (tbreak) deleted at their first stop, a hit count.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ExpressionParser.h"
#include "SourceLocation.h"
#include "clcapture/format/Expected.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class DIType;
class Module;
} // namespace llvm

namespace oclgrind {
class Memory;
class WorkGroup;
} // namespace oclgrind

namespace clcapture::debug {

struct Breakpoint {
  int number = 0;
  std::string file; ///< "" for the kernel file
  unsigned line = 0;
  std::string function; ///< set when given as `break FUNCTION`
  std::string conditionText;
  std::unique_ptr<Expr> condition;
  bool temporary = false;
  unsigned hits = 0;
};

/// gdb's watch: a location in one memory, its bytes as last seen. A private location belongs to one
/// work-item and a local one to one group: the watch ends with that group.
struct Watchpoint {
  int number = 0;
  std::string expression;
  const llvm::DIType *type = nullptr;
  oclgrind::Memory *memory = nullptr;
  std::size_t address = 0;
  std::size_t size = 0;
  const oclgrind::WorkGroup *group = nullptr; ///< the group whose end ends it (nullptr: global memory)
  std::string scope;                          ///< "" or "of work-item (3)", "of work-group (0)"
  std::vector<std::uint8_t> bytes;            ///< as last seen
  std::vector<std::uint8_t> previous;         ///< before the last change
  unsigned hits = 0;
};

class Breakpoints {
public:
  /// Parses `LOCATION [if CONDITION]` against the program (`kernelFile`: the kernel file's name as shown) and
  /// adds the breakpoint; fails with the reason (no such line, function or file, a malformed condition).
  format::Expected<const Breakpoint *> add(const std::string &spec, bool temporary,
                                           const llvm::Module &module, const std::string &kernelFile);
  /// Adds a watchpoint (its number given here, from the breakpoints' sequence).
  const Watchpoint &watch(Watchpoint w);
  const std::vector<Watchpoint> &watches() const { return m_watches; }
  std::vector<Watchpoint> &watches() { return m_watches; }
  /// Deletes breakpoint or watchpoint `number`; false when there is none.
  bool remove(int number);
  void clear() {
    m_list.clear();
    m_watches.clear();
  }
  const std::vector<Breakpoint> &all() const { return m_list; }
  std::vector<Breakpoint> &all() { return m_list; }
  /// The breakpoints at `where`, in number order.
  std::vector<Breakpoint *> at(const SourceLocation &where);

private:
  std::vector<Breakpoint> m_list;
  std::vector<Watchpoint> m_watches;
  int m_next = 1;
};

} // namespace clcapture::debug
