//===- SignatureReader.h - Kernel parameters read from the captured source, where that is certain -*- C++
//-*-===//
//
// The cheap way to learn a kernel's parameters when the driver will not say (ParameterLearning.h): read the
// kernel's definition in the program's source, after the preprocessing that the application's build options
// and the source's own directives determine. A small preprocessor runs over the source: line splices,
// comments, object-like macros (from -D/-U and #define/#undef, expanded in the signature), and #if, #ifdef,
// #ifndef, #elif, #else with their integer expressions. What it cannot decide makes the answer uncertain
// instead of wrong: a condition that names an identifier the driver may predefine (`__` prefixed, `cl_`/`CL_`
// extension and version names, the OpenCL C header's constants), a function-like macro inside a signature, a
// kernel defined twice, a pointer without an address space. An uncertain kernel is left out of the answer,
// and the engine asks a private build instead. tests/layer/signature_reader_test.py compares every certain
// answer with PoCL's own clGetKernelArgInfo over the kernel corpus.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/HandleMirrors.h"

#include <map>
#include <string>
#include <vector>

namespace clcapture::layer {

/// The parameters of every kernel of `source` whose definition is certain under `options` (the application's
/// build options: -D, -U; the rest is ignored). Type names are spelled as OpenCL C spells them after macro
/// expansion (`uint`, `float4*`, `image2d_t`), as clGetKernelArgInfo's CL_KERNEL_ARG_TYPE_NAME does.
std::map<std::string, std::vector<ParamInfo>> readKernelSignatures(const std::string &source,
                                                                   const std::string &options);

} // namespace clcapture::layer
