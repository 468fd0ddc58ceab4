//===- Downstream.h - Where a hook forwards, for either front end --------*- C++ -*-===//
//
// libclcapture.so has two front ends (SPEC §1) sharing one set of hooks:
// - the shim ICD patches the driver's own dispatch table, so a hook forwards to the driver entries it
//   replaced, found through the object's dispatch pointer (DispatchPatcher);
// - the OPENCL_LAYERS layer hands the loader a table of its own, so a hook forwards to the loader's
//   target dispatch table, whatever the object.
// Only one front end captures in a process: if the library is loaded both ways (OPENCL_LAYERS plus
// OCL_ICD_VENDORS), the second one only forwards, or every launch would be recorded twice.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <CL/cl_icd.h>

namespace clcapture::layer {

enum class FrontEnd { None, Icd, Layer };

/// Makes `frontEnd` the one that captures; false when the other one already does.
bool claimFrontEnd(FrontEnd frontEnd);
FrontEnd activeFrontEnd();

/// Layer front end: the loader's table that hooks forward to (copied; entries past `entries` stay null).
void setLayerTarget(const cl_icd_dispatch *target, unsigned entries);

/// The entries a hook reached through `object` forwards to; nullptr for an object of no known driver.
const cl_icd_dispatch *downstreamOf(const void *object);

} // namespace clcapture::layer
