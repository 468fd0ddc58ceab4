//===- ExitCodes.h - clcapture export's and clcapture import's exit codes -*- C++ -*-===//
//
// docs/contract.md §4's numbering, shared by the two programs.
//
//===----------------------------------------------------------------------===//
#pragma once

namespace clcapture::exporter {

constexpr int kExitOk = 0;
/// A command-line error, or an output that cannot be written.
constexpr int kExitCommandLine = 1;
/// export: some instantiations cannot be expressed in the format (each reported, the rest written).
constexpr int kExitSkipped = 4;
/// export: the capture is invalid.
constexpr int kExitCaptureInvalid = 10;
/// import: a spec is invalid or lacks what a capture must have.
constexpr int kExitSpecInvalid = 10;

} // namespace clcapture::exporter
