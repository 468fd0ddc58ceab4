//===- CaptureParts.cpp - One capture written by many processes -===//

#include "clcapture/format/CaptureParts.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <system_error>
#include <unistd.h>

namespace clcapture::format {

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

std::optional<std::string> readToken(const fs::path &marker) {
  std::ifstream in(marker);
  if (!in)
    return std::nullopt;
  std::string token;
  std::getline(in, token);
  return token;
}

/// A part written before run.id existed, or by any process of another run.
bool holdsAnyPart(const fs::path &dir) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (isCapturePartName(it->path().filename().string()))
      return true;
  return false;
}

Status writeAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return fail(std::strerror(errno));
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return {};
}

} // namespace

Expected<bool> joinCaptureRun(const fs::path &dir, std::string_view token) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    return fail("cannot create the capture folder " + dir.string() + ": " + ec.message());
  fs::path marker = dir / std::string(kRunMarkerFile);
  if (auto existing = readToken(marker))
    return *existing == token;
  if (holdsAnyPart(dir))
    return false; // a capture of an earlier version, or one whose run.id was removed: not ours
  // Written under a name of our own, then linked: run.id appears whole, and only one process creates it.
  fs::path temporary = dir / (".run.id." + std::to_string(::getpid()));
  int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return fail("cannot create " + temporary.string() + ": " + std::strerror(errno));
  Status written = writeAll(fd, std::string(token) + "\n");
  ::close(fd);
  if (!written) {
    ::unlink(temporary.c_str());
    return fail("cannot write " + temporary.string() + ": " + written.error());
  }
  int linked = ::link(temporary.c_str(), marker.c_str());
  int linkError = errno;
  ::unlink(temporary.c_str());
  if (linked == 0)
    return true;
  if (linkError != EEXIST)
    return fail("cannot create " + marker.string() + ": " + std::strerror(linkError));
  auto other = readToken(marker); // another process of some run made it first
  return other && *other == token;
}

bool holdsOtherRun(const fs::path &dir, std::string_view token) {
  if (auto existing = readToken(dir / std::string(kRunMarkerFile)))
    return *existing != token;
  return holdsAnyPart(dir);
}

fs::path sidecarPathFor(const fs::path &capturesPath) {
  fs::path p = capturesPath;
  if (p.extension() == ".json")
    p.replace_extension();
  p += ".meta.json";
  return p;
}

std::string capturePartName(std::uint64_t pid, unsigned attempt) {
  if (attempt == 0)
    return "captures.json";
  std::string name = "captures-" + std::to_string(pid);
  if (attempt > 1)
    name += "-" + std::to_string(attempt - 1);
  return name + ".json";
}

bool isCapturePartName(std::string_view fileName) {
  if (fileName == "captures.json")
    return true;
  constexpr std::string_view prefix = "captures-", suffix = ".json", sidecar = ".meta.json";
  if (fileName.size() <= prefix.size() + suffix.size() || fileName.substr(0, prefix.size()) != prefix ||
      fileName.substr(fileName.size() - suffix.size()) != suffix)
    return false;
  if (fileName.size() >= sidecar.size() && fileName.substr(fileName.size() - sidecar.size()) == sidecar)
    return false;
  std::string_view middle = fileName.substr(prefix.size(), fileName.size() - prefix.size() - suffix.size());
  return std::all_of(middle.begin(), middle.end(), [](char c) { return (c >= '0' && c <= '9') || c == '-'; });
}

std::string shortCommandLine(const std::vector<std::string> &words) {
  std::string command;
  for (const std::string &word : words) {
    if (command.size() > 60) {
      command += " ...";
      break;
    }
    command += (command.empty() ? "" : " ") + word;
  }
  return command;
}

std::string manifestStartLine(std::string_view part, const ProcessFacts &p) {
  Json j = {{"event", "start"},
            {"part", part},
            {"pid", p.pid},
            {"executable", p.executable},
            {"command_line", p.commandLine},
            {"started", p.startedAt}};
  if (p.parentPid)
    j["parent"] = *p.parentPid;
  return j.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string manifestEndLine(std::string_view part, std::uint64_t pid, std::string_view ended,
                            std::uint64_t launches) {
  Json j = {{"event", "end"}, {"part", part}, {"pid", pid}, {"ended", ended}, {"launches", launches}};
  return j.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

Status appendManifestLine(const fs::path &dir, std::string_view line) {
  fs::path path = dir / std::string(kManifestFile);
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0)
    return fail("cannot open " + path.string() + ": " + std::strerror(errno));
  // One write: O_APPEND places it whole at the end, whatever other processes append meanwhile.
  ssize_t n = ::write(fd, line.data(), line.size());
  int error = errno;
  ::close(fd);
  if (n != static_cast<ssize_t>(line.size()))
    return fail("cannot append to " + path.string() + ": " + (n < 0 ? std::strerror(error) : "short write"));
  return {};
}

std::vector<ProcessRecord> readProcessManifest(const fs::path &dir) {
  std::vector<ProcessRecord> records;
  std::ifstream in(dir / std::string(kManifestFile));
  std::string line;
  auto find = [&records](const std::string &part) -> ProcessRecord * {
    for (auto &r : records)
      if (r.part == part)
        return &r;
    return nullptr;
  };
  while (std::getline(in, line)) {
    Json j = Json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object() || !j.contains("part") || !j["part"].is_string() || !j.contains("event"))
      continue;
    std::string part = j["part"].get<std::string>();
    auto number = [&j](const char *key) -> std::optional<std::uint64_t> {
      auto it = j.find(key);
      if (it == j.end() || !it->is_number_unsigned())
        return std::nullopt;
      return it->get<std::uint64_t>();
    };
    auto text = [&j](const char *key) -> std::string {
      auto it = j.find(key);
      return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    if (j["event"] == "start") {
      ProcessRecord r;
      r.part = part;
      r.pid = number("pid").value_or(0);
      r.parent = number("parent");
      r.executable = text("executable");
      r.started = text("started");
      if (auto it = j.find("command_line"); it != j.end() && it->is_array())
        for (const auto &word : *it)
          if (word.is_string())
            r.commandLine.push_back(word.get<std::string>());
      if (!find(part))
        records.push_back(std::move(r));
    } else if (j["event"] == "end") {
      if (ProcessRecord *r = find(part)) {
        r->ended = text("ended");
        r->launches = number("launches");
      }
    }
  }
  return records;
}

std::vector<fs::path> capturePartsOf(const fs::path &dir) {
  std::set<std::string> present;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (isCapturePartName(it->path().filename().string()) && it->is_regular_file(ec))
      present.insert(it->path().filename().string());
  std::vector<fs::path> parts;
  for (const ProcessRecord &r : readProcessManifest(dir))
    if (present.erase(r.part))
      parts.push_back(dir / r.part);
  // Not in the manifest (written before it existed, or its line was lost): captures.json first, then by name.
  if (present.erase("captures.json"))
    parts.insert(parts.begin(), dir / "captures.json");
  for (const std::string &name : present)
    parts.push_back(dir / name);
  return parts;
}

} // namespace clcapture::format
