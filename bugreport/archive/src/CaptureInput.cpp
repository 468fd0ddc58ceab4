//===- CaptureInput.cpp - A capture as a tool is given it: captures.json, folder or archive -===//

#include "clcapture/archive/CaptureInput.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <ostream>
#include <system_error>
#include <unistd.h>

namespace clcapture::archive {

namespace fs = std::filesystem;
namespace fmt = clcapture::format;

CaptureInput::TempFolder::~TempFolder() {
  std::error_code ec;
  fs::remove_all(path, ec);
}

fmt::Expected<CaptureInput> CaptureInput::open(const fs::path &given, const ExtractLimits &limits) {
  CaptureInput input;
  std::error_code ec;
  if (fs::is_directory(given, ec)) {
    auto parts = fmt::capturePartsOf(given);
    if (parts.empty())
      return fmt::fail(given.string() + ": a folder without captures.json");
    input.m_captures = parts.front();
    input.m_whole = true;
    return input;
  }
  if (!fs::exists(given, ec) || !looksLikeArchive(given)) {
    input.m_captures = given;
    return input;
  }
  const char *tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/clcapture-archive-XXXXXX";
  if (!::mkdtemp(pattern.data()))
    return fmt::fail("cannot make a temporary folder to extract " + given.string() + " into");
  auto folder = std::make_shared<TempFolder>();
  folder->path = pattern;
  if (auto extracted = extractArchive(given, folder->path, limits); !extracted.ok())
    return fmt::fail(extracted.error());
  auto parts = fmt::capturePartsOf(folder->path);
  if (parts.empty())
    return fmt::fail(given.string() + ": the archive holds no captures.json at its top");
  input.m_captures = parts.front();
  input.m_whole = true;
  input.m_extracted = std::move(folder);
  return input;
}

std::string LoadedCapture::inArchive(std::string text) const {
  if (!fromArchive())
    return text;
  const std::string extracted = source.capturesPath().parent_path().string() + "/";
  const std::string archiveName = given.filename().string() + ":";
  for (std::size_t at = 0; (at = text.find(extracted, at)) != std::string::npos; at += archiveName.size())
    text.replace(at, extracted.size(), archiveName);
  return text;
}

fmt::Expected<LoadedCapture> loadCaptureInput(const fs::path &given, const fmt::ReadOptions &options) {
  auto source = CaptureInput::open(given);
  if (!source.ok())
    return fmt::fail(source.error());
  const fs::path &captures = source.value().capturesPath();
  LoadedCapture input{given, captures.parent_path(),
                      source.value().wholeFolder() ? fmt::loadCaptureFolder(captures.parent_path(), options)
                                                   : fmt::loadCapture(captures, options),
                      source.value()};
  if (input.folder.empty())
    input.folder = ".";
  return input;
}

std::optional<LoadedCapture> openToolInput(const fs::path &given, const fmt::ReadOptions &options,
                                           const std::string &tool, const std::string &nothingDone,
                                           std::ostream &err) {
  auto input = loadCaptureInput(given, options);
  if (!input) {
    err << tool << ": error: " << input.error() << "; " << nothingDone << '\n';
    return std::nullopt;
  }
  for (const fmt::Diagnostic &d : input->capture.diagnostics)
    err << input->inArchive(d.str()) << '\n';
  if (input->capture.hasErrors()) {
    err << tool << ": error: " << given.string() << " is not a valid capture; " << nothingDone << '\n';
    return std::nullopt;
  }
  return std::move(*input);
}

fmt::Expected<std::vector<std::size_t>> selectInstantiations(const fmt::Capture &capture,
                                                             const std::vector<std::size_t> &only,
                                                             const std::string &captureName,
                                                             const std::vector<std::uint64_t> &pids) {
  const auto &indices = capture.captures.indices;
  std::vector<std::size_t> positions;
  for (std::uint64_t pid : pids) {
    bool found = false;
    std::string processes;
    for (const fmt::CapturePart &part : capture.parts)
      if (part.process) {
        processes += (processes.empty() ? "" : ", ") + std::to_string(part.process->pid);
        found = found || part.process->pid == pid;
      }
    if (!found)
      return fmt::fail("--only: no process " + std::to_string(pid) + " wrote a part of " + captureName +
                       (processes.empty() ? std::string(" (it names no process)")
                                          : " (its processes: " + processes + ")"));
    for (std::size_t p = 0; p < indices.size(); ++p)
      if (const fmt::CapturePart *part = capture.partOf(p);
          part && part->process && part->process->pid == pid)
        positions.push_back(p);
  }
  if (only.empty() && !pids.empty()) {
    std::sort(positions.begin(), positions.end());
    positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
    return positions;
  }
  if (only.empty()) {
    for (std::size_t p = 0; p < indices.size(); ++p)
      positions.push_back(p);
    return positions;
  }
  std::map<std::size_t, std::size_t> positionOf;
  for (std::size_t p = 0; p < indices.size(); ++p)
    positionOf.emplace(indices[p], p);
  for (std::size_t index : only) {
    auto it = positionOf.find(index);
    if (it == positionOf.end()) {
      std::size_t count = capture.captures.recordCount;
      return fmt::fail(
          "--only: no instantiation " + std::to_string(index) + " in " + captureName + " (" +
          (count == 0 ? std::string("it has none")
                      : "it has " + std::to_string(count) + ", numbered 0 to " + std::to_string(count - 1)) +
          ")");
    }
    positions.push_back(it->second);
  }
  std::sort(positions.begin(), positions.end());
  positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
  return positions;
}

} // namespace clcapture::archive
