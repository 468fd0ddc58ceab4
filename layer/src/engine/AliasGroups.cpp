//===- AliasGroups.cpp - Which arguments of a launch refer to overlapping memory -===//

#include "engine/AliasGroups.h"

#include <algorithm>
#include <cstddef>
#include <map>

namespace clcapture::layer {

std::vector<std::vector<std::uint32_t>> aliasGroups(const std::vector<MemoryRange> &ranges) {
  std::vector<std::size_t> leader(ranges.size());
  for (std::size_t i = 0; i < leader.size(); ++i)
    leader[i] = i;
  auto find = [&](std::size_t i) {
    while (leader[i] != i)
      i = leader[i] = leader[leader[i]];
    return i;
  };
  for (std::size_t i = 0; i < ranges.size(); ++i)
    for (std::size_t j = i + 1; j < ranges.size(); ++j) {
      const MemoryRange &a = ranges[i], &b = ranges[j];
      // Empty ranges (size 0) still alias when they are the same object at the same place.
      bool overlap = a.begin < b.end && b.begin < a.end;
      bool same = a.begin == b.begin && a.end == b.end;
      if (a.svm == b.svm && a.root == b.root && (overlap || same))
        leader[find(i)] = find(j);
    }
  std::map<std::size_t, std::vector<std::uint32_t>> groups;
  for (std::size_t i = 0; i < ranges.size(); ++i)
    groups[find(i)].push_back(ranges[i].argument);
  std::vector<std::vector<std::uint32_t>> out;
  for (auto &[leaderIndex, group] : groups)
    if (group.size() > 1) {
      std::sort(group.begin(), group.end());
      out.push_back(group);
    }
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace clcapture::layer
