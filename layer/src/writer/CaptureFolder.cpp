//===- CaptureFolder.cpp - Where this process's capture goes -===//

#include "writer/CaptureFolder.h"

#include "process/FrontEnd.h"
#include "process/Log.h"

#include <cstdlib>
#include <ctime>
#include <fcntl.h>
#include <link.h>
#include <optional>
#include <unistd.h>
#include <vector>

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

/// The application's argv, from /proc/self/cmdline (NUL-separated).
std::vector<std::string> commandLine() {
  std::string all;
  int fd = ::open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    char buf[4096];
    ssize_t n = 0;
    while ((n = ::read(fd, buf, sizeof buf)) > 0)
      all.append(buf, static_cast<std::size_t>(n));
    ::close(fd);
  }
  std::vector<std::string> args;
  std::size_t start = 0;
  while (start < all.size()) {
    std::size_t end = all.find('\0', start);
    if (end == std::string::npos)
      end = all.size();
    args.push_back(all.substr(start, end - start));
    start = end + 1;
  }
  return args;
}

/// The ICD loader in the process (a module named libOpenCL.so*), if any: the application's, which loaded us.
std::optional<std::string> loaderPath() {
  std::optional<std::string> found;
  dl_iterate_phdr(
      [](dl_phdr_info *info, std::size_t, void *data) {
        std::string name = info->dlpi_name ? info->dlpi_name : "";
        if (name.find("/libOpenCL.so") == std::string::npos)
          return 0;
        *static_cast<std::optional<std::string> *>(data) = name;
        return 1;
      },
      &found);
  return found;
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
  header.process.commandLine = commandLine();
  header.process.loader = loaderPath();
  switch (activeFrontEnd()) {
  case FrontEnd::Icd:
    header.process.frontEnd = "shim ICD";
    break;
  case FrontEnd::Layer:
    header.process.frontEnd = "layer";
    break;
  case FrontEnd::None:
    break;
  }
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
