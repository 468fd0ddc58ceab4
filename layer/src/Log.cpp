//===- Log.cpp - The layer's own log -------------------------------------===//

#include "Log.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

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

void log(LogLevel level, const std::string &message) {
  if (level == LogLevel::Off || static_cast<int>(level) > static_cast<int>(logLevel()))
    return;
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  static std::FILE *out = [] {
    const char *path = std::getenv("CLCAPTURE_LOG_FILE");
    std::FILE *f = path && *path ? std::fopen(path, "a") : nullptr;
    return f ? f : stderr;
  }();
  std::fprintf(out, "clcapture: %s: %s\n", levelName(level), message.c_str());
  std::fflush(out);
}

} // namespace clcapture::layer
