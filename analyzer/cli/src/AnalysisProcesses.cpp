//===- AnalysisProcesses.cpp - Each analysis in a process of its own ------===//

#include "clcapture/verify/AnalysisProcesses.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace clcapture::verify {

namespace {

// Both directions carry frames: a tag byte, the payload's length (8 bytes, this machine's order), the
// payload. The driver sends 'Q' (the request); a child answers 'R' (the reply) or, from a fatal signal's
// handler, 'S' (the signal number as 4 bytes), after any number of 'P' frames (the step it is at, as text:
// AnalysisProcesses::reportStep).
constexpr char kRequest = 'Q';
constexpr char kReply = 'R';
constexpr char kSignal = 'S';
constexpr char kStep = 'P';
constexpr std::size_t kHeader = 1 + sizeof(std::uint64_t);

bool sendAll(int fd, const char *data, std::size_t n) {
  while (n > 0) {
    ssize_t sent = ::send(fd, data, n, MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR)
      continue;
    if (sent <= 0)
      return false;
    data += sent;
    n -= static_cast<std::size_t>(sent);
  }
  return true;
}

bool recvAll(int fd, char *data, std::size_t n) {
  while (n > 0) {
    ssize_t got = ::recv(fd, data, n, 0);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      return false;
    data += got;
    n -= static_cast<std::size_t>(got);
  }
  return true;
}

bool sendFrame(int fd, char tag, const std::string &payload) {
  char header[kHeader];
  header[0] = tag;
  std::uint64_t size = payload.size();
  std::memcpy(header + 1, &size, sizeof size);
  return sendAll(fd, header, kHeader) && sendAll(fd, payload.data(), payload.size());
}

// ---- the child -----------------------------------------------------------------------------------------

int g_replySocket = -1;
alignas(16) char g_signalStack[64 * 1024]; // a stack overflow's handler needs a stack of its own

extern "C" void reportFatalSignal(int signal) {
  // Async-signal-safe: one send of a fixed frame, then the default action ends the process.
  char frame[kHeader + sizeof(std::int32_t)];
  frame[0] = kSignal;
  std::uint64_t size = sizeof(std::int32_t);
  std::int32_t number = signal;
  std::memcpy(frame + 1, &size, sizeof size);
  std::memcpy(frame + kHeader, &number, sizeof number);
  (void)!::send(g_replySocket, frame, sizeof frame, MSG_NOSIGNAL);
  ::signal(signal, SIG_DFL);
  ::raise(signal);
}

void reportFatalSignals() {
  stack_t stack{};
  stack.ss_sp = g_signalStack;
  stack.ss_size = sizeof g_signalStack;
  ::sigaltstack(&stack, nullptr);
  struct sigaction action {};
  action.sa_handler = reportFatalSignal;
  action.sa_flags = static_cast<int>(SA_ONSTACK | SA_RESETHAND);
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT})
    ::sigaction(signal, &action, nullptr);
}

[[noreturn]] void childMain(int socket, const AnalysisProcesses::Handler &handler) {
  g_replySocket = socket;
  reportFatalSignals();
  char header[kHeader];
  if (!recvAll(socket, header, kHeader) || header[0] != kRequest)
    ::_exit(1);
  std::uint64_t size = 0;
  std::memcpy(&size, header + 1, sizeof size);
  std::string request(size, '\0');
  if (!recvAll(socket, request.data(), size))
    ::_exit(1);
  std::string reply = handler(request);
  ::_exit(sendFrame(socket, kReply, reply) ? 0 : 1); // no destructors, no flushing of the driver's buffers
}

// ---- the zygote ----------------------------------------------------------------------------------------

/// What the zygote tells the driver about a child it made (its socket travels as SCM_RIGHTS).
struct ChildNotice {
  pid_t pid;
  int error; ///< errno of a failed socketpair or fork (then no socket travels)
};

void sendChild(int control, int socket, ChildNotice notice) {
  iovec data{&notice, sizeof notice};
  msghdr message{};
  message.msg_iov = &data;
  message.msg_iovlen = 1;
  alignas(cmsghdr) char control_buffer[CMSG_SPACE(sizeof(int))];
  if (socket >= 0) {
    message.msg_control = control_buffer;
    message.msg_controllen = sizeof control_buffer;
    cmsghdr *c = CMSG_FIRSTHDR(&message);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(c), &socket, sizeof(int));
  }
  while (::sendmsg(control, &message, MSG_NOSIGNAL) < 0 && errno == EINTR) {
  }
}

/// Dies with `parent`: the kernel sends SIGKILL when it ends (checked after asking, in case it already has).
void dieWith(pid_t parent) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent)
    ::_exit(0);
}

[[noreturn]] void zygoteMain(int control, pid_t driver, const AnalysisProcesses::Handler &handler) {
  dieWith(driver);
  ::signal(SIGCHLD, SIG_IGN); // the kernel reaps the children: the driver watches them through their sockets
  int devNull = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  if (devNull >= 0) { // the report is the driver's alone
    ::dup2(devNull, STDIN_FILENO);
    ::dup2(devNull, STDOUT_FILENO);
  }
  pid_t self = ::getpid();
  for (;;) {
    char wanted = 0;
    ssize_t got = ::recv(control, &wanted, 1, 0);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      ::_exit(0); // the driver is done
    int pair[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
      sendChild(control, -1, {0, errno});
      continue;
    }
    pid_t pid = ::fork();
    if (pid == 0) {
      ::close(control);
      ::close(pair[0]);
      dieWith(self);
      ::signal(SIGCHLD, SIG_DFL);
      childMain(pair[1], handler);
    }
    int error = errno;
    ::close(pair[1]);
    sendChild(control, pid > 0 ? pair[0] : -1, {pid > 0 ? pid : 0, pid > 0 ? 0 : error});
    ::close(pair[0]);
  }
}

// ---- the driver ----------------------------------------------------------------------------------------

std::size_t threadCount() {
  std::size_t n = 0;
  if (DIR *dir = ::opendir("/proc/self/task")) {
    while (dirent *entry = ::readdir(dir))
      if (entry->d_name[0] != '.')
        ++n;
    ::closedir(dir);
  }
  return n;
}

/// Memory the process holds that no file backs (resident minus file-backed and shared pages), in bytes.
std::uint64_t privateBytes(pid_t pid) {
  std::ifstream statm("/proc/" + std::to_string(pid) + "/statm");
  std::uint64_t size = 0, resident = 0, shared = 0;
  if (!(statm >> size >> resident >> shared) || resident < shared)
    return 0;
  return (resident - shared) * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

/// A handle that names the child even after it ended (no signal to a reused process id); -1 if unsupported.
int openPidfd(pid_t pid) {
#ifdef SYS_pidfd_open
  return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
  (void)pid;
  return -1;
#endif
}

void killChild(pid_t pid, int pidfd) {
#ifdef SYS_pidfd_send_signal
  if (pidfd >= 0) {
    ::syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, nullptr, 0);
    return;
  }
#endif
  (void)pidfd;
  ::kill(pid, SIGKILL);
}

bool completeFrame(const std::string &received) {
  std::uint64_t size = 0;
  if (received.size() < kHeader)
    return false;
  std::memcpy(&size, received.data() + 1, sizeof size);
  return received.size() - kHeader >= size;
}

/// The outcome a child's frames give: its reply, or the fatal signal it reported.
AnalysisProcesses::Outcome readOutcome(const std::string &received) {
  AnalysisProcesses::Outcome outcome;
  outcome.ending = AnalysisProcesses::Ending::Crashed;
  if (!completeFrame(received))
    return outcome;
  std::uint64_t size = 0;
  std::memcpy(&size, received.data() + 1, sizeof size);
  if (received[0] == kReply) {
    outcome.ending = AnalysisProcesses::Ending::Replied;
    outcome.reply = received.substr(kHeader, size);
  } else if (received[0] == kSignal && size == sizeof(std::int32_t)) {
    std::int32_t number = 0;
    std::memcpy(&number, received.data() + kHeader, sizeof number);
    outcome.signal = number;
  }
  return outcome;
}

} // namespace

std::unique_ptr<AnalysisProcesses> AnalysisProcesses::start(Handler handler, std::string &why) {
  if (std::size_t threads = threadCount(); threads != 1) {
    why = "clcapture-verify has " + std::to_string(threads) + " threads, and fork() is safe with one only";
    return nullptr;
  }
  int pair[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
    why = std::string("socketpair: ") + std::strerror(errno);
    return nullptr;
  }
  pid_t driver = ::getpid();
  pid_t zygote = ::fork();
  if (zygote == 0) {
    ::close(pair[0]);
    zygoteMain(pair[1], driver, handler);
  }
  int error = errno;
  ::close(pair[1]);
  if (zygote < 0) {
    ::close(pair[0]);
    why = std::string("fork: ") + std::strerror(error);
    return nullptr;
  }
  return std::unique_ptr<AnalysisProcesses>(new AnalysisProcesses(pair[0], zygote));
}

AnalysisProcesses::~AnalysisProcesses() {
  ::close(m_control);
  while (::waitpid(m_zygote, nullptr, 0) < 0 && errno == EINTR) {
  }
}

std::optional<AnalysisProcesses::Child> AnalysisProcesses::newChild(std::string &why) {
  std::lock_guard<std::mutex> lock(m_mutex);
  if (!sendAll(m_control, "c", 1)) {
    why = "the zygote process is gone";
    return std::nullopt;
  }
  ChildNotice notice{};
  iovec data{&notice, sizeof notice};
  msghdr message{};
  message.msg_iov = &data;
  message.msg_iovlen = 1;
  alignas(cmsghdr) char control_buffer[CMSG_SPACE(sizeof(int))];
  message.msg_control = control_buffer;
  message.msg_controllen = sizeof control_buffer;
  ssize_t got;
  while ((got = ::recvmsg(m_control, &message, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR) {
  }
  if (got != static_cast<ssize_t>(sizeof notice)) {
    why = "the zygote process is gone";
    return std::nullopt;
  }
  cmsghdr *c = CMSG_FIRSTHDR(&message);
  if (notice.error != 0 || !c || c->cmsg_type != SCM_RIGHTS) {
    why = std::string("fork: ") + std::strerror(notice.error ? notice.error : EAGAIN);
    return std::nullopt;
  }
  Child child;
  std::memcpy(&child.socket, CMSG_DATA(c), sizeof(int));
  child.pid = notice.pid;
  return child;
}

AnalysisProcesses::Outcome AnalysisProcesses::run(const std::string &request, const Limits &limits) {
  Outcome outcome;
  std::optional<Child> child = newChild(outcome.detail);
  if (!child)
    return outcome; // Unavailable
  int pidfd = openPidfd(child->pid);
  std::uint64_t baseline = limits.memoryBytes ? privateBytes(child->pid) : 0;
  std::string received;
  bool ended = !sendFrame(child->socket, kRequest, request); // it died before reading: read what it said
  using Clock = std::chrono::steady_clock;
  for (;;) {
    int waitMs = limits.memoryBytes ? 100 : -1; // memory is looked at ten times a second
    if (limits.deadline) {
      auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(*limits.deadline - Clock::now()).count();
      left = std::max<long long>(left, 0) + 1;
      waitMs = waitMs < 0 ? static_cast<int>(std::min<long long>(left, 1 << 30))
                          : static_cast<int>(std::min<long long>(left, waitMs));
    }
    pollfd fd{child->socket, POLLIN, 0};
    int ready = ::poll(&fd, 1, waitMs);
    if (ready < 0 && errno != EINTR)
      break;
    if (ready > 0) {
      char buffer[65536];
      ssize_t got = ::recv(child->socket, buffer, sizeof buffer, 0);
      if (got < 0 && errno == EINTR)
        continue;
      if (got <= 0)
        break; // the child is gone: what it sent is all there is
      received.append(buffer, static_cast<std::size_t>(got));
      while (completeFrame(received) && received[0] == kStep) {
        std::uint64_t size = 0;
        std::memcpy(&size, received.data() + 1, sizeof size);
        outcome.step = received.substr(kHeader, size);
        received.erase(0, kHeader + size);
      }
      if (completeFrame(received))
        break; // not waiting for its exit: that unmaps its memory, which takes a while
      continue;
    }
    if (ended)
      break;
    if (limits.deadline && Clock::now() >= *limits.deadline) {
      killChild(child->pid, pidfd);
      outcome.ending = Ending::TimedOut;
      break;
    }
    if (limits.memoryBytes) {
      std::uint64_t held = privateBytes(child->pid);
      if (held > baseline && held - baseline > limits.memoryBytes) {
        killChild(child->pid, pidfd);
        outcome.ending = Ending::OverMemory;
        outcome.memoryBytes = held - baseline;
        break;
      }
    }
  }
  ::close(child->socket);
  if (pidfd >= 0)
    ::close(pidfd);
  if (outcome.ending == Ending::TimedOut || outcome.ending == Ending::OverMemory)
    return outcome;
  std::string step = std::move(outcome.step);
  outcome = readOutcome(received);
  outcome.step = std::move(step);
  return outcome;
}

void AnalysisProcesses::reportStep(const std::string &step) {
  if (g_replySocket < 0)
    return; // not a child: nobody to tell
  // One send of the whole frame, so that a fatal signal's frame cannot fall inside it.
  std::string frame(kHeader, '\0');
  frame[0] = kStep;
  std::uint64_t size = step.size();
  std::memcpy(frame.data() + 1, &size, sizeof size);
  frame += step;
  (void)!::send(g_replySocket, frame.data(), frame.size(), MSG_NOSIGNAL);
}

} // namespace clcapture::verify
