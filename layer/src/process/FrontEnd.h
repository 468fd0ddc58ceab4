//===- FrontEnd.h - Which of the library's two front ends captures in this process -*- C++ -*-===//
//
// libclcapture.so is a shim ICD and an OPENCL_LAYERS layer (docs/contract.md §1). Only one front end captures
// in a process: if the library is loaded both ways (OPENCL_LAYERS plus OCL_ICD_VENDORS), the second one only
// forwards, or every launch would be recorded twice.
//
//===----------------------------------------------------------------------===//
#pragma once

namespace clcapture::layer {

enum class FrontEnd { None, Icd, Layer };

/// Makes `frontEnd` the one that captures; false when the other one already does.
bool claimFrontEnd(FrontEnd frontEnd);
FrontEnd activeFrontEnd();

} // namespace clcapture::layer
