//===- CaptureSwitch.h - Whether the capture is on, and the guard every hook runs under -*- C++ -*-===//
//
// The capture starts on unless the CLCAPTURE_* settings are unusable (CaptureControls.h), and any internal
// failure turns it off for the rest of the run, logged once: the application's calls and results are never
// affected. The hooks, the engine and the writer thread all ask this switch, so none of them needs another
// to know whether to go on.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "process/CaptureControls.h"

#include <exception>
#include <string>

namespace clcapture::layer {

/// The settings, read from the environment once (on first use).
const CaptureControls &captureControls();

/// Whether launches are still captured. The first call reads the settings; unusable ones turn capture off
/// (logged).
bool captureEnabled() noexcept;

/// Logs `why` once ("…; capture disabled for the rest of the run") and stops capturing.
void disableCapture(const std::string &why) noexcept;

/// Stops capturing without a message: the caller has logged why.
void disableCaptureSilently() noexcept;

/// Runs `f` while capture is on, turning any exception into disabling the capture: nothing may cross the C
/// ABI.
template <typename F> void guarded(const char *where, F &&f) noexcept {
  try {
    if (captureEnabled())
      f();
  } catch (const std::exception &e) {
    disableCapture(std::string(where) + ": " + e.what());
  } catch (...) {
    disableCapture(std::string(where) + ": unknown exception");
  }
}

} // namespace clcapture::layer
