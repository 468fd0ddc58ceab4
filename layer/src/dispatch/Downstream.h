//===- Downstream.h - Where a hook forwards, for either front end --------*- C++ -*-===//
//
// libclcapture.so has two front ends (docs/contract.md §1) sharing one set of hooks:
// - the shim ICD patches the driver's own dispatch table, so a hook forwards to the driver entries it
//   replaced, found through the object's dispatch pointer (DispatchPatcher);
// - the OPENCL_LAYERS layer hands the loader a table of its own, so a hook forwards to the loader's
//   target dispatch table, whatever the object.
// Which of the two captures in this process: FrontEnd.h.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "process/FrontEnd.h"

#include <CL/cl_icd.h>

namespace clcapture::layer {

/// Layer front end: the loader's table that hooks forward to (copied; entries past `entries` stay null).
void setLayerTarget(const cl_icd_dispatch *target, unsigned entries);

/// The entries a hook reached through `object` forwards to; nullptr for an object of no known driver.
const cl_icd_dispatch *downstreamOf(const void *object);

} // namespace clcapture::layer
