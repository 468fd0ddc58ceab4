//===- CreationSites.cpp - Which host call made the buffer a memory-safety finding is about ----===//

#include "clcapture/verify/CreationSites.h"

#include <map>

namespace clcapture::verify {

namespace {

/// The creating call of the argument named `array` in `facts`, if the capture recorded one.
std::optional<report::CreationSite> creationOf(const format::LaunchFacts &facts, const std::string &array) {
  for (const format::ArgumentFacts &a : facts.arguments) {
    if (!a.name || *a.name != array || a.kind != format::ArgumentKind::Buffer)
      continue;
    for (const format::HostCallFacts &c : facts.hostCalls)
      if (c.argument == a.index &&
          (c.functionName == "clCreateBuffer" || c.functionName == "clCreateSubBuffer"))
        return report::CreationSite{c.functionName, c.compilationUnit, c.lineNumber,
                                    c.module,       c.moduleOffset,    c.caller};
  }
  return std::nullopt;
}

} // namespace

void nameCreationSites(std::vector<report::InstantiationResult> &results, const format::Capture &capture,
                       const std::vector<std::size_t> &positions) {
  std::map<std::size_t, const format::LaunchFacts *> factsOfIndex;
  for (std::size_t p : positions)
    if (p < capture.captures.indices.size())
      factsOfIndex[capture.captures.indices[p]] = capture.factsFor(p);
  for (report::InstantiationResult &r : results) {
    auto it = factsOfIndex.find(r.index);
    if (it == factsOfIndex.end() || !it->second)
      continue;
    for (report::Finding &f : r.findings)
      if (report::memorySafety(f.kind) && !f.array.empty())
        f.createdBy = creationOf(*it->second, f.array);
  }
}

} // namespace clcapture::verify
