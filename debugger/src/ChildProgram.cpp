//===- ChildProgram.cpp - Another clcapture program's answer ------------------===//
#include "ChildProgram.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace clcapture::debug {

std::pair<std::string, int> runProgram(const std::vector<std::string> &argv, bool withErrors) {
  std::vector<char *> args;
  for (const std::string &a : argv)
    args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  int out[2];
  if (args.size() < 2 || ::pipe(out) != 0)
    return {{}, -1};
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(out[0]);
    ::close(out[1]);
    return {{}, -1};
  }
  if (pid == 0) {
    ::dup2(out[1], STDOUT_FILENO);
    int quiet = withErrors ? out[1] : ::open("/dev/null", O_WRONLY); // progress lines are not the session's
    if (quiet >= 0)
      ::dup2(quiet, STDERR_FILENO);
    ::close(out[0]);
    ::close(out[1]);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  ::close(out[1]);
  std::string text;
  char buffer[65536];
  for (ssize_t got; (got = ::read(out[0], buffer, sizeof buffer)) != 0;) {
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0)
      break;
    text.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(out[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return {text, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

} // namespace clcapture::debug
