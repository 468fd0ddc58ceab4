//===- Log.cpp - The layer's own log -------------------------------------===//
//
// spdlog, compiled into libclcapture.so header-only (fmt header-only too) with hidden visibility: the
// application may use its own spdlog or fmt of another version, and must neither see ours nor lend us its.
// The sink is stderr or CLCAPTURE_LOG_FILE; a file that cannot be opened falls back to stderr.
//
//===----------------------------------------------------------------------===//

#include "process/Log.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <spdlog/logger.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>

namespace clcapture::layer {

namespace {

LogLevel parseLevel(const char *text) {
  if (!text || !*text)
    return LogLevel::Warning;
  struct Name {
    const char *name;
    LogLevel level;
  };
  static const Name kNames[] = {{"off", LogLevel::Off},         {"error", LogLevel::Error},
                                {"warning", LogLevel::Warning}, {"warn", LogLevel::Warning},
                                {"info", LogLevel::Info},       {"debug", LogLevel::Debug}};
  for (const Name &n : kNames)
    if (!std::strcmp(text, n.name))
      return n.level;
  return LogLevel::Warning;
}

spdlog::level::level_enum toSpdlog(LogLevel level) {
  switch (level) {
  case LogLevel::Error:
    return spdlog::level::err;
  case LogLevel::Warning:
    return spdlog::level::warn;
  case LogLevel::Info:
    return spdlog::level::info;
  case LogLevel::Debug:
    return spdlog::level::debug;
  case LogLevel::Off:
    break;
  }
  return spdlog::level::off;
}

/// Never registered in spdlog's global registry (the application's spdlog, if any, is another copy, but
/// ours stays out of every registry anyway) and never destroyed: hooks may log during exit.
spdlog::logger &logger() {
  static spdlog::logger *instance = [] {
    spdlog::sink_ptr sink;
    const char *path = std::getenv("CLCAPTURE_LOG_FILE");
    if (path && *path) {
      try {
        sink = std::make_shared<spdlog::sinks::basic_file_sink_mt>(path);
      } catch (const std::exception &) {
        sink = nullptr;
      }
    }
    if (!sink)
      sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
    auto *l = new spdlog::logger("clcapture", std::move(sink));
    // The layer's lines must read the same whatever spdlog calls its levels.
    l->set_pattern("clcapture: %v");
    l->set_level(toSpdlog(logLevel()));
    l->flush_on(spdlog::level::debug);
    return l;
  }();
  return *instance;
}

const char *levelName(LogLevel level) {
  switch (level) {
  case LogLevel::Error:
    return "error";
  case LogLevel::Warning:
    return "warning";
  case LogLevel::Info:
    return "info";
  case LogLevel::Debug:
    return "debug";
  case LogLevel::Off:
    break;
  }
  return "";
}

} // namespace

LogLevel logLevel() {
  static const LogLevel level = parseLevel(std::getenv("CLCAPTURE_LOG"));
  return level;
}

void log(LogLevel level, const std::string &message) noexcept {
  if (level == LogLevel::Off || static_cast<int>(level) > static_cast<int>(logLevel()))
    return;
  try {
    logger().log(toSpdlog(level), "{}: {}", levelName(level), message);
  } catch (...) {
    // Nothing may escape into the application; a log line that cannot be written is dropped.
  }
}

} // namespace clcapture::layer
