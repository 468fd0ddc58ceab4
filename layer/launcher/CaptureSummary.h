//===- CaptureSummary.h - What the launcher says after the command -*- C++ -*-===//
//
// SPEC §2: the launcher's closing line says how many launches were left without bytes or without source, and
// why. Read from the sidecar (captures.meta.json, through clcapture::format): launches listed as not
// captured, counted by their reason (programs from binaries: how to get their source; IL), and arguments
// whose bytes were not stored (data_skipped: the per-buffer cap, the byte budget, …), then the closing line
// "clcapture: N instantiations captured in DIR". When there is no capture at all, what the pre-flight knew
// and where to look next.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Preflight.h"

#include <cstdio>
#include <string>
#include <sys/types.h>

namespace clcapture::launcher {

/// Reports every capture folder COMMAND (pid `child`) made: `dirOption` when --dir was given, else
/// ./clcapture-<exe>-<pid>. `preflight` is null when the pre-flight did not run.
void reportCaptures(pid_t child, const std::string &dirOption, bool layer, const PreflightReport *preflight,
                    std::FILE *out);

} // namespace clcapture::launcher
