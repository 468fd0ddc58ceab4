//===- Hooks.h - Installing the hand-written hooks --------------*- C++ -*-===//
//
// The hooks themselves are internal to Hooks.cpp: a hook that is written but missing from HookList.h is an
// unused function there, which the warning set (an error in CI) reports, instead of silently never running.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dispatch/HookList.h"

#include <CL/cl_icd.h>

namespace clcapture::layer::hooks {

/// Points every entry of CLCAPTURE_HOOKS in `table` that `limits` allow at its hook; entries the driver
/// lacks stay null. The assignments are type-checked against CL/cl_icd.h: a hook with a wrong signature
/// does not compile.
void installHooks(cl_icd_dispatch *table, const TableLimits &limits);

} // namespace clcapture::layer::hooks
