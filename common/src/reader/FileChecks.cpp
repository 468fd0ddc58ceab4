//===- FileChecks.cpp - The files a capture names: inside, present, the right size -===//

#include "FileChecks.h"

#include "DiagnosticText.h"
#include "clcapture/format/CaptureBlobs.h"
#include "clcapture/format/CapturePath.h"

#include <system_error>

namespace clcapture::format::reader {

namespace fs = std::filesystem;

namespace {

/// Asks the file system about `relative`: a loose file inside the folder, else a blob of one of its packs.
void askFileSystem(const std::string &relative, const fs::path &baseDir, FileFacts &facts) {
  std::error_code ec;
  if (fs::symlink_status(baseDir / relative, ec).type() == fs::file_type::not_found) {
    // Not a loose file: a blob from one of the folder's packs (CaptureBlobs.h), whose pack must lie inside.
    CaptureBlobs &blobs = CaptureBlobs::of(baseDir);
    auto where = blobs.packed(relative);
    if (!where)
      facts.problem = "file " + inQuotes(relative) + " does not exist in " + baseDir.string() +
                      (relative.rfind("data/", 0) == 0 ? " (neither as a file nor in a pack of data/)" : "");
    else if (auto problem = blobs.packProblem(*where))
      facts.problem = *problem;
    else
      facts.size = where->blob.size;
  } else {
    facts.problem = containedFileProblem(baseDir, relative);
    auto size = fs::file_size(baseDir / relative, ec);
    if (!facts.problem && !ec)
      facts.size = size;
  }
}

} // namespace

void validateFile(const std::string &relative, const std::string &path, const fs::path *baseDir, Reporter &r,
                  FileChecks *checks, std::optional<std::uint64_t> expectedSize) {
  if (auto problem = lexicalPathProblem(relative)) {
    r.error(path, *problem);
    return;
  }
  if (!baseDir || !r.options().checkFiles)
    return;
  FileFacts asked;
  FileFacts *facts = &asked;
  bool ask = true;
  if (checks) {
    auto [it, inserted] = checks->try_emplace(relative);
    facts = &it->second;
    ask = inserted;
  }
  if (ask)
    askFileSystem(relative, *baseDir, *facts);
  if (facts->problem) {
    r.error(path, *facts->problem);
    return;
  }
  if (expectedSize && facts->size && *facts->size != *expectedSize)
    r.error(path, "file " + inQuotes(relative) + " holds " + std::to_string(*facts->size) +
                      " bytes but size is " + std::to_string(*expectedSize));
}

} // namespace clcapture::format::reader
