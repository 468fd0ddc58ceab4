//===- CaptureFolder.cpp - Where this process's capture goes -===//

#include "writer/CaptureFolder.h"

#include "clcapture/format/CaptureParts.h"
#include "process/FrontEnd.h"
#include "process/Log.h"

#include <cstdlib>
#include <ctime>
#include <fcntl.h>
#include <link.h>
#include <mutex>
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

/// The part this process writes, for its end line at exit (a forked child opens its own).
struct OpenPart {
  std::mutex mutex;
  fmt::CaptureRecorder *recorder = nullptr; ///< owned by the engine, never destroyed before exit
  pid_t pid = 0;
};

OpenPart &openPart() {
  static OpenPart *part = new OpenPart(); // never destroyed: used by an exit handler
  return *part;
}

} // namespace

std::unique_ptr<fmt::CaptureRecorder> openCaptureFolder(std::string &folder) {
  std::string executable = executableName();
  const char *dirEnv = std::getenv("CLCAPTURE_DIR");
  const char *runEnv = std::getenv("CLCAPTURE_RUN");
  std::string run = runEnv && *runEnv ? runEnv : std::string(fmt::kRunWithoutLauncher);
  folder =
      dirEnv && *dirEnv ? dirEnv : "clcapture-" + baseName(executable) + "-" + std::to_string(::getpid());
  fmt::SidecarHeader header;
  header.clcaptureVersion = CLCAPTURE_VERSION;
  header.process = {executable, static_cast<std::uint64_t>(::getpid()), utcNow()};
  header.process.parentPid = static_cast<std::uint64_t>(::getppid());
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
  // Every process of one run writes its own part of one folder (CaptureParts.h); a folder that holds another
  // run's capture is left alone: this process gets DIR.<pid>, a run of its own.
  auto joined = fmt::joinCaptureRun(folder, run);
  if (joined && !*joined) {
    std::string own = folder + "." + std::to_string(::getpid());
    log(LogLevel::Warning, folder + " holds the capture of another run; capturing into " + own);
    folder = own;
    run = "pid-" + std::to_string(::getpid());
    joined = fmt::joinCaptureRun(folder, run);
  }
  if (!joined || !*joined) {
    log(LogLevel::Error,
        (joined ? folder + " holds the capture of another run" : joined.error()) + "; capture disabled");
    return nullptr;
  }
  auto created = fmt::CaptureRecorder::createPart(folder, header, header.process.pid);
  if (!created) {
    log(LogLevel::Error, created.error() + "; capture disabled");
    return nullptr;
  }
  const std::string &partName = created.value()->partName();
  if (auto s = fmt::appendManifestLine(folder, fmt::manifestStartLine(partName, header.process)); !s)
    log(LogLevel::Warning, s.error());
  {
    OpenPart &part = openPart();
    std::lock_guard<std::mutex> lock(part.mutex);
    part.recorder = created.value().get();
    part.pid = ::getpid();
  }
  log(LogLevel::Info, "capturing into " + folder + "/" + partName);
  return std::move(created.value());
}

void closeCapturePart() noexcept {
  OpenPart &part = openPart();
  std::lock_guard<std::mutex> lock(part.mutex);
  if (!part.recorder || part.pid != ::getpid())
    return; // no part, or the parent's (a forked child that opened none)
  try {
    auto s = fmt::appendManifestLine(part.recorder->dir(),
                                     fmt::manifestEndLine(part.recorder->partName(),
                                                          static_cast<std::uint64_t>(part.pid), utcNow(),
                                                          part.recorder->instantiationCount()));
    if (!s)
      log(LogLevel::Warning, s.error());
  } catch (...) {
    // at exit: nothing to do about it
  }
  part.recorder = nullptr;
}

} // namespace clcapture::layer
