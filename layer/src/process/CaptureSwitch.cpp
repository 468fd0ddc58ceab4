//===- CaptureSwitch.cpp - Whether the capture is on ----------------------===//

#include "process/CaptureSwitch.h"

#include "process/Log.h"

#include <atomic>

namespace clcapture::layer {

namespace {

bool settingsUsable() noexcept {
  try {
    const CaptureControls &controls = captureControls();
    if (controls.error.empty())
      return true;
    log(LogLevel::Error, controls.error + "; capture disabled");
  } catch (const std::exception &e) {
    log(LogLevel::Error, std::string("reading the CLCAPTURE_* settings: ") + e.what() + "; capture disabled");
  } catch (...) {
    log(LogLevel::Error, "reading the CLCAPTURE_* settings failed; capture disabled");
  }
  return false;
}

std::atomic<bool> &switchState() noexcept {
  static std::atomic<bool> on{
      settingsUsable()}; // trivially destructible: safe for hooks that run during exit
  return on;
}

} // namespace

const CaptureControls &captureControls() {
  static const CaptureControls *controls = new CaptureControls(controlsFromEnvironment()); // never destroyed
  return *controls;
}

bool captureEnabled() noexcept {
  return switchState().load(std::memory_order_relaxed);
}

void disableCapture(const std::string &why) noexcept {
  if (switchState().exchange(false)) {
    try {
      log(LogLevel::Error, why + "; capture disabled for the rest of the run");
    } catch (...) {
    }
  }
}

void disableCaptureSilently() noexcept {
  switchState().store(false);
}

} // namespace clcapture::layer
