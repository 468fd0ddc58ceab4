//===- LayerExports.cpp - The OPENCL_LAYERS front end ---------------------===//
//
// The loader-layer interface (cl_loader_layers, Khronos ICD loader and ocl-icd ≥ 2.3): the loader asks
// clGetLayerInfo for the layer API version, then hands clInitLayer (or clInitLayerWithProperties) its
// target dispatch table — the next layer or the loader's own entries, which dispatch on the object — and
// takes ours in return. Ours is a copy of the target with the hooks installed (HookList.h), so every
// unhooked entry goes straight to the target with no forwarding code, exactly as in the shim ICD, and the
// hooks forward to the target (Downstream.h). Handles stay the drivers' own.
//
//===----------------------------------------------------------------------===//

#include "dispatch/Downstream.h"
#include "dispatch/Hooks.h"
#include "engine/CaptureEngine.h"
#include "process/CaptureSwitch.h"
#include "process/Log.h"
#include "writer/RunStatus.h"

#include <CL/cl_layer.h>
#include <cstring>
#include <string>

#define CLCAPTURE_EXPORT extern "C" __attribute__((visibility("default")))

// Newer than Debian's opencl-headers (cl_loader_layers 1.0.0 revision 2): declared here.
using cl_layer_properties = cl_properties;
constexpr cl_layer_properties kLayerPropertiesListEnd = 0;

using namespace clcapture::layer;

namespace {

constexpr unsigned kOurEntries = sizeof(cl_icd_dispatch) / sizeof(void *);
cl_icd_dispatch g_layerTable{};

cl_int initLayer(cl_uint num_entries, const cl_icd_dispatch *target_dispatch, cl_uint *num_entries_out,
                 const cl_icd_dispatch **layer_dispatch_ret) {
  if (!target_dispatch || !num_entries_out || !layer_dispatch_ret)
    return CL_INVALID_VALUE;
  unsigned entries = num_entries < kOurEntries ? num_entries : kOurEntries;
  std::memcpy(&g_layerTable, target_dispatch, entries * sizeof(void *));
  try {
    if (claimFrontEnd(FrontEnd::Layer)) {
      setLayerTarget(target_dispatch, entries);
      TableLimits limits;
      limits.entries = entries;
      hooks::installHooks(&g_layerTable, limits);
      log(LogLevel::Info,
          "OPENCL_LAYERS layer in front of the loader (" + std::to_string(num_entries) + " entries offered)");
    } else {
      log(LogLevel::Info, "the shim ICD captures in this process; the OPENCL_LAYERS layer only forwards");
    }
  } catch (...) {
    // Logging failed (no memory): the copy of the target forwards everything unchanged.
  }
  *num_entries_out = entries;
  *layer_dispatch_ret = &g_layerTable;
  return CL_SUCCESS;
}

} // namespace

CLCAPTURE_EXPORT cl_int CL_API_CALL clGetLayerInfo(cl_layer_info param_name, size_t param_value_size,
                                                   void *param_value, size_t *param_value_size_ret) {
  static const char kName[] = "clcapture (kernel launch capture)";
  const void *value = nullptr;
  size_t size = 0;
  cl_layer_api_version version = CL_LAYER_API_VERSION_100;
  switch (param_name) {
  case CL_LAYER_API_VERSION:
    value = &version;
    size = sizeof version;
    break;
  case CL_LAYER_NAME:
    value = kName;
    size = sizeof kName;
    break;
  default:
    return CL_INVALID_VALUE;
  }
  if (param_value) {
    if (param_value_size < size)
      return CL_INVALID_VALUE;
    std::memcpy(param_value, value, size);
  }
  if (param_value_size_ret)
    *param_value_size_ret = size;
  return CL_SUCCESS;
}

CLCAPTURE_EXPORT cl_int CL_API_CALL clInitLayer(cl_uint num_entries, const cl_icd_dispatch *target_dispatch,
                                                cl_uint *num_entries_out,
                                                const cl_icd_dispatch **layer_dispatch_ret) {
  clcapture::layer::RunStatus::instance().loadedAs("layer");
  return initLayer(num_entries, target_dispatch, num_entries_out, layer_dispatch_ret);
}

CLCAPTURE_EXPORT cl_int CL_API_CALL clInitLayerWithProperties(cl_uint num_entries,
                                                              const cl_icd_dispatch *target_dispatch,
                                                              cl_uint *num_entries_out,
                                                              const cl_icd_dispatch **layer_dispatch_ret,
                                                              const cl_layer_properties *properties) {
  // No property is defined for this layer; an unknown one is refused as the extension requires.
  if (properties && properties[0] != kLayerPropertiesListEnd)
    return CL_INVALID_PROPERTY;
  clcapture::layer::RunStatus::instance().loadedAs("layer");
  return initLayer(num_entries, target_dispatch, num_entries_out, layer_dispatch_ret);
}

CLCAPTURE_EXPORT cl_int CL_API_CALL clDeinitLayer(void) {
  // The loader is unloading: whatever launches are still waiting for their reads get their chance now,
  // since the drivers may be gone by the time the atexit drain runs.
  guarded("clDeinitLayer", [] { CaptureEngine::instance().drain(); });
  return CL_SUCCESS;
}
