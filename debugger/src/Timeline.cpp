//===- Timeline.cpp - What re-runs a launch to an earlier moment --------------===//
#include "Timeline.h"

#include <algorithm>

namespace clcapture::debug {

void Timeline::truncateAfter(std::uint64_t clock) {
  m_actions.erase(std::remove_if(m_actions.begin(), m_actions.end(),
                                 [clock](const TimelineAction &a) { return a.clock > clock; }),
                  m_actions.end());
}

} // namespace clcapture::debug
