//===- JsonArrayFile.cpp - A JSON file that grows by appending array elements -===//

#include "clcapture/format/JsonArrayFile.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#include <vector>

namespace clcapture::format {

namespace fs = std::filesystem;

namespace {

Status pwriteAll(int fd, std::string_view bytes, std::uint64_t offset) {
  while (!bytes.empty()) {
    ssize_t n = ::pwrite(fd, bytes.data(), bytes.size(), static_cast<off_t>(offset));
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return fail(std::strerror(errno));
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
    offset += static_cast<std::uint64_t>(n);
  }
  return {};
}

} // namespace

Expected<std::unique_ptr<JsonArrayFile>> JsonArrayFile::create(const fs::path &path, std::string head,
                                                               std::string tail) {
  return createWith(path, std::move(head), std::move(tail), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, nullptr);
}

Expected<std::unique_ptr<JsonArrayFile>> JsonArrayFile::createNew(const fs::path &path, std::string head,
                                                                  std::string tail, bool &existed) {
  existed = false;
  return createWith(path, std::move(head), std::move(tail), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, &existed);
}

Expected<std::unique_ptr<JsonArrayFile>> JsonArrayFile::createWith(const fs::path &path, std::string head,
                                                                   std::string tail, int flags,
                                                                   bool *existed) {
  int fd = ::open(path.c_str(), flags, 0644);
  if (fd < 0 && existed && errno == EEXIST) {
    *existed = true;
    return std::unique_ptr<JsonArrayFile>();
  }
  if (fd < 0)
    return fail("cannot create " + path.string() + ": " + std::strerror(errno));
  Status s = pwriteAll(fd, head + tail, 0);
  if (!s) {
    ::close(fd);
    return fail("cannot write " + path.string() + ": " + s.error());
  }
  return std::unique_ptr<JsonArrayFile>(new JsonArrayFile(fd, std::move(tail), head.size()));
}

JsonArrayFile::JsonArrayFile(int fd, std::string tail, std::uint64_t end)
    : m_fd(fd), m_tail(std::move(tail)), m_endOfElements(end) {}

JsonArrayFile::~JsonArrayFile() {
  if (m_fd >= 0)
    ::close(m_fd);
}

Status JsonArrayFile::append(std::string_view element) {
  // One write: separator, element, then the tail again. Killed midway, the file is merely cut short.
  std::string bytes;
  bytes.reserve(element.size() + m_tail.size() + 3);
  if (m_count > 0)
    bytes += ",\n";
  std::size_t elementEnd = bytes.size() + element.size();
  bytes += element;
  bytes += '\n';
  bytes += m_tail;
  Status s = pwriteAll(m_fd, bytes, m_endOfElements);
  if (!s)
    return s;
  m_endOfElements += elementEnd;
  ++m_count;
  return {};
}

std::optional<RecoveredJson> recoverTruncatedJson(std::string_view text, int recordDepth) {
  // A lexical scan: strings and escapes are skipped, brackets are tracked. Whenever a container closes and
  // the depth drops back to `recordDepth`, a record is complete; remember where and which brackets are open.
  std::vector<char> stack;
  bool inString = false, escaped = false;
  std::size_t lastRecordEnd = 0, records = 0;
  std::vector<char> stackAtLastRecord;
  bool sawRecordContainer = false;
  std::size_t containerStart = 0; // end of the text that opens the record container (for zero records)
  std::vector<char> stackAtContainer;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        inString = false;
      continue;
    }
    switch (c) {
    case '"':
      inString = true;
      break;
    case '{':
    case '[':
      stack.push_back(c);
      if (static_cast<int>(stack.size()) == recordDepth && c == '[' && !sawRecordContainer) {
        sawRecordContainer = true;
        containerStart = i + 1;
        stackAtContainer = stack;
      }
      break;
    case '}':
    case ']':
      if (stack.empty() || (c == '}') != (stack.back() == '{'))
        return std::nullopt; // mismatched: not a truncated file but a malformed one
      stack.pop_back();
      if (static_cast<int>(stack.size()) == recordDepth) {
        lastRecordEnd = i + 1;
        ++records;
        stackAtLastRecord = stack;
      }
      break;
    default:
      break;
    }
  }
  if (stack.empty() && !inString)
    return std::nullopt; // complete: whatever is wrong with it is not truncation

  RecoveredJson out;
  out.cutOffset = text.size();
  std::vector<char> *open = nullptr;
  if (records > 0) {
    out.text = std::string(text.substr(0, lastRecordEnd));
    open = &stackAtLastRecord;
  } else if (sawRecordContainer) {
    out.text = std::string(text.substr(0, containerStart));
    open = &stackAtContainer;
  } else {
    return std::nullopt;
  }
  out.records = records;
  for (auto it = open->rbegin(); it != open->rend(); ++it)
    out.text += *it == '{' ? '}' : ']';
  out.text += '\n';
  return out;
}

} // namespace clcapture::format
