//===- ReadWholeFile.cpp - A capture file's text, or why it cannot be read -===//

#include "ReadWholeFile.h"

#include <fstream>
#include <sstream>
#include <system_error>

namespace clcapture::format::reader {

namespace fs = std::filesystem;

std::optional<std::string> readWholeFile(const fs::path &path, std::string &error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::error_code ec;
    error = fs::exists(path, ec) ? "cannot read the file" : "file does not exist";
    return std::nullopt;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

} // namespace clcapture::format::reader
