//===- SimExport.h - One instantiation as an Oclgrind simulator file -*- C++ -*-===//
//
// `oclgrind-kernel FILE.sim` (Oclgrind's src/kernel/Simulation.cpp, 21.10 and later) reads: the program
// file, the kernel name, the NDRange and the work-group size (three numbers each), then one `<…>` header
// per argument: `size=N`, an element type (char … double), `fill=V`, `range=A:B:C`, `noinit`, `null`,
// `ro`/`wo`, `hex`, `dump`, followed by the values when no initialiser is given. It has no global offset,
// no build options, no way to make two arguments one buffer, no images, SVM or non-uniform work-groups,
// and no form that reads values from a file: a captured buffer's bytes are written out as values.
// What it cannot express is reported, and that instantiation gets no file: never an approximation.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/export/LaunchView.h"
#include "clcapture/format/Expected.h"

#include <filesystem>
#include <string>
#include <vector>

namespace clcapture::exporter {

struct SimFile {
  std::string text;               ///< the .sim contents
  std::vector<std::string> notes; ///< what the user must know to run it (build options)
};

/// The .sim of instantiation `index` (its view `view`, of the capture in `folder`), naming the program
/// file `kernelName` (written beside it), or the reason it cannot be expressed.
format::Expected<SimFile> simulationFile(const LaunchView &view, const std::filesystem::path &folder,
                                         std::size_t index, const std::string &kernelName);

} // namespace clcapture::exporter
