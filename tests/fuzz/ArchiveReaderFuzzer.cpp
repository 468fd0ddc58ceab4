// libFuzzer target for the bug-report archive reader (clcapture::archive::extractArchive). Each input is
// written to a file and extracted, under small limits, into an empty folder; then the reader's promise is
// checked on disk: nothing was written outside that folder, everything inside it is a plain file or folder
// (no symlink, fifo or device), and the files stay within the limits. A broken promise aborts, which
// libFuzzer reports as a crash. Built with ASan + UBSan (+ LeakSanitizer through ASan) like the format
// reader's fuzzer.
//
// Archives are gzip streams, so mutating their bytes mostly exercises inflate. A custom mutator therefore
// usually decompresses the input, mutates the tar inside (with the dictionary, archive.dict) and compresses
// it again; one time in four, or when the input is not a whole gzip stream, it mutates the raw bytes instead
// (truncation, plain tar, corrupt gzip). With CLCAPTURE_FUZZ_VERBOSE set, it prints what the reader said
// about each input (to replay a reproducer: archive_reader_fuzzer FILE...).
#include "clcapture/archive/ArchiveReader.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <system_error>
#include <unistd.h>
#include <vector>
#include <zlib.h>

namespace fs = std::filesystem;
using clcapture::archive::ExtractLimits;

extern "C" size_t LLVMFuzzerMutate(std::uint8_t *data, size_t size, size_t maxSize);

namespace {

[[noreturn]] void broken(const std::string &what) {
  std::fprintf(stderr, "archive_reader_fuzzer: the reader's promise is broken: %s\n", what.c_str());
  std::abort();
}

ExtractLimits smallLimits() {
  ExtractLimits limits;
  limits.maxEntryBytes = 1u << 20;
  limits.maxTotalBytes = 4u << 20;
  limits.maxEntries = 256;
  return limits;
}

/// $TMPDIR, else /dev/shm where it can be written (each input creates and deletes files, several times
/// faster in memory than on disk), else /tmp.
std::string temporaryBase() {
  const char *tmp = std::getenv("TMPDIR");
  if (tmp && *tmp)
    return tmp;
  if (::access("/dev/shm", W_OK | X_OK) == 0)
    return "/dev/shm";
  return "/tmp";
}

/// A per-process temporary folder:
///   ROOT/input.tar.gz        the input
///   ROOT/up2/up1/into/       the extraction folder, empty before each input
/// `into` sits three levels down so that an entry escaping it by up to three `..` still lands under ROOT,
/// where the walk after each input sees it.
struct Workspace {
  fs::path root, input, into;
  std::vector<fs::path> scaffolding; // ROOT/up2, ROOT/up2/up1: folders that must stay folders

  Workspace() {
    std::string pattern = temporaryBase() + "/clcapture-archive-fuzz-XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (!::mkdtemp(buffer.data())) {
      std::perror("archive_reader_fuzzer: mkdtemp");
      std::abort();
    }
    root = fs::path(buffer.data());
    input = root / "input.tar.gz";
    scaffolding = {root / "up2", root / "up2" / "up1"};
    into = scaffolding.back() / "into";
    fs::create_directories(into);
  }
  ~Workspace() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
};

Workspace &workspace() {
  static Workspace w;
  return w;
}

bool isUnder(const fs::path &base, const fs::path &p) {
  auto [baseEnd, unused] = std::mismatch(base.begin(), base.end(), p.begin(), p.end());
  (void)unused;
  return baseEnd == base.end();
}

/// Walks ROOT without following links and checks what the extraction left.
void checkPromise(const Workspace &w, const ExtractLimits &limits) {
  std::uint64_t files = 0, total = 0;
  std::error_code ec;
  fs::recursive_directory_iterator it(w.root, fs::directory_options::none, ec), end;
  if (ec)
    broken("cannot walk " + w.root.string() + ": " + ec.message());
  for (; it != end; it.increment(ec)) {
    if (ec)
      broken("cannot walk " + w.root.string() + ": " + ec.message());
    const fs::path &p = it->path();
    fs::file_status status = fs::symlink_status(p, ec);
    if (ec)
      broken("cannot stat " + p.string() + ": " + ec.message());
    if (p == w.input) {
      if (status.type() != fs::file_type::regular)
        broken("the input file was replaced: " + p.string());
      continue;
    }
    if (p == w.into || std::find(w.scaffolding.begin(), w.scaffolding.end(), p) != w.scaffolding.end()) {
      if (status.type() != fs::file_type::directory)
        broken("a folder around the extraction folder was replaced: " + p.string());
      continue;
    }
    if (!isUnder(w.into, p))
      broken("something was written outside the extraction folder: " + p.string());
    if (status.type() == fs::file_type::directory)
      continue;
    if (status.type() != fs::file_type::regular)
      broken("the extraction folder holds something that is not a plain file or folder: " + p.string());
    std::uint64_t size = fs::file_size(p, ec);
    if (ec)
      broken("cannot size " + p.string() + ": " + ec.message());
    if (size > limits.maxEntryBytes)
      broken(p.string() + " holds " + std::to_string(size) + " bytes, more than the entry limit");
    total += size;
    ++files;
  }
  if (total > limits.maxTotalBytes)
    broken("the extracted files hold " + std::to_string(total) + " bytes, more than the total limit");
  if (files > limits.maxEntries)
    broken(std::to_string(files) + " files were extracted, more than the entry limit");
}

// ---- gzip helpers for the custom mutator ----

constexpr size_t kMaxPlain = 64u << 10;

/// Inflates `data` into plain[0, kMaxPlain) when it is one whole gzip stream of at most kMaxPlain bytes;
/// returns the length, or -1.
long gunzip(const std::uint8_t *data, size_t size, std::uint8_t *plain) {
  z_stream zs{};
  if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
    return -1;
  zs.next_in = const_cast<Bytef *>(data);
  zs.avail_in = static_cast<uInt>(size);
  zs.next_out = plain;
  zs.avail_out = static_cast<uInt>(kMaxPlain);
  int r = inflate(&zs, Z_FINISH);
  long length = static_cast<long>(kMaxPlain - zs.avail_out);
  inflateEnd(&zs);
  return r == Z_STREAM_END ? length : -1;
}

/// Deflates plain[0, size) into out[0, maxOut) as a gzip stream; returns the length, or -1 when it does not
/// fit.
long gzip(const std::uint8_t *plain, size_t size, int level, std::uint8_t *out, size_t maxOut) {
  z_stream zs{};
  if (deflateInit2(&zs, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return -1;
  zs.next_in = const_cast<Bytef *>(plain);
  zs.avail_in = static_cast<uInt>(size);
  zs.next_out = out;
  zs.avail_out = static_cast<uInt>(maxOut);
  int r = deflate(&zs, Z_FINISH);
  long length = static_cast<long>(maxOut - zs.avail_out);
  deflateEnd(&zs);
  return r == Z_STREAM_END ? length : -1;
}

} // namespace

extern "C" size_t LLVMFuzzerCustomMutator(std::uint8_t *data, size_t size, size_t maxSize,
                                          unsigned int seed) {
  std::minstd_rand rng(seed);
  static std::vector<std::uint8_t> plain(kMaxPlain), packed; // allocated once, not cleared for each mutation
  long plainSize = rng() % 4 != 0 ? gunzip(data, size, plain.data()) : -1;
  if (plainSize >= 0) {
    size_t mutated = LLVMFuzzerMutate(plain.data(), static_cast<size_t>(plainSize), kMaxPlain);
    if (packed.size() < maxSize)
      packed.resize(maxSize);
    long packedSize = gzip(plain.data(), mutated, static_cast<int>(rng() % 10), packed.data(), maxSize);
    if (packedSize >= 0) {
      std::memcpy(data, packed.data(), static_cast<size_t>(packedSize));
      return static_cast<size_t>(packedSize);
    }
  }
  return LLVMFuzzerMutate(data, size, maxSize);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  static const ExtractLimits limits = smallLimits();
  Workspace &w = workspace();
  {
    std::ofstream out(w.input, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(data), static_cast<std::streamsize>(size));
    if (!out)
      broken("cannot write the input to " + w.input.string());
  }
  bool gzipMagic = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
  if (clcapture::archive::looksLikeArchive(w.input) != gzipMagic)
    broken("looksLikeArchive disagrees with the first two bytes");

  auto result = clcapture::archive::extractArchive(w.input, w.into, limits);
  static const bool verbose = std::getenv("CLCAPTURE_FUZZ_VERBOSE") != nullptr;
  if (verbose)
    std::fprintf(stderr, "extractArchive: %s\n", result.ok() ? "ok" : result.error().c_str());
  if (!result.ok() && result.error().empty())
    broken("extraction failed without a message");
  checkPromise(w, limits);

  std::error_code ec;
  fs::remove_all(w.into, ec);
  if (ec)
    broken("cannot empty the extraction folder: " + ec.message());
  fs::create_directory(w.into, ec);
  if (ec)
    broken("cannot recreate the extraction folder: " + ec.message());
  return 0;
}
