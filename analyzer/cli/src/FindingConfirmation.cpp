//===- FindingConfirmation.cpp - --confirm: findings replayed under Oclgrind ---===//

#include "clcapture/verify/FindingConfirmation.h"

#include "clcapture/cli/ToolProgram.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace clcapture::verify {

namespace fs = std::filesystem;
using report::Finding;
using report::InstantiationResult;

namespace {

std::string_view trimmed(std::string_view s) {
  std::size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos)
    return {};
  std::size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool isIdentifierChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/// `name` as a whole identifier in `text` ("tmp" in "tmp[l] = x" but not in "tmpl").
bool mentions(std::string_view text, const std::string &name) {
  for (std::size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    bool before = at == 0 || !isIdentifierChar(text[at - 1]);
    std::size_t end = at + name.size();
    bool after = end >= text.size() || !isIdentifierChar(text[end]);
    if (before && after)
      return true;
  }
  return false;
}

struct RunOutcome {
  std::optional<std::string> problem; ///< could not start, or killed at the time limit
  int exitCode = -1;
  std::string out, err;
};

std::string readAll(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Runs argv[0] with `extraEnv` added to this process's environment, stdout and stderr into temporary
/// files, killed after `timeoutSeconds` (0: no limit).
RunOutcome runProgram(const std::vector<std::string> &argv, const std::vector<std::string> &extraEnv,
                      double timeoutSeconds) {
  RunOutcome outcome;
  std::string dir = fs::temp_directory_path().string();
  std::string outName = dir + "/clcapture-confirm-out-XXXXXX",
              errName = dir + "/clcapture-confirm-err-XXXXXX";
  int outFd = ::mkstemp(outName.data());
  int errFd = outFd < 0 ? -1 : ::mkstemp(errName.data());
  if (outFd < 0 || errFd < 0) {
    if (outFd >= 0) {
      ::close(outFd);
      ::unlink(outName.c_str());
    }
    outcome.problem = std::string("cannot create a temporary file: ") + std::strerror(errno);
    return outcome;
  }
  // Everything the child needs is built before fork(): after it, only async-signal-safe calls.
  std::vector<std::string> env;
  for (char **e = environ; *e; ++e) {
    std::string entry(*e);
    bool replaced = false;
    for (const std::string &extra : extraEnv)
      replaced = replaced || entry.compare(0, extra.find('=') + 1, extra, 0, extra.find('=') + 1) == 0;
    if (!replaced)
      env.push_back(std::move(entry));
  }
  env.insert(env.end(), extraEnv.begin(), extraEnv.end());
  std::vector<char *> args, envp;
  for (const std::string &a : argv)
    args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  for (const std::string &e : env)
    envp.push_back(const_cast<char *>(e.c_str()));
  envp.push_back(nullptr);

  pid_t pid = ::fork();
  if (pid == 0) {
    int devNull = ::open("/dev/null", O_RDONLY);
    if (devNull >= 0)
      ::dup2(devNull, 0);
    ::dup2(outFd, 1);
    ::dup2(errFd, 2);
    ::execve(args[0], args.data(), envp.data());
    ::_exit(127);
  }
  ::close(outFd);
  ::close(errFd);
  if (pid < 0) {
    outcome.problem = std::string("cannot start ") + argv[0] + ": " + std::strerror(errno);
  } else {
    auto start = std::chrono::steady_clock::now();
    int status = 0;
    for (;;) {
      pid_t done = ::waitpid(pid, &status, WNOHANG);
      if (done == pid)
        break;
      if (done < 0 && errno != EINTR) {
        outcome.problem = std::string("waiting for ") + argv[0] + " failed: " + std::strerror(errno);
        break;
      }
      double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (timeoutSeconds > 0 && elapsed > timeoutSeconds) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, &status, 0);
        std::ostringstream text;
        text << "the replay under Oclgrind did not finish within " << timeoutSeconds << " s (--timeout)";
        outcome.problem = text.str();
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (!outcome.problem)
      outcome.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  outcome.out = readAll(outName);
  outcome.err = readAll(errName);
  ::unlink(outName.c_str());
  ::unlink(errName.c_str());
  return outcome;
}

/// The last line of clcapture-replay's own messages, for a reason.
std::string lastReplayMessage(const std::string &err) {
  std::istringstream in(err);
  std::string line, last;
  while (std::getline(in, line))
    if (startsWith(line, "clcapture-replay:"))
      last = line.substr(std::strlen("clcapture-replay: "));
  return last;
}

/// One instantiation replayed under Oclgrind: a confirmation per finding.
std::vector<std::string> confirmOne(const InstantiationResult &r, const fs::path &capturesPath,
                                    const fs::path &replay, const fs::path &icd, double timeoutSeconds) {
  std::vector<std::string> env = {"OCLGRIND_DATA_RACES=1", "OCLGRIND_MAX_ERRORS=10000"};
  // Oclgrind leaves out write-write races where every writer stores the same value; a benign finding is
  // exactly that, so Oclgrind is asked to report them when one is to be confirmed.
  for (const Finding &f : r.findings)
    if (f.benign) {
      env.push_back("OCLGRIND_UNIFORM_WRITES=1");
      break;
    }
  RunOutcome run = runProgram({replay.string(), capturesPath.string(), "--only", std::to_string(r.index),
                               "--icd", icd.string(), "--format=json"},
                              env, timeoutSeconds);
  std::string verdict;
  if (run.problem) {
    verdict = kNotReplayable + *run.problem;
  } else {
    // clcapture-replay's JSON report: the one launch's status, and its reason when it did not run.
    std::optional<std::string> status, reason;
    nlohmann::json report = nlohmann::json::parse(run.out, nullptr, false);
    if (report.is_object() && report.contains("launches")) {
      for (const nlohmann::json &launch : report.at("launches")) {
        if (launch.contains("status") && launch.at("status").is_string())
          status = launch.at("status").get<std::string>();
        if (launch.contains("reason") && launch.at("reason").is_string())
          reason = launch.at("reason").get<std::string>();
        break;
      }
    }
    if (!status) {
      std::string message = lastReplayMessage(run.err);
      verdict = std::string(kNotReplayable) + "clcapture-replay exited " + std::to_string(run.exitCode) +
                (message.empty() ? "" : ": " + message);
    } else if (*status != "replayed" && *status != "differs") {
      verdict = kNotReplayable + reason.value_or(*status);
    }
  }
  std::vector<std::string> confirmations;
  std::vector<OclgrindMessage> seen;
  if (verdict.empty())
    seen = parseOclgrindMessages(run.err);
  for (const Finding &f : r.findings)
    confirmations.push_back(!verdict.empty() ? verdict : oclgrindSaw(f, seen) ? kConfirmed : kNotObserved);
  return confirmations;
}

} // namespace

std::vector<OclgrindMessage> parseOclgrindMessages(std::string_view text) {
  std::vector<OclgrindMessage> messages;
  std::vector<std::string_view> lines;
  for (std::size_t at = 0; at <= text.size();) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos)
      end = text.size();
    lines.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = trimmed(lines[i]);
    // Oclgrind's RaceDetector: "Read-write data race at local memory address 0x1000000000004".
    bool readWrite = startsWith(line, "Read-write data race at ");
    if (readWrite || startsWith(line, "Write-write data race at ")) {
      OclgrindMessage m;
      m.writeWrite = !readWrite;
      std::string_view rest =
          line.substr(std::strlen(readWrite ? "Read-write data race at " : "Write-write data race at "));
      m.memory = std::string(rest.substr(0, rest.find(' ')));
      messages.push_back(std::move(m));
      continue;
    }
    // MemCheck: "Invalid write to read-only buffer", "Invalid read from write-only buffer".
    if (line == "Invalid write to read-only buffer" || line == "Invalid read from write-only buffer") {
      OclgrindMessage m;
      m.kind = OclgrindMessage::Kind::AccessMode;
      m.write = startsWith(line, "Invalid write");
      messages.push_back(std::move(m));
      continue;
    }
    // MemCheck: "Invalid read of size 4 at global memory address 0x2000000000010" (outside every buffer, or
    // NULL), and "Index (9) exceeds static array size (8)" (no access kind or memory named).
    if (startsWith(line, "Invalid read of size ") || startsWith(line, "Invalid write of size ") ||
        (startsWith(line, "Index (") &&
         line.find(") exceeds static array size (") != std::string_view::npos)) {
      OclgrindMessage m;
      m.kind = OclgrindMessage::Kind::Invalid;
      m.write = startsWith(line, "Invalid write");
      if (std::size_t at = line.find(" at "); startsWith(line, "Invalid ") && at != std::string_view::npos) {
        std::string_view rest = line.substr(at + 4);
        m.memory = std::string(rest.substr(0, rest.find(' ')));
      }
      messages.push_back(std::move(m));
      continue;
    }
    // Oclgrind's core: "Work-group divergence detected (barrier)" (or "(async copy)").
    if (startsWith(line, "Work-group divergence detected")) {
      OclgrindMessage m;
      m.kind = OclgrindMessage::Kind::Divergence;
      messages.push_back(std::move(m));
      continue;
    }
    // "At line 7 (column 18) of input.cl:" then the source line.
    if (!messages.empty() && startsWith(line, "At line ")) {
      OclgrindMessage::Site site;
      site.line = std::strtoull(std::string(line.substr(std::strlen("At line "))).c_str(), nullptr, 10);
      if (i + 1 < lines.size())
        site.source = std::string(trimmed(lines[i + 1]));
      messages.back().sites.push_back(std::move(site));
    }
  }
  return messages;
}

bool oclgrindSaw(const Finding &finding, const std::vector<OclgrindMessage> &seen) {
  if (finding.kind == report::FindingKind::BarrierDivergence) {
    for (const OclgrindMessage &m : seen)
      if (m.kind == OclgrindMessage::Kind::Divergence)
        return true;
    return false;
  }
  const std::string memory = format::toString(finding.memory);
  if (report::memorySafety(finding.kind)) {
    // An invalid access of the finding's kind (and, when Oclgrind names them, its access and memory) on
    // one of its lines or naming its array.
    bool writes = finding.accesses[0].access && *finding.accesses[0].access != report::AccessKind::Read;
    for (const OclgrindMessage &m : seen) {
      bool kind = finding.kind == report::FindingKind::AccessMode
                      ? m.kind == OclgrindMessage::Kind::AccessMode
                      : m.kind == OclgrindMessage::Kind::Invalid;
      if (!kind || (m.kind == OclgrindMessage::Kind::AccessMode && m.write != writes) ||
          (!m.memory.empty() && m.memory != memory && finding.kind != report::FindingKind::NullDereference))
        continue;
      for (const OclgrindMessage::Site &site : m.sites)
        if ((finding.accesses[0].location.line != 0 && finding.accesses[0].location.line == site.line) ||
            (!finding.array.empty() && mentions(site.source, finding.array)))
          return true;
    }
    return false;
  }
  for (const OclgrindMessage &m : seen) {
    if (m.kind != OclgrindMessage::Kind::Race || m.memory != memory)
      continue;
    // Oclgrind calls a race read-write when either access loads, write-write when both store; atomics
    // are reported as one of the two.
    if (finding.conflict == report::Conflict::WriteWrite && !m.writeWrite)
      continue;
    if ((finding.conflict == report::Conflict::ReadWrite ||
         finding.conflict == report::Conflict::WriteRead) &&
        m.writeWrite)
      continue;
    if (finding.array.empty() || m.sites.empty())
      return true;
    for (const OclgrindMessage::Site &site : m.sites) {
      if (mentions(site.source, finding.array))
        return true;
      for (const report::Access &a : finding.accesses)
        if (a.location.line != 0 && a.location.line == site.line)
          return true;
    }
  }
  return false;
}

std::optional<fs::path> findReplayProgram() {
  return clcapture::cli::findToolProgram("clcapture-replay");
}

void confirmFindings(std::vector<InstantiationResult> &results, const fs::path &capturesPath,
                     double timeoutSeconds, std::ostream &err) {
  std::optional<std::string> blocked;
  std::optional<fs::path> replay = findReplayProgram();
  const char *icdSetting = std::getenv("CLCAPTURE_OCLGRIND_ICD");
  fs::path icd = icdSetting && *icdSetting ? fs::path(icdSetting) : fs::path(kDefaultOclgrindIcd);
  std::error_code ec;
  if (!replay)
    blocked = "clcapture-replay was found neither beside clcapture-verify nor on PATH";
  else if (!fs::exists(icd, ec))
    blocked = "Oclgrind's ICD " + icd.string() +
              " does not exist (install oclgrind, or set CLCAPTURE_OCLGRIND_ICD)";
  bool any = false;
  std::map<std::size_t, std::vector<std::string>> byIndex;
  for (InstantiationResult &r : results) {
    if (r.findings.empty())
      continue;
    any = true;
    std::vector<std::string> confirmations;
    if (blocked) {
      confirmations.assign(r.findings.size(), kNotReplayable + *blocked);
    } else if (r.sameAs && byIndex.count(*r.sameAs) && byIndex[*r.sameAs].size() == r.findings.size()) {
      confirmations = byIndex[*r.sameAs]; // an identical launch: the same run would show the same
    } else {
      confirmations = confirmOne(r, capturesPath, *replay, icd, timeoutSeconds);
    }
    for (std::size_t i = 0; i < r.findings.size(); ++i)
      r.findings[i].confirmation = confirmations[i];
    byIndex[r.index] = std::move(confirmations);
  }
  if (blocked && any)
    err << "clcapture-verify: warning: --confirm: " << *blocked << '\n';
}

} // namespace clcapture::verify
