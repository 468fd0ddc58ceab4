//===- CaptureInput.cpp - A capture as a tool is given it: captures.json, folder or archive -===//

#include "clcapture/archive/CaptureInput.h"

#include <cstdlib>
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
    input.m_captures = given / "captures.json";
    if (!fs::exists(input.m_captures, ec))
      return fmt::fail(given.string() + ": a folder without captures.json");
    return input;
  }
  if (!fs::exists(given, ec))
    return fmt::fail(given.string() + ": no such file");
  if (!looksLikeArchive(given)) {
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
  input.m_captures = folder->path / "captures.json";
  if (!fs::exists(input.m_captures, ec))
    return fmt::fail(given.string() + ": the archive holds no captures.json at its top");
  input.m_extracted = std::move(folder);
  return input;
}

} // namespace clcapture::archive
