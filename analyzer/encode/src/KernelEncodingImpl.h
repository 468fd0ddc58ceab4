//===- KernelEncodingImpl.h - What a KernelEncoding holds -*- C++ -*-===//
//
// Internal to encode/: the state behind a KernelEncoding, for the files that implement its members
// (KernelEncoding.cpp, RaceQuery.cpp, DivergenceQuery.cpp).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "EncodingState.h"
#include "clcapture/encode/KernelEncoding.h"

namespace clcapture::encode {

struct KernelEncoding::Impl {
  Impl(llvm::Function &kernel, const model::LaunchConfig &launch, const EncodeOptions &options)
      : state(kernel, launch, options) {}
  EncodingState state;
};

} // namespace clcapture::encode
