//===- Unpack.cpp - clcapture unpack: packed blobs back to loose files ---===//

#include "Unpack.h"

#include "clcapture/format/CaptureBlobs.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

namespace clcapture::launcher {

namespace fs = std::filesystem;

int runUnpack(int argc, char **argv) {
  const char *usage = "usage: clcapture unpack DIR   (DIR: a capture folder, or its captures.json)\n";
  if (argc == 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
    std::printf(
        "Writes every blob packed in DIR/data/*.pack out as its DIR/data/<hash>.bin file, then removes\n"
        "the packs, so that GPUVerify's loader finds every file captures.json names.\n%s",
        usage);
    return 0;
  }
  if (argc != 2) {
    std::fprintf(stderr, "clcapture unpack: expected one capture folder\n%s", usage);
    return 1;
  }
  fs::path folder = argv[1];
  std::error_code ec;
  if (fs::is_regular_file(folder, ec))
    folder = folder.parent_path().empty() ? fs::path(".") : folder.parent_path();
  if (!fs::is_regular_file(folder / "captures.json", ec)) {
    std::fprintf(stderr, "clcapture unpack: %s: not a capture folder (no captures.json)\n", folder.c_str());
    return 1;
  }
  std::size_t packs = format::CaptureBlobs::of(folder).packFiles().size();
  auto written = format::unpackBlobs(folder);
  if (!written) {
    std::fprintf(stderr, "clcapture unpack: %s\n", written.error().c_str());
    return 1;
  }
  std::printf("clcapture: %llu blob%s unpacked, %zu pack%s removed in %s\n",
              static_cast<unsigned long long>(*written), *written == 1 ? "" : "s", packs,
              packs == 1 ? "" : "s", folder.c_str());
  return 0;
}

} // namespace clcapture::launcher
