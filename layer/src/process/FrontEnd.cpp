//===- FrontEnd.cpp - Which of the library's two front ends captures in this process -===//

#include "process/FrontEnd.h"

#include <atomic>

namespace clcapture::layer {

namespace {

std::atomic<FrontEnd> g_frontEnd{FrontEnd::None};

} // namespace

bool claimFrontEnd(FrontEnd frontEnd) {
  FrontEnd expected = FrontEnd::None;
  return g_frontEnd.compare_exchange_strong(expected, frontEnd) || expected == frontEnd;
}

FrontEnd activeFrontEnd() {
  return g_frontEnd.load();
}

} // namespace clcapture::layer
