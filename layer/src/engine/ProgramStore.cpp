//===- ProgramStore.cpp - Sources of the program binaries applications cache -===//
//
// An entry is a short text header, then the options' and the source's bytes as they are (sources need not
// be UTF-8, so no JSON):
//
//   clcapture-program-store 1
//   binary <xxh3-128 of the binary> <binary bytes>
//   checksum <xxh3-64 of key, options and source>
//   options <bytes>
//   source <bytes>
//   <empty line>
//   <options bytes><source bytes>
//
//===----------------------------------------------------------------------===//

#include "engine/ProgramStore.h"

#include "clcapture/format/BlobStore.h"
#include "clcapture/format/CacheFolder.h"
#include "process/Log.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace clcapture::layer {

namespace fs = std::filesystem;
namespace fmt = clcapture::format;

namespace {

constexpr const char *kMagic = "clcapture-program-store 1";
constexpr const char *kSuffix = ".prog";
/// A temporary file older than this was left by a process that died between write and rename.
constexpr auto kStaleTemporary = std::chrono::hours(1);

std::string checksumOf(const std::string &key, const StoredProgram &p) {
  std::string all = key + '\n' + p.options + '\0' + p.source;
  return fmt::contentHash64(all.data(), all.size());
}

bool isKey(const std::string &key) {
  return key.size() == 32 && key.find_first_not_of("0123456789abcdef") == std::string::npos;
}

/// "name value" → value, when the line starts with `name `.
std::optional<std::string> field(const std::string &line, const char *name) {
  std::string prefix = std::string(name) + " ";
  if (line.compare(0, prefix.size(), prefix) != 0)
    return std::nullopt;
  return line.substr(prefix.size());
}

constexpr std::uint64_t kNotANumber = UINT64_MAX;

/// A byte count of at most 19 digits; kNotANumber when there is none.
std::uint64_t number(const std::optional<std::string> &text) {
  if (!text || text->empty() || text->size() > 19 ||
      text->find_first_not_of("0123456789") != std::string::npos)
    return kNotANumber;
  return std::stoull(*text);
}

} // namespace

ProgramStore::ProgramStore(std::string folder, std::uint64_t maxBytes)
    : m_folder(std::move(folder)), m_maxBytes(maxBytes) {}

std::string ProgramStore::keyOf(const void *binary, std::size_t size) {
  return fmt::contentHash128(binary, size);
}

bool ProgramStore::put(const std::string &key, std::uint64_t binarySize,
                       const StoredProgram &program) noexcept {
  try {
    if (!isKey(key))
      return false;
    std::error_code ec;
    fs::create_directories(m_folder, ec);
    if (ec) {
      log(LogLevel::Warning, "program store " + m_folder + ": cannot create the folder: " + ec.message());
      return false;
    }
    std::string entry = std::string(kMagic) + "\nbinary " + key + " " + std::to_string(binarySize) +
                        "\nchecksum " + checksumOf(key, program) + "\noptions " +
                        std::to_string(program.options.size()) + "\nsource " +
                        std::to_string(program.source.size()) + "\n\n" + program.options + program.source;
    if (entry.size() > m_maxBytes) {
      log(LogLevel::Info, "program store: the source of binary " + key + " is larger than the store (" +
                              std::to_string(m_maxBytes) + " bytes); not stored");
      return false;
    }
    fs::path path = fs::path(m_folder) / (key + kSuffix);
    if (auto written = fmt::writeFileAtomically(path, entry.data(), entry.size()); !written) {
      log(LogLevel::Warning, "program store: " + written.error());
      return false;
    }
    log(LogLevel::Debug, "program store: stored the source of binary " + key + " in " + path.string());
    evict(key);
    return true;
  } catch (const std::exception &e) {
    log(LogLevel::Warning, std::string("program store: ") + e.what());
  } catch (...) {
  }
  return false;
}

std::optional<StoredProgram> ProgramStore::get(const std::string &key,
                                               std::uint64_t binarySize) const noexcept {
  try {
    if (!isKey(key))
      return std::nullopt;
    fs::path path = fs::path(m_folder) / (key + kSuffix);
    std::error_code ec;
    auto size = fs::file_size(path, ec);
    if (ec)
      return std::nullopt; // not stored (or the folder is unreadable: the same to the application)
    auto ignored = [&](const std::string &why) -> std::optional<StoredProgram> {
      log(LogLevel::Warning, "program store: " + path.string() + ": " + why + "; entry ignored");
      return std::nullopt;
    };
    if (size > m_maxBytes)
      return ignored("larger than the store's bound");
    std::ifstream in(path, std::ios::binary);
    std::string text(static_cast<std::size_t>(size), '\0');
    if (!in.read(text.data(), static_cast<std::streamsize>(text.size())) ||
        in.gcount() != static_cast<std::streamsize>(text.size()))
      return ignored("cannot be read");
    std::istringstream header(text);
    std::string magic, binary, checksum, options, source, blank;
    if (!std::getline(header, magic) || magic != kMagic)
      return ignored("not a program store entry of this version");
    std::getline(header, binary);
    std::getline(header, checksum);
    std::getline(header, options);
    std::getline(header, source);
    if (!std::getline(header, blank) || !blank.empty())
      return ignored("malformed header");
    auto binaryField = field(binary, "binary");
    auto checksumField = field(checksum, "checksum");
    std::uint64_t optionsBytes = number(field(options, "options"));
    std::uint64_t sourceBytes = number(field(source, "source"));
    if (!binaryField || !checksumField || optionsBytes == kNotANumber || sourceBytes == kNotANumber)
      return ignored("malformed header");
    if (*binaryField != key + " " + std::to_string(binarySize))
      return ignored("made for another binary (" + *binaryField + ")");
    std::streamoff at = header.tellg();
    if (at < 0 || optionsBytes > text.size() || sourceBytes > text.size() ||
        static_cast<std::uint64_t>(at) + optionsBytes + sourceBytes != text.size())
      return ignored("truncated or too long");
    auto body = static_cast<std::size_t>(at);
    StoredProgram p;
    p.options = text.substr(body, static_cast<std::size_t>(optionsBytes));
    p.source = text.substr(body + static_cast<std::size_t>(optionsBytes));
    if (*checksumField != checksumOf(key, p))
      return ignored("checksum mismatch");
    // Recently used: evicted last.
    fs::last_write_time(path, fs::file_time_type::clock::now(), ec);
    return p;
  } catch (const std::exception &e) {
    log(LogLevel::Warning, std::string("program store: ") + e.what());
  } catch (...) {
  }
  return std::nullopt;
}

void ProgramStore::evict(const std::string &keep) const {
  fmt::CachePruning how;
  how.maxBytes = m_maxBytes;
  how.targetBytes = m_maxBytes;
  how.suffix = kSuffix;
  how.keep = keep + kSuffix;
  how.staleTemporaries = std::chrono::duration_cast<std::chrono::seconds>(kStaleTemporary);
  fmt::PruneOutcome pruned = fmt::pruneCacheFolder(m_folder, how);
  if (!pruned.overBound)
    return;
  log(LogLevel::Info, "program store " + m_folder + ": removed the " + std::to_string(pruned.removed) +
                          " least recently used entr" + (pruned.removed == 1 ? "y" : "ies") +
                          " to stay within " + std::to_string(m_maxBytes) + " bytes");
}

} // namespace clcapture::layer
