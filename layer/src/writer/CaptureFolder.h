//===- CaptureFolder.h - Where this process's capture goes -*- C++ -*-===//
//
// docs/contract.md §2–3: CLCAPTURE_DIR, default ./clcapture-<exe>-<pid>. CLCAPTURE_DIR is inherited by child
// processes: every process of one run (CLCAPTURE_RUN, set by the launcher; processes without it share the
// folder too) writes its own part of that one capture, with a start and an end line in its manifest
// (common's CaptureParts.h). A folder that holds another run's capture is left alone: the process gets
// DIR.<pid>. The part is created at the process's first captured launch, never before (a process that
// launches nothing leaves nothing).
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

/// Appends the manifest's end line of this process's part, when it opened one (at exit, once the writer
/// has drained). A forked child that opened no part of its own writes nothing.
void closeCapturePart() noexcept;

} // namespace clcapture::layer
