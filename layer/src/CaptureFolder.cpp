//===- CaptureFolder.cpp - Where this process's capture goes -===//

#include "CaptureFolder.h"

#include "Log.h"

#include <cstdlib>
#include <ctime>
#include <unistd.h>

namespace clcapture::layer {

namespace fmt = clcapture::format;

namespace {

std::string executableName() {
  char buf[4096];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n <= 0 ? std::string("app") : std::string(buf, static_cast<std::size_t>(n));
}

std::string baseName(const std::string &path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string utcNow() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

} // namespace

std::unique_ptr<fmt::CaptureRecorder> openCaptureFolder(std::string &folder) {
  std::string executable = executableName();
  const char *dirEnv = std::getenv("CLCAPTURE_DIR");
  folder =
      dirEnv && *dirEnv ? dirEnv : "clcapture-" + baseName(executable) + "-" + std::to_string(::getpid());
  fmt::SidecarHeader header;
  header.clcaptureVersion = CLCAPTURE_VERSION;
  header.process = {executable, static_cast<std::uint64_t>(::getpid()), utcNow()};
  auto created = fmt::CaptureRecorder::create(folder, header);
  if (!created && dirEnv && *dirEnv) {
    std::string own = folder + "." + std::to_string(::getpid());
    created = fmt::CaptureRecorder::create(own, header);
    if (created)
      folder = own;
  }
  if (!created) {
    log(LogLevel::Error, created.error() + "; capture disabled");
    return nullptr;
  }
  log(LogLevel::Info, "capturing into " + folder);
  return std::move(created.value());
}

} // namespace clcapture::layer
