//===- ParametricGroups.cpp - Launches that differ only in values, proven together -===//

#include "clcapture/verify/ParametricGroups.h"

#include "clcapture/pipeline/InstantiationAnalyzer.h"

#include <algorithm>
#include <map>
#include <set>
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

/// Opens scalar `i` of group `g`: its value leaves the instantiation, and the distinct values its launches
/// passed bound what the proof covers (ParametricGroup::openValues).
void openScalar(ParametricGroup &g, const format::Capture &capture, const std::vector<std::size_t> &positions,
                std::size_t i) {
  auto &value = std::get<format::ScalarArgument>((*g.opened.kernelArguments)[i]).value;
  std::set<std::string> values;
  for (std::size_t slot : g.slots) {
    const auto &s = std::get<format::ScalarArgument>(
        (*capture.captures.instantiations[positions[slot]].kernelArguments)[i]);
    if (!s.value) { // a launch without this value: any value is one of its launches
      values.clear();
      break;
    }
    values.insert(*s.value);
  }
  value.reset();
  std::string name = "`" + argumentName(g.facts, i) + "`";
  if (values.empty()) {
    g.openedNames.push_back(name);
    return;
  }
  g.openValues[i].assign(values.begin(), values.end());
  g.openedNames.push_back(name + (values.size() <= pipeline::kOpenValueSetMax
                                      ? " (its " + std::to_string(values.size()) + " captured values)"
                                      : " (between the least and greatest of its " +
                                            std::to_string(values.size()) + " captured values)"));
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
          if (a->data.has_value() != b.data.has_value() || a->size != b.size)
            differs = true;
          else if (a->data)
            differs = hashes.hashOf(captureDir / *a->data) != hashes.hashOf(captureDir / *b.data);
        }
        if (differs)
          break;
      }
      if (!differs)
        continue;
      if (std::holds_alternative<format::ScalarArgument>(args[i])) {
        openScalar(g, capture, positions, i);
      } else if (auto *a = std::get_if<format::ArrayArgument>(&args[i])) {
        // Different sizes: the size is open too, and with it the bytes (they are read only with it).
        bool sized = std::all_of(slots.begin(), slots.end(), [&](std::size_t slot) {
          return std::get<format::ArrayArgument>(
                     (*capture.captures.instantiations[positions[slot]].kernelArguments)[i])
                     .size == a->size;
        });
        a->data.reset();
        if (!sized)
          a->size.reset();
        g.openedNames.push_back((sized ? "the bytes of `" : "the size and bytes of `") +
                                argumentName(g.facts, i) + "`");
      }
    }
    // Scalars first: "`offset` and the bytes of `out`".
    std::stable_partition(g.openedNames.begin(), g.openedNames.end(),
                          [](const std::string &n) { return n.rfind("the ", 0) != 0; });
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
