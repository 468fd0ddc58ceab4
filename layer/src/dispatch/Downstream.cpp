//===- Downstream.cpp - Where a hook forwards, for either front end -------===//

#include "dispatch/Downstream.h"

#include "dispatch/DispatchPatcher.h"

#include <cstring>

namespace clcapture::layer {

namespace {

cl_icd_dispatch g_layerTarget{};

} // namespace

void setLayerTarget(const cl_icd_dispatch *target, unsigned entries) {
  // A loader built against older headers offers fewer entries than ours: copy what it has, keep the rest
  // null (hooks then answer as for an unknown object instead of calling past its table).
  constexpr unsigned ours = sizeof(cl_icd_dispatch) / sizeof(void *);
  std::memcpy(&g_layerTarget, target, (entries < ours ? entries : ours) * sizeof(void *));
}

const cl_icd_dispatch *downstreamOf(const void *object) {
  if (activeFrontEnd() == FrontEnd::Layer)
    return object ? &g_layerTarget : nullptr;
  return DispatchPatcher::instance().original(object);
}

} // namespace clcapture::layer
