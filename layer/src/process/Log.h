//===- Log.h - The layer's own log, never the application's stdout -*- C++ -*-===//
//
// The layer lives inside someone else's process: it writes to stderr (or CLCAPTURE_LOG_FILE), at the level
// CLCAPTURE_LOG names (off, error, warning, info, debug; default warning), and never throws.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>

namespace clcapture::layer {

enum class LogLevel { Off = 0, Error, Warning, Info, Debug };

LogLevel logLevel();
/// Never throws: a line that cannot be written is dropped.
void log(LogLevel level, const std::string &message) noexcept;

} // namespace clcapture::layer
