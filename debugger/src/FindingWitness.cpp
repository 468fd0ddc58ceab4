//===- FindingWitness.cpp - A verify finding's witness, for the debugger to replay ---===//
#include "FindingWitness.h"

#include <cerrno>
#include <climits>
#include <cstring>
#include <fcntl.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

namespace clcapture::debug {

namespace fmt = clcapture::format;

namespace {

// clcapture-verify beside this program (build/bin, an installed bin), else the one on PATH.
std::string verifyProgram() {
  char self[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    self[n] = '\0';
    std::filesystem::path beside = std::filesystem::path(self).parent_path() / "clcapture-verify";
    if (::access(beside.c_str(), X_OK) == 0)
      return beside.string();
  }
  return "clcapture-verify";
}

// Runs `argv` and gives back its standard output and exit status (-1: it could not run).
std::pair<std::string, int> runProgram(const std::vector<std::string> &argv) {
  int out[2];
  if (::pipe(out) != 0)
    return {{}, -1};
  pid_t pid = ::fork();
  if (pid < 0)
    return {{}, -1};
  if (pid == 0) {
    ::dup2(out[1], STDOUT_FILENO);
    int quiet = ::open("/dev/null", O_WRONLY); // its progress lines are not the session's
    if (quiet >= 0)
      ::dup2(quiet, STDERR_FILENO);
    ::close(out[0]);
    ::close(out[1]);
    std::vector<char *> args;
    for (const std::string &a : argv)
      args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
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

} // namespace

fmt::Expected<FindingWitness> parseFindingWitness(const std::string &reportJson, std::size_t number) {
  nlohmann::json report = nlohmann::json::parse(reportJson, nullptr, false);
  if (report.is_discarded() || !report.contains("results") || !report["results"].is_array() ||
      report["results"].empty())
    return fmt::fail("clcapture-verify's report could not be read");
  const nlohmann::json &result = report["results"][0];
  const nlohmann::json findings = result.value("findings", nlohmann::json::array());
  if (number == 0 || number > findings.size())
    return fmt::fail("--finding " + std::to_string(number) + ": the launch has " +
                     std::to_string(findings.size()) + (findings.size() == 1 ? " finding" : " findings") +
                     " (verdict " + result.value("verdict", std::string("?")) + ")");
  const nlohmann::json &f = findings[number - 1];
  FindingWitness w;
  w.number = number;
  w.kind = f.value("kind", std::string());
  w.message = f.value("message", std::string());
  w.memory = f.value("memory", std::string());
  w.array = f.value("array", std::string());
  if (f.contains("index") && f["index"].is_array())
    for (const auto &i : f["index"])
      if (i.is_number_unsigned())
        w.index.push_back(i.get<std::uint64_t>());
  if (f.contains("bytes") && f["bytes"].is_array() && f["bytes"].size() == 2) {
    w.firstByte = f["bytes"][0].get<std::uint64_t>();
    w.lastByte = f["bytes"][1].get<std::uint64_t>();
  }
  for (const auto &a : f.value("accesses", nlohmann::json::array())) {
    WitnessAccess access;
    std::string kind = a.value("access", std::string());
    access.write = kind.find("write") != std::string::npos;
    const auto &ids = a["work_item"]["global_id"];
    for (std::size_t d = 0; d < 3 && d < ids.size(); ++d)
      access.globalId[d] = ids[d].get<std::uint64_t>();
    access.file = a["location"].value("file", std::string());
    access.line = a["location"].value("line", 0u);
    access.source = a.value("source", std::string());
    w.accesses.push_back(access);
  }
  if (w.accesses.empty() || w.array.empty())
    return fmt::fail("--finding " + std::to_string(number) + " (" + w.kind +
                     ") names no accesses on an array to stop at");
  return w;
}

fmt::Expected<FindingWitness> findingWitness(const std::filesystem::path &capture, std::size_t launch,
                                             std::size_t number) {
  std::string verify = verifyProgram();
  auto [report, status] =
      runProgram({verify, "--format=json", "--only=" + std::to_string(launch), capture.string()});
  if (status != 0 && status != 6)
    return fmt::fail("--finding: " + verify + " failed (exit " + std::to_string(status) + ") on " +
                     capture.string());
  return parseFindingWitness(report, number);
}

} // namespace clcapture::debug
