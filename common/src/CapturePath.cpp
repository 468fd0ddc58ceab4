//===- CapturePath.cpp - Paths inside a capture folder -------------------===//

#include "clcapture/format/CapturePath.h"

#include <system_error>

namespace clcapture::format {

namespace fs = std::filesystem;

std::optional<std::string> lexicalPathProblem(std::string_view relative) {
  if (relative.empty())
    return std::string("path is empty");
  if (relative.find('\0') != std::string_view::npos)
    return std::string("path contains a NUL character");
  if (relative.front() == '/' || relative.front() == '\\' || (relative.size() >= 2 && relative[1] == ':'))
    return "path \"" + std::string(relative) + "\" escapes the capture folder (absolute path)";
  // Components are split on both separators so a Windows-style "..\x" is caught as well.
  std::size_t start = 0;
  while (start <= relative.size()) {
    std::size_t end = relative.find_first_of("/\\", start);
    if (end == std::string_view::npos)
      end = relative.size();
    if (relative.substr(start, end - start) == "..")
      return "path \"" + std::string(relative) + "\" escapes the capture folder (\"..\" component)";
    start = end + 1;
  }
  return std::nullopt;
}

std::optional<std::string> containedFileProblem(const fs::path &baseDir, std::string_view relative) {
  if (auto problem = lexicalPathProblem(relative))
    return problem;
  std::error_code ec;
  fs::path full = baseDir / fs::path(std::string(relative));
  if (!fs::exists(full, ec))
    return "file \"" + std::string(relative) + "\" does not exist in " + baseDir.string();
  if (!fs::is_regular_file(full, ec))
    return "\"" + std::string(relative) + "\" is not a regular file";
  fs::path realBase = fs::canonical(baseDir, ec);
  if (ec)
    return "cannot resolve the capture folder " + baseDir.string() + ": " + ec.message();
  fs::path realFile = fs::canonical(full, ec);
  if (ec)
    return "cannot resolve \"" + std::string(relative) + "\": " + ec.message();
  auto [baseEnd, fileIt] = std::mismatch(realBase.begin(), realBase.end(), realFile.begin(), realFile.end());
  if (baseEnd != realBase.end())
    return "path \"" + std::string(relative) + "\" escapes the capture folder (it resolves to " +
           realFile.string() + ")";
  return std::nullopt;
}

} // namespace clcapture::format
