//===- CaptureBlobs.cpp - The files a capture names, loose or packed -----===//

#include "clcapture/format/CaptureBlobs.h"

#include "clcapture/format/BlobStore.h"
#include "clcapture/format/CapturePath.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace clcapture::format {

namespace fs = std::filesystem;

namespace {

/// Whether `relative` has the shape of a packed blob's name: data/<32 lower-case hex digits>.bin.
bool isDataBlobName(std::string_view relative) {
  constexpr std::string_view prefix = "data/", suffix = ".bin";
  if (relative.size() != prefix.size() + 32 + suffix.size() || relative.substr(0, prefix.size()) != prefix ||
      relative.substr(relative.size() - suffix.size()) != suffix)
    return false;
  std::string_view hex = relative.substr(prefix.size(), 32);
  return std::all_of(hex.begin(), hex.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

std::optional<std::uint64_t> looseSize(const fs::path &path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    return std::nullopt;
  return static_cast<std::uint64_t>(st.st_size);
}

/// One read into a buffer of the file's size: data files run to hundreds of MB.
Expected<std::string> readLoose(const fs::path &path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0) {
    std::string message = "cannot read " + path.string() + ": " + std::strerror(errno);
    if (fd >= 0)
      ::close(fd);
    return fail(message);
  }
  std::string bytes(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t done = 0;
  for (;;) {
    if (done == bytes.size())
      bytes.resize(bytes.size() + 4096); // the file grew since fstat
    ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      std::string message = "cannot read " + path.string() + ": " + std::strerror(errno);
      ::close(fd);
      return fail(message);
    }
    if (n == 0)
      break;
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  bytes.resize(done);
  return bytes;
}

/// FOLDER and "data/<hash>.bin" for a full path FOLDER/data/<hash>.bin; nullopt for any other path.
std::optional<std::pair<fs::path, std::string>> splitBlobPath(const fs::path &path) {
  fs::path data = path.parent_path();
  if (data.filename() != "data")
    return std::nullopt;
  std::string relative = "data/" + path.filename().string();
  if (!isDataBlobName(relative))
    return std::nullopt;
  fs::path folder = data.parent_path();
  return std::make_pair(folder.empty() ? fs::path(".") : folder, relative);
}

} // namespace

CaptureBlobs &CaptureBlobs::of(const fs::path &folder) {
  static std::mutex mutex;
  static auto *all = new std::map<std::string, std::unique_ptr<CaptureBlobs>>(); // never destroyed
  std::error_code ec;
  fs::path key = fs::absolute(folder, ec).lexically_normal();
  if (ec)
    key = folder;
  std::string text = key.string();
  while (text.size() > 1 && text.back() == '/')
    text.pop_back();
  std::lock_guard<std::mutex> lock(mutex);
  auto &slot = (*all)[text];
  if (!slot)
    slot = std::make_unique<CaptureBlobs>(fs::path(text));
  return *slot;
}

CaptureBlobs::CaptureBlobs(fs::path folder) : m_folder(std::move(folder)) {}

void CaptureBlobs::refreshLocked() {
  // The folder's listing changes (a pack created or removed) only with data/'s modification time, and a pack
  // grows only by appends: when neither moved, nothing is listed or scanned again (a capture with many
  // missing blobs asks once per blob). File times are coarse (a clock tick): a listing made within a second
  // of data/'s last change may have missed a pack created in the same tick, so it is not trusted.
  struct stat dir {};
  bool dirKnown = ::stat((m_folder / "data").c_str(), &dir) == 0;
  std::pair<std::int64_t, std::int64_t> dirTime{dirKnown ? dir.st_mtim.tv_sec : -1,
                                                dirKnown ? dir.st_mtim.tv_nsec : -1};
  if (m_scanned && m_listingSettled && dirTime == m_dataDirTime) {
    bool grown = false;
    for (const auto &[pack, state] : m_packs)
      grown = grown || looseSize(pack) != state.size;
    if (!grown)
      return;
  }
  m_dataDirTime = dirTime;
  m_listingSettled = dirKnown && std::time(nullptr) > dir.st_mtim.tv_sec + 1;
  std::map<fs::path, PackState> now;
  std::error_code ec;
  for (fs::directory_iterator it(m_folder / "data", ec), end; !ec && it != end; it.increment(ec)) {
    if (!isPackFileName(it->path().filename().string()))
      continue;
    if (auto size = looseSize(it->path()))
      now[it->path()].size = *size;
  }
  bool same = m_scanned && now.size() == m_packs.size() &&
              std::equal(now.begin(), now.end(), m_packs.begin(), [](const auto &a, const auto &b) {
                return a.first == b.first && a.second.size == b.second.size;
              });
  if (same)
    return;
  m_scanned = true;
  m_packs = std::move(now);
  m_packList.clear();
  m_index.clear();
  m_warnings.clear();
  for (const auto &[pack, state] : m_packs) {
    auto number = static_cast<std::uint32_t>(m_packList.size());
    m_packList.push_back(pack);
    auto scan = scanBlobPackFile(pack);
    if (!scan) {
      m_warnings.emplace_back(pack, scan.error());
      continue;
    }
    for (std::string &w : scan->warnings)
      m_warnings.emplace_back(pack, std::move(w));
    for (const PackedBlob &blob : scan->blobs) {
      Key key{};
      if (parseHash128(blob.hash, key.high, key.low))
        m_index.emplace(key, Entry{number, blob.offset, blob.size}); // the first record of a hash wins
    }
  }
}

std::optional<CaptureBlobs::Location> CaptureBlobs::findPackedLocked(std::string_view relative) {
  Key key{};
  if (!isDataBlobName(relative) || !parseHash128(relative.substr(5, 32), key.high, key.low))
    return std::nullopt;
  if (!m_scanned)
    refreshLocked();
  auto it = m_index.find(key);
  if (it == m_index.end()) {
    refreshLocked(); // a capture still being written may have appended it since
    it = m_index.find(key);
    if (it == m_index.end())
      return std::nullopt;
  }
  return Location{m_packList[it->second.pack],
                  PackedBlob{std::string(relative.substr(5, 32)), it->second.offset, it->second.size}};
}

std::optional<std::uint64_t> CaptureBlobs::size(std::string_view relative) {
  if (auto loose = looseSize(m_folder / std::string(relative)))
    return loose;
  std::lock_guard<std::mutex> lock(m_mutex);
  if (auto where = findPackedLocked(relative))
    return where->blob.size;
  return std::nullopt;
}

Expected<std::string> CaptureBlobs::read(std::string_view relative) {
  fs::path loose = m_folder / std::string(relative);
  if (looseSize(loose))
    return readLoose(loose);
  std::optional<Location> where;
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    where = findPackedLocked(relative);
  }
  if (!where)
    return fail(loose.string() + ": file does not exist" +
                (isDataBlobName(relative)
                     ? " (neither loose nor in a pack of " + (m_folder / "data").string() + ")"
                     : std::string()));
  return readPackedBlob(where->pack, where->blob);
}

std::optional<CaptureBlobs::Location> CaptureBlobs::packed(std::string_view relative) {
  std::lock_guard<std::mutex> lock(m_mutex);
  return findPackedLocked(relative);
}

std::optional<std::string> CaptureBlobs::packProblem(const Location &where) {
  std::lock_guard<std::mutex> lock(m_mutex);
  auto it = m_packProblems.find(where.pack);
  if (it == m_packProblems.end())
    it = m_packProblems
             .emplace(where.pack, containedFileProblem(m_folder, "data/" + where.pack.filename().string()))
             .first;
  return it->second;
}

std::vector<std::pair<std::string, CaptureBlobs::Location>> CaptureBlobs::packedBlobs() {
  std::lock_guard<std::mutex> lock(m_mutex);
  refreshLocked();
  std::vector<std::pair<std::string, Location>> all;
  all.reserve(m_index.size());
  char hex[33];
  for (const auto &[key, entry] : m_index) {
    std::snprintf(hex, sizeof hex, "%016llx%016llx", static_cast<unsigned long long>(key.high),
                  static_cast<unsigned long long>(key.low));
    all.emplace_back(dataBlobNameForHash(hex),
                     Location{m_packList[entry.pack], PackedBlob{hex, entry.offset, entry.size}});
  }
  std::sort(all.begin(), all.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
  return all;
}

std::vector<fs::path> CaptureBlobs::packFiles() {
  std::lock_guard<std::mutex> lock(m_mutex);
  refreshLocked();
  std::vector<fs::path> packs;
  for (const auto &entry : m_packs)
    packs.push_back(entry.first);
  return packs;
}

std::vector<std::pair<fs::path, std::string>> CaptureBlobs::warnings() {
  std::lock_guard<std::mutex> lock(m_mutex);
  refreshLocked();
  return m_warnings;
}

Expected<std::string> readCaptureFile(const fs::path &path) {
  if (looseSize(path))
    return readLoose(path);
  if (auto split = splitBlobPath(path))
    return CaptureBlobs::of(split->first).read(split->second);
  return fail(path.string() + ": file does not exist");
}

std::optional<std::uint64_t> captureFileSize(const fs::path &path) {
  if (auto loose = looseSize(path))
    return loose;
  if (auto split = splitBlobPath(path))
    return CaptureBlobs::of(split->first).size(split->second);
  return std::nullopt;
}

Expected<std::uint64_t> unpackBlobs(const fs::path &folder) {
  std::error_code ec;
  if (!fs::is_directory(folder / "data", ec))
    return fail(folder.string() + ": not a capture folder (no data/ folder)");
  CaptureBlobs &blobs = CaptureBlobs::of(folder);
  std::uint64_t written = 0;
  for (const auto &[name, where] : blobs.packedBlobs()) {
    fs::path loose = folder / name;
    if (auto size = looseSize(loose); size && *size == where.blob.size)
      continue; // already loose (a blob stored both ways, or an unpack that stopped half-way)
    auto bytes = readPackedBlob(where.pack, where.blob);
    if (!bytes)
      return fail(bytes.error());
    if (Status s = writeFileAtomically(loose, bytes->data(), bytes->size()); !s)
      return fail(s.error());
    ++written;
  }
  // Only once every blob is loose: an unpack that fails half-way leaves both forms, never neither.
  for (const fs::path &pack : blobs.packFiles())
    if (!fs::remove(pack, ec) && ec)
      return fail("cannot remove " + pack.string() + ": " + ec.message());
  return written;
}

} // namespace clcapture::format
