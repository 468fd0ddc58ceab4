//===- PackEnvironment.h - environment.json and the maintainer's README of an archive -*- C++ -*-===//
//
// What a maintainer needs to know about where the capture came from (the application's command line, the
// ICD loader and front end, each device and driver the launches ran on, the clcapture that captured it) and
// where it was packed (OS, kernel, clcapture), without anything that changes from one pack to the next.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "PackSelection.h"

#include <string>

namespace clcapture::pack {

std::string environmentJson(const PackedCapture &packed);
/// `archiveName`: the archive's file name, for the commands it shows.
std::string maintainerReadme(const PackedCapture &packed, const std::string &archiveName, bool withReport,
                             const std::vector<std::string> &recordings = {});

} // namespace clcapture::pack
