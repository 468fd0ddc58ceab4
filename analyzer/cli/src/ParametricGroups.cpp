//===- ParametricGroups.cpp - Launches that differ only in values, proven together -===//

#include "clcapture/verify/ParametricGroups.h"

#include <algorithm>
#include <map>
#include <variant>

namespace clcapture::verify {

namespace fs = std::filesystem;

namespace {

std::string argumentName(const format::LaunchFacts *facts, std::size_t i) {
  if (facts)
    for (const format::ArgumentFacts &a : facts->arguments)
      if (a.index == i && a.name && !a.name->empty())
        return *a.name;
  return "argument " + std::to_string(i);
}

} // namespace

std::vector<ParametricGroup> parametricGroups(const format::Capture &capture,
                                              const std::vector<std::size_t> &positions,
                                              const std::vector<std::size_t> &distinctSlots,
                                              const fs::path &captureDir, FileHashCache &hashes) {
  std::map<std::string, std::vector<std::size_t>> byShape;
  std::vector<std::string> order; // shapes in order of their first slot: a stable report
  for (std::size_t slot : distinctSlots) {
    std::size_t p = positions[slot];
    std::string key = shapeKey(capture.captures.instantiations[p], capture.factsFor(p), captureDir, hashes);
    auto &members = byShape[key];
    if (members.empty())
      order.push_back(key);
    members.push_back(slot);
  }
  std::vector<ParametricGroup> groups;
  for (const std::string &key : order) {
    const std::vector<std::size_t> &slots = byShape[key];
    if (slots.size() < kMinParametricGroup)
      continue;
    ParametricGroup g;
    g.slots = slots;
    std::size_t first = positions[slots.front()];
    g.opened = capture.captures.instantiations[first];
    g.facts = capture.factsFor(first);
    if (!g.opened.kernelArguments)
      continue; // nothing captured to differ in
    auto &args = *g.opened.kernelArguments;
    for (std::size_t i = 0; i < args.size(); ++i) {
      bool differs = false;
      for (std::size_t slot : slots) {
        const auto &other = *capture.captures.instantiations[positions[slot]].kernelArguments;
        if (const auto *s = std::get_if<format::ScalarArgument>(&args[i])) {
          differs = std::get<format::ScalarArgument>(other[i]).value != s->value;
        } else if (const auto *a = std::get_if<format::ArrayArgument>(&args[i])) {
          const auto &b = std::get<format::ArrayArgument>(other[i]);
          if (a->data.has_value() != b.data.has_value())
            differs = true;
          else if (a->data)
            differs = hashes.hashOf(captureDir / *a->data) != hashes.hashOf(captureDir / *b.data);
        }
        if (differs)
          break;
      }
      if (!differs)
        continue;
      if (auto *s = std::get_if<format::ScalarArgument>(&args[i])) {
        s->value.reset();
        g.openedNames.push_back("`" + argumentName(g.facts, i) + "`");
      } else if (auto *a = std::get_if<format::ArrayArgument>(&args[i])) {
        a->data.reset();
        g.openedNames.push_back("the bytes of `" + argumentName(g.facts, i) + "`");
      }
    }
    // Scalars first: "`offset` and the bytes of `out`".
    std::stable_partition(g.openedNames.begin(), g.openedNames.end(),
                          [](const std::string &n) { return n.rfind("the bytes of", 0) != 0; });
    if (g.openedNames.empty())
      continue; // the members differ only in why bytes are missing: one analysis each is as cheap
    groups.push_back(std::move(g));
  }
  return groups;
}

std::string describeOpened(const std::vector<std::string> &names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0)
      out += i + 1 == names.size() ? " and " : ", ";
    out += names[i];
  }
  return out;
}

} // namespace clcapture::verify
