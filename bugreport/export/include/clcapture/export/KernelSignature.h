//===- KernelSignature.h - An entry point's parameters, read from its source -*- C++ -*-===//
//
// A capture's sidecar names each argument's type when the driver answered CL_KERNEL_ARG_TYPE_NAME, but
// not whether the pointee is const, and captures made by other tools name nothing. The exports read the
// entry's declaration from the kernel source instead: a token scan (comments and preprocessor lines
// skipped, no macro expansion), enough for the parameter lists OpenCL kernels are written with. Where the
// scan cannot tell, it says nothing and the caller falls back to the capture's own facts.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Instantiation.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clcapture::exporter {

struct SignatureParameter {
  std::string name;
  /// The declared type without qualifiers and pointer (normalizeTypeName), typedefs and #defines of a
  /// built-in type resolved: "float", "uint4", "struct Params", "Params".
  std::string type;
  unsigned pointerDepth = 0;                        ///< '*' count, plus one for an array declarator
  std::optional<format::AddressSpace> addressSpace; ///< __global / __local / __constant, when written
  bool pointeeConst = false;                        ///< `const T *p` or `T const *p` (not `T *const p`)
  /// Every use of the parameter in the kernel's body is a store through it: `p[e] = …`, `p[e].f = …` (no
  /// compound assignment) or the last argument of a vstore*() call. A textual rule: a use it cannot read as
  /// a store (a call, pointer arithmetic, a read) makes this false.
  bool writtenOnly = false;
};

struct KernelSignature {
  std::string entry;
  std::vector<SignatureParameter> parameters;
  bool hasBody = false; ///< the definition was found (not only a prototype)
};

/// The declaration of kernel `entry` in `source`, or nullopt when no `kernel`/`__kernel` function of that
/// name is found at file scope.
std::optional<KernelSignature> parseKernelSignature(std::string_view source, std::string_view entry);

} // namespace clcapture::exporter
