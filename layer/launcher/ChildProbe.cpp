//===- ChildProbe.cpp - Run a check in a forked child, results back through a pipe -===//

#include "ChildProbe.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace clcapture::launcher {

namespace {

void writeAll(int fd, const std::string &text) {
  const char *p = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return;
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

void redirect(ChildOutput output) {
  if (output == ChildOutput::ToStderr) {
    ::dup2(STDERR_FILENO, STDOUT_FILENO);
    return;
  }
  int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null < 0)
    return;
  ::dup2(null, STDOUT_FILENO);
  ::dup2(null, STDERR_FILENO);
  ::close(null);
}

/// Splits complete lines off `buffer` into records; a line that is not JSON (cut by a crash) is dropped.
void takeLines(std::string &buffer, std::vector<nlohmann::json> &records) {
  std::size_t start = 0;
  for (std::size_t end; (end = buffer.find('\n', start)) != std::string::npos; start = end + 1) {
    auto record = nlohmann::json::parse(buffer.begin() + static_cast<std::ptrdiff_t>(start),
                                        buffer.begin() + static_cast<std::ptrdiff_t>(end), nullptr, false);
    if (!record.is_discarded())
      records.push_back(std::move(record));
  }
  buffer.erase(0, start);
}

std::string describeStatus(int status) {
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    const char *name = ::strsignal(sig);
    return "killed by signal " + std::to_string(sig) + (name ? std::string(" (") + name + ")" : "");
  }
  if (WIFEXITED(status))
    return "exited with status " + std::to_string(WEXITSTATUS(status));
  return "ended abnormally";
}

} // namespace

ProbeResult runProbe(const std::function<void(const Emit &)> &probe, ChildOutput output, int timeoutSeconds) {
  ProbeResult result;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    result.failure = std::string("cannot make a pipe: ") + std::strerror(errno);
    return result;
  }
  std::fflush(nullptr); // nothing buffered may be written twice
  pid_t child = ::fork();
  if (child < 0) {
    result.failure = std::string("cannot fork: ") + std::strerror(errno);
    ::close(fds[0]);
    ::close(fds[1]);
    return result;
  }
  if (child == 0) {
    ::close(fds[0]);
    redirect(output);
    const int fd = fds[1];
    int status = 0;
    try {
      probe([fd](const nlohmann::json &record) { writeAll(fd, record.dump() + "\n"); });
    } catch (const std::exception &e) {
      writeAll(fd, nlohmann::json{{"step", "error"}, {"error", e.what()}}.dump() + "\n");
      status = 2;
    }
    // No exit handler runs: the drivers loaded here may hang or crash in theirs.
    ::_exit(status);
  }
  ::close(fds[1]);

  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeoutSeconds);
  std::string buffer;
  bool timedOut = false;
  for (;;) {
    auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timedOut = true;
      break;
    }
    pollfd pfd{fds[0], POLLIN, 0};
    int ready = ::poll(&pfd, 1, static_cast<int>(std::min<long long>(left.count(), 200)));
    if (ready < 0 && errno != EINTR)
      break;
    if (ready > 0) {
      char chunk[4096];
      ssize_t n = ::read(fds[0], chunk, sizeof chunk);
      if (n == 0)
        break; // every writer is gone
      if (n > 0) {
        buffer.append(chunk, static_cast<std::size_t>(n));
        takeLines(buffer, result.records);
      }
      continue;
    }
    // A grandchild a driver started may hold the pipe open: the child's own exit also ends the wait.
    int status = 0;
    if (::waitpid(child, &status, WNOHANG) == child) {
      ::fcntl(fds[0], F_SETFL, O_NONBLOCK);
      char chunk[4096];
      for (ssize_t n; (n = ::read(fds[0], chunk, sizeof chunk)) > 0;)
        buffer.append(chunk, static_cast<std::size_t>(n));
      takeLines(buffer, result.records);
      ::close(fds[0]);
      result.finished = WIFEXITED(status) && WEXITSTATUS(status) == 0;
      if (!result.finished)
        result.failure = describeStatus(status);
      return result;
    }
  }
  ::close(fds[0]);
  if (timedOut)
    ::kill(child, SIGKILL);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (timedOut) {
    result.failure = "did not finish within " + std::to_string(timeoutSeconds) + " s";
    return result;
  }
  result.finished = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (!result.finished)
    result.failure = describeStatus(status);
  return result;
}

std::string field(const nlohmann::json &record, const char *key, const std::string &otherwise) {
  auto it = record.find(key);
  if (it == record.end())
    return otherwise;
  const auto *text = it->get_ptr<const nlohmann::json::string_t *>();
  return text ? *text : otherwise;
}

bool flagField(const nlohmann::json &record, const char *key, bool otherwise) {
  auto it = record.find(key);
  if (it == record.end())
    return otherwise;
  const auto *flag = it->get_ptr<const nlohmann::json::boolean_t *>();
  return flag ? *flag : otherwise;
}

long long numberField(const nlohmann::json &record, const char *key, long long otherwise) {
  auto it = record.find(key);
  if (it == record.end())
    return otherwise;
  if (const auto *n = it->get_ptr<const nlohmann::json::number_integer_t *>())
    return *n;
  if (const auto *u = it->get_ptr<const nlohmann::json::number_unsigned_t *>())
    return static_cast<long long>(*u);
  return otherwise;
}

} // namespace clcapture::launcher
