//===- SessionFinding.cpp - The session following a verify finding's witness ----===//
//
// --finding K: the witness's work-items focused, a stop at the very load or store of each of its accesses,
// the element the finding names and the work-item's numbers printed there (FindingWitness.h reads the
// finding).
//
//===----------------------------------------------------------------------===//
#include "DebugSession.h"
#include "ExpressionEvaluator.h"
#include "WorkItemView.h"

#include <KernelInvocation.h>
#include <Memory.h>
#include <WorkGroup.h>
#include <WorkItem.h>
#include <cstdio>
#include <llvm/IR/Instruction.h>
#include <stack>

namespace clcapture::debug {

void DebugSession::followFinding(FindingWitness witness) {
  m_witness = std::move(witness);
  m_accessSeen.assign(m_witness->accesses.size(), false);
  const WitnessAccess &first = m_witness->accesses.front();
  m_focus = oclgrind::Size3(first.globalId[0], first.globalId[1], first.globalId[2]);
}

std::optional<DebugSession::WitnessMemory> DebugSession::witnessMemory(const oclgrind::WorkItem &item) const {
  // Where the array starts for this work-item: a pointer's value, or the array's own place. The report
  // names memory as the kernel does (its argument, or a variable): the access may be in a helper that
  // calls it otherwise, so the frames are searched from the innermost out.
  auto parsed = parseExpression(m_witness->array);
  if (!parsed)
    return std::nullopt;
  std::vector<const llvm::Instruction *> frames{item.getCurrentInstruction()};
  for (std::stack<const llvm::Instruction *> calls = item.getCallStack(); !calls.empty(); calls.pop())
    frames.push_back(calls.top());
  for (const llvm::Instruction *frame : frames) {
    WorkItemView view(m_interpreter->context(), item, frame, m_monitor);
    ExpressionEvaluator evaluator(view);
    auto value = evaluator.evaluate(**parsed);
    if (!value)
      continue;
    WitnessMemory w;
    if (auto pointer = evaluator.scalarOf(*value); pointer && pointer->kind == Scalar::Kind::Pointer) {
      w.base = Place{pointer->space, static_cast<std::size_t>(pointer->u)};
      w.element = pointer->pointee;
    } else if (value->place) {
      w.base = *value->place;
      auto elements = elementsOf(value->type);
      w.element = elements ? elements->element : nullptr;
    } else {
      continue;
    }
    w.memory = view.memoryOf(w.base.space);
    return w;
  }
  return std::nullopt;
}

std::optional<int> DebugSession::accessAt(const oclgrind::WorkItem &item, bool write,
                                          const oclgrind::Memory &memory, std::size_t address,
                                          std::size_t size) {
  for (std::size_t i = 0; i < m_witness->accesses.size(); ++i) {
    const WitnessAccess &a = m_witness->accesses[i];
    oclgrind::Size3 id = item.getGlobalID();
    if (m_accessSeen[i] || a.write != write || id.x != a.globalId[0] || id.y != a.globalId[1] ||
        id.z != a.globalId[2] || locationOf(item.getCurrentInstruction()).line != a.line)
      continue;
    auto w = witnessMemory(item);
    if (!w || w->memory != &memory)
      continue;
    std::size_t first = w->base.address + m_witness->firstByte, last = w->base.address + m_witness->lastByte;
    if (address <= last && address + size > first) {
      m_accessSeen[i] = true;
      return static_cast<int>(i + 1);
    }
  }
  return std::nullopt;
}

void DebugSession::describeAccess(const Stop &stop) {
  const WitnessAccess &a = m_witness->accesses.at(static_cast<std::size_t>(stop.breakpoint - 1));
  std::string bytes = std::to_string(m_witness->firstByte) + ".." + std::to_string(m_witness->lastByte);
  m_out << "\nFinding " << m_witness->number << ", access " << stop.breakpoint << ": work-item "
        << idText(stop.item->getGlobalID()) << (a.write ? " wrote " : " read ") << m_witness->array
        << " bytes " << bytes << " at " << fileShown(stop.where.file) << ':' << stop.where.line << '\n';
  m_lastFunction = stop.where.function;
  printSourceLine(stop.where);
  auto view = focusView();
  if (!view)
    return;
  ExpressionEvaluator evaluator(*view);
  // The element that holds the finding's bytes, as the work-item's type sees it.
  if (auto w = witnessMemory(*stop.item)) {
    std::size_t size = byteSize(w->element);
    std::size_t span = static_cast<std::size_t>(m_witness->lastByte - m_witness->firstByte + 1);
    if (size && m_witness->firstByte % size == 0 && span <= size) {
      std::size_t index = static_cast<std::size_t>(m_witness->firstByte / size);
      Value element{w->element, Place{w->base.space, w->base.address + index * size}, std::nullopt};
      m_out << m_witness->array << '[' << index
            << "] = " << formatValue(evaluator, element, NumberFormat::Natural) << '\n';
    } else {
      std::vector<std::uint8_t> raw(span);
      std::string hex;
      if (view->read(Place{w->base.space, w->base.address + m_witness->firstByte}, span, raw.data()))
        for (std::uint8_t b : raw) {
          char digits[4];
          std::snprintf(digits, sizeof digits, "%02x", b);
          hex += digits;
        }
      m_out << m_witness->array << " bytes " << bytes << " = " << (hex.empty() ? "<unreadable>" : "0x" + hex)
            << " (in memory order)\n";
    }
  }
  // The work-item's numbers and pointers where it made the access (arrays: `info locals`).
  for (const auto &list : {view->locals(), view->arguments()})
    for (const NamedVariable &v : list) {
      TypeShape shape = shapeOf(v.type);
      if (shape == TypeShape::Array || shape == TypeShape::Vector || shape == TypeShape::Struct ||
          shape == TypeShape::Union)
        continue;
      m_out << v.name << " = "
            << formatValue(evaluator, Value{v.type, v.place, std::nullopt}, NumberFormat::Natural) << '\n';
    }
}

} // namespace clcapture::debug
