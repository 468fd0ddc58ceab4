//===- SessionWatch.cpp - The session's watchpoints -------------------------------===//
//
// watch EXPR: a location in one memory (a work-item's private memory, a group's local memory, global memory)
// whose bytes are compared after every instruction that may write memory; the first change stops the launch
// with the old and new values. A watch on private or local memory ends with its group.
//
//===----------------------------------------------------------------------===//
#include "DebugSession.h"
#include "ExpressionEvaluator.h"
#include "SessionText.h"
#include "WorkItemView.h"

#include <Memory.h>
#include <WorkGroup.h>
#include <WorkItem.h>
#include <algorithm>

namespace clcapture::debug {

std::optional<int> DebugSession::watchHit(const oclgrind::WorkItem &) {
  for (Watchpoint &w : m_breakpoints.watches()) {
    if (!w.memory->isAddressValid(w.address, w.size))
      continue;
    const auto *now = static_cast<const std::uint8_t *>(w.memory->getPointer(w.address));
    if (std::equal(w.bytes.begin(), w.bytes.end(), now))
      continue;
    w.previous = w.bytes;
    w.bytes.assign(now, now + w.size);
    ++w.hits;
    return w.number;
  }
  return std::nullopt;
}

void DebugSession::groupEnding(const oclgrind::WorkGroup &group) {
  auto &watches = m_breakpoints.watches();
  for (auto it = watches.begin(); it != watches.end();) {
    if (it->group == &group) {
      m_out << "\nWatchpoint " << it->number << " deleted: " << it->expression << ' ' << it->scope
            << " went out of scope (its work-group finished)\n";
      it = watches.erase(it);
    } else {
      ++it;
    }
  }
}

DebugSession::Outcome DebugSession::cmdWatch(const std::string &a) {
  std::string expression = trim(a);
  auto e = evaluateFocused(expression, "watch needs a paused work-item: its names say which memory to watch");
  if (!e)
    return {};
  const std::unique_ptr<WorkItemView> &view = e->view;
  const Value *value = &e->value;
  std::size_t size = valueBytes(*value);
  if (!value->place || size == 0) {
    fail("cannot watch " + expression + ": it names no memory");
    return {};
  }
  Watchpoint w;
  w.expression = expression;
  w.type = value->type;
  w.memory = view->memoryOf(value->place->space);
  w.address = value->place->address;
  w.size = size;
  if (!w.memory || !w.memory->isAddressValid(w.address, w.size)) {
    fail("cannot watch " + expression + ": its memory cannot be read");
    return {};
  }
  const oclgrind::WorkItem &item = view->item();
  if (value->place->space == AddressSpace::Private) {
    w.group = item.getWorkGroup();
    w.scope = "of work-item " + idText(item.getGlobalID());
  } else if (value->place->space == AddressSpace::Local) {
    w.group = item.getWorkGroup();
    w.scope = "of work-group " + idText(item.getWorkGroup()->getGroupID());
  }
  const auto *bytes = static_cast<const std::uint8_t *>(w.memory->getPointer(w.address));
  w.bytes.assign(bytes, bytes + size);
  const Watchpoint &added = m_breakpoints.watch(std::move(w));
  m_out << "Watchpoint " << added.number << ": " << added.expression
        << (added.scope.empty() ? std::string() : " (" + added.scope + ")") << '\n';
  return {};
}

} // namespace clcapture::debug
