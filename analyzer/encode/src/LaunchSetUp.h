//===- LaunchSetUp.h - The launch's terms, before either work-item is encoded -*- C++ -*-===//
//
// Internal to encode/: the first steps of KernelEncoding::encode, in the order it takes them. The launch's
// sizes and the two work-items' ids (setUpLaunch), the values both share (setUpSharedValues), both in
// LaunchSetUp.cpp; which memory a write may reach and what read-only memory holds (setUpReadOnlyTables,
// ReadOnlyTables.cpp).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "EncodingState.h"

namespace clcapture::encode::detail {

/// The NDRange's sizes (captured, or open when the capture leaves the local size to the driver) and the ids
/// of two distinct work-items A and B within it.
void setUpLaunch(EncodingState &s);

/// Kernel arguments and module variables: the same values for both work-items.
void setUpSharedValues(EncodingState &s);

/// Which memory objects a write may reach; read-only buffers with captured bytes become exact tables.
void setUpReadOnlyTables(EncodingState &s);

} // namespace clcapture::encode::detail
