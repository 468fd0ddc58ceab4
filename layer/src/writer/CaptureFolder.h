//===- CaptureFolder.h - Where this process's capture goes -*- C++ -*-===//
//
// docs/contract.md §2: CLCAPTURE_DIR, default ./clcapture-<exe>-<pid>. CLCAPTURE_DIR is inherited by child
// processes, so when the folder already holds another process's capture, this one gets DIR.<pid>: one folder
// per process. Created at the first captured launch, never before (a process that launches nothing leaves
// nothing).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/CaptureRecorder.h"

#include <memory>
#include <string>

namespace clcapture::layer {

/// Creates this process's capture folder and its recorder; null (with a log line) when it cannot.
/// `folder` receives the folder's path.
std::unique_ptr<format::CaptureRecorder> openCaptureFolder(std::string &folder);

} // namespace clcapture::layer
