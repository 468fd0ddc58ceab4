//===- PackMain.cpp - clcapture pack: a capture folder as one bug-report archive -===//
//
// docs/contract.md §1: clcapture pack DIR [-o FILE] [--only I,J…] [--data all|none|BYTES] [--report]
// [--redact-paths]. One byte-stable .tar.gz (ArchiveWriter.h) with relative paths: captures.json and its
// sidecar for the selected instantiations, their kernels and data, environment.json, README.md, and with
// --report the verifier's report in text, JSON and SARIF (clcapture-verify run on the archive itself; its
// timings are the only bytes that differ between two packs with --report), and each --recording (a device
// recording clcapture-debug --save-trace wrote) under recordings/. Exit codes as clcapture-verify's:
// 1 for the command line, 10 for an invalid capture.
//
//===----------------------------------------------------------------------===//

#include "PackEnvironment.h"
#include "PackSelection.h"
#include "clcapture/archive/ArchiveReader.h"
#include "clcapture/archive/ArchiveWriter.h"
#include "clcapture/cli/CommandLine.h"
#include "clcapture/cli/ToolProgram.h"
#include "clcapture/format/ByteCount.h"
#include "clcapture/format/CaptureParts.h"
#include "clcapture/format/CaptureReader.h"
#include "clcapture/format/CaptureWriter.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
namespace fmt = clcapture::format;
using namespace clcapture;

namespace {

constexpr int kCommandLine = 1;
constexpr int kInvalidCapture = 10;

/// clcapture-verify beside this program, else on PATH (execlp looks there again when neither has it).
std::string verifyProgram() {
  return clcapture::cli::findToolProgram("clcapture-verify").value_or("clcapture-verify").string();
}

/// Runs clcapture-verify on `archiveName` in `folder`, so that the report names the archive as given.
std::optional<std::string> runVerify(const fs::path &folder, const std::string &archiveName,
                                     const std::string &format) {
  std::string out = (folder / ("report." + format)).string();
  pid_t pid = ::fork();
  if (pid == 0) {
    if (::chdir(folder.c_str()) != 0)
      ::_exit(127);
    std::string verify = verifyProgram(), f = "--format=" + format, o = "--output=" + out;
    execlp(verify.c_str(), verify.c_str(), f.c_str(), o.c_str(), archiveName.c_str(),
           static_cast<char *>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  // 0 verified, 6 defects/unknown, 7 timeout, 2 a kernel did not compile: all are reports.
  if (!WIFEXITED(status) || WEXITSTATUS(status) == 127 || WEXITSTATUS(status) == 1 ||
      WEXITSTATUS(status) == 10)
    return std::nullopt;
  std::ifstream in(out);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

} // namespace

/// What the archive holds of the capture's parts: each packed as itself, under its own name.
struct PackedParts {
  std::vector<archive::ArchiveEntry> entries;
  std::optional<pack::PackedCapture> first; ///< the first part packed: the environment and README describe it
  std::size_t instantiations = 0, dataLeftOut = 0, parts = 0; ///< parts: those packed
  bool manyParts = false;                                     ///< the capture has more than one part
};

/// Packs every part of `given` (a folder; else the captures file `captures`) under `policy`; null with
/// `exitCode` set, after a message, on an invalid capture or an --only index it does not have.
std::optional<PackedParts> packParts(const fs::path &given, const fs::path &captures, const fs::path &folder,
                                     const pack::PackPolicy &policy, int &exitCode) {
  std::error_code ec;
  // A folder many processes wrote (docs/contract.md §3): each part packed as itself, under its own name,
  // their kernels and data stored once; --only counts across the parts, as the tools do.
  std::vector<fs::path> parts =
      fs::is_directory(given, ec) ? fmt::capturePartsOf(given) : std::vector<fs::path>{};
  if (parts.empty())
    parts.push_back(captures);
  PackedParts out;
  std::vector<archive::ArchiveEntry> &entries = out.entries;
  std::set<std::string> stored;
  std::set<std::uint64_t> packedPids;
  std::optional<pack::PackedCapture> &first = out.first;
  std::size_t &instantiations = out.instantiations, &dataLeftOut = out.dataLeftOut, firstIndex = 0;
  for (const fs::path &part : parts) {
    fmt::Capture capture = fmt::loadCapture(part);
    if (capture.hasErrors()) {
      for (const auto &d : capture.diagnostics)
        std::fprintf(stderr, "%s\n", d.str().c_str());
      std::fprintf(stderr, "clcapture pack: %s is not a valid capture; nothing written\n", part.c_str());
      exitCode = kInvalidCapture;
      return std::nullopt;
    }
    pack::PackPolicy partPolicy = policy;
    bool wholePart = capture.sidecar && std::count(policy.onlyProcesses.begin(), policy.onlyProcesses.end(),
                                                   capture.sidecar->header.process.pid) > 0;
    if (wholePart) {
      partPolicy.only.reset();
      packedPids.insert(capture.sidecar->header.process.pid);
    } else if (policy.only && parts.size() > 1) {
      partPolicy.only.emplace();
      for (std::size_t index : *policy.only)
        if (index >= firstIndex && index < firstIndex + capture.captures.recordCount)
          partPolicy.only->push_back(index - firstIndex);
    }
    firstIndex += capture.captures.recordCount;
    if (parts.size() > 1 && partPolicy.only && partPolicy.only->empty())
      continue;
    auto packed = pack::selectForPack(capture, folder, partPolicy);
    if (!packed.ok()) {
      std::fprintf(stderr, "clcapture pack: %s\n", packed.error().c_str());
      exitCode = kCommandLine;
      return std::nullopt;
    }
    for (archive::ArchiveEntry &file : packed.value().files)
      if (stored.insert(file.path).second)
        entries.push_back(std::move(file));
    std::string name = parts.size() > 1 ? part.filename().string() : "captures.json";
    entries.push_back({name, fmt::serializeCaptures(packed.value().instantiations), {}});
    entries.push_back(
        {fmt::sidecarPathFor(name).string(), fmt::serializeSidecar(packed.value().sidecar), {}});
    instantiations += packed.value().instantiations.size();
    ++out.parts;
    dataLeftOut += packed.value().dataLeftOut;
    if (!first)
      first = std::move(packed.value());
  }
  if (policy.only && parts.size() > 1)
    for (std::size_t index : *policy.only)
      if (index >= firstIndex) {
        std::fprintf(stderr,
                     "clcapture pack: --only: no instantiation %zu in %s (it has %zu, numbered 0 to %zu)\n",
                     index, given.c_str(), firstIndex, firstIndex - 1);
        exitCode = kCommandLine;
        return std::nullopt;
      }
  for (std::uint64_t pid : policy.onlyProcesses)
    if (!packedPids.count(pid)) {
      std::fprintf(stderr, "clcapture pack: --only: no process %llu wrote a part of %s\n",
                   static_cast<unsigned long long>(pid), given.c_str());
      exitCode = kCommandLine;
      return std::nullopt;
    }
  if (!first) {
    std::fprintf(stderr, "clcapture pack: --only selects no instantiation of %s\n", given.c_str());
    exitCode = kCommandLine;
    return std::nullopt;
  }
  if (parts.size() > 1)
    for (std::string_view file : {fmt::kManifestFile, fmt::kRunMarkerFile})
      if (fs::exists(folder / file, ec))
        entries.push_back({std::string(file), {}, folder / file});
  out.manyParts = parts.size() > 1;
  return out;
}

/// Why FILE is not a recording clcapture-debug wrote (its JSON "format"), or nullopt.
std::optional<std::string> recordingProblem(const std::string &file) {
  std::ifstream in(file, std::ios::binary);
  if (!in)
    return std::string("cannot read it");
  // The format field comes first in the file; a recording can be large, so only its start is read.
  std::string start(4096, '\0');
  in.read(start.data(), static_cast<std::streamsize>(start.size()));
  start.resize(static_cast<std::size_t>(in.gcount()));
  if (start.find("\"clcapture-recording/1\"") == std::string::npos)
    return std::string("not a recording (clcapture-debug --save-trace writes one)");
  return std::nullopt;
}

int main(int argc, char **argv) {
  CLI::App app{"Packs a capture folder into one archive for a bug report (clcapture pack).\n"
               "usage: clcapture pack DIR [-o FILE] [--only I,J...] [--data all|none|BYTES] [--report] "
               "[--redact-paths]"};
  std::string dir, output, data = "all";
  std::vector<std::string> only;
  bool report = false, redact = false;
  app.add_option("DIR", dir, "the capture folder (or its captures.json)")->required();
  app.add_option("-o,--output", output, "the archive to write (default DIR.tar.gz beside DIR)");
  app.add_option(
         "--only", only,
         "instantiation indices to pack, e.g. 0,3,7 (renumbered from 0); pid=N: every launch of process N")
      ->delimiter(',');
  app.add_option("--data", data, "buffer bytes: all, none, or a per-buffer cap such as 1M");
  app.add_flag("--report", report, "add clcapture-verify's report (text, JSON, SARIF) under report/");
  app.add_flag("--redact-paths", redact,
               "cut host paths (call sites, executable, command line) to base names");
  std::vector<std::string> recordings;
  app.add_option("--recording", recordings,
                 "add a device recording (clcapture-debug --save-trace FILE) under recordings/")
      ->type_name("FILE");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    return app.exit(e) == 0 ? 0 : kCommandLine;
  }
  pack::PackPolicy policy;
  policy.redactPaths = redact;
  if (data == "none")
    policy.data = false;
  else if (data != "all") {
    auto cap = fmt::parseByteCount(data);
    if (!cap) {
      std::fprintf(stderr, "clcapture pack: --data %s: expected all, none or a byte count (e.g. 1M)\n",
                   data.c_str());
      return kCommandLine;
    }
    policy.dataCap = *cap;
  }
  if (!only.empty()) {
    auto indices = cli::parseIndices(only, "clcapture pack", "--only", std::cerr, &policy.onlyProcesses);
    if (!indices)
      return kCommandLine;
    policy.only = std::move(*indices);
  }
  fs::path given(dir);
  std::error_code ec;
  fs::path captures = fs::is_directory(given, ec) ? given / "captures.json" : given;
  fs::path folder = fs::absolute(captures, ec).parent_path();
  fs::path archivePath = output.empty() ? fs::path(folder.string() + ".tar.gz") : fs::path(output);
  if (fs::exists(archivePath, ec) && fs::is_directory(archivePath, ec)) {
    std::fprintf(stderr, "clcapture pack: %s is a folder\n", archivePath.c_str());
    return kCommandLine;
  }
  if (fs::equivalent(archivePath, captures, ec)) {
    std::fprintf(stderr, "clcapture pack: refusing to overwrite the input %s\n", archivePath.c_str());
    return kCommandLine;
  }
  // Overwrite an earlier pack, never another file (a sidecar, a data blob, a user's file mistyped after -o).
  if (fs::exists(archivePath, ec) && !archive::looksLikeArchive(archivePath)) {
    std::fprintf(stderr, "clcapture pack: refusing to overwrite %s: it exists and is not a .tar.gz archive\n",
                 archivePath.c_str());
    return kCommandLine;
  }

  int failure = 0;
  std::optional<PackedParts> packed = packParts(given, captures, folder, policy, failure);
  if (!packed)
    return failure;
  std::vector<archive::ArchiveEntry> entries = std::move(packed->entries);
  const pack::PackedCapture *first = &*packed->first;
  std::size_t instantiations = packed->instantiations, dataLeftOut = packed->dataLeftOut;
  const std::size_t partCount = packed->parts;
  entries.push_back({"environment.json", pack::environmentJson(*first), {}});
  std::string archiveName = archivePath.filename().string();
  std::vector<std::string> recordingNames;
  for (const std::string &r : recordings) {
    if (auto why = recordingProblem(r)) {
      std::fprintf(stderr, "clcapture pack: --recording %s: %s\n", r.c_str(), why->c_str());
      return kCommandLine;
    }
    std::string name = "recordings/" + fs::path(r).filename().string();
    if (std::find(recordingNames.begin(), recordingNames.end(), name) != recordingNames.end()) {
      std::fprintf(stderr, "clcapture pack: --recording %s: two recordings named %s\n", r.c_str(),
                   name.c_str());
      return kCommandLine;
    }
    recordingNames.push_back(name);
    entries.push_back({name, {}, fs::path(r)});
  }
  entries.push_back({"README.md", pack::maintainerReadme(*first, archiveName, report, recordingNames), {}});

  if (report) {
    // The verifier reads the archive itself, under the archive's own name, so its report names no
    // temporary path.
    const char *tmp = std::getenv("TMPDIR");
    std::string pattern = (fs::path(tmp && *tmp ? tmp : "/tmp") / "clcapture-pack-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) {
      std::fprintf(stderr, "clcapture pack: cannot make a temporary folder in %s\n",
                   fs::path(pattern).parent_path().c_str());
      return kCommandLine;
    }
    fs::path work(pattern);
    if (auto s = archive::writeArchive(work / archiveName, entries); !s.ok()) {
      std::fprintf(stderr, "clcapture pack: %s\n", s.error().c_str());
      fs::remove_all(work, ec);
      return kCommandLine;
    }
    for (const char *format : {"txt", "json", "sarif"}) {
      auto text = runVerify(work, archiveName, std::string(format) == "txt" ? "text" : format);
      if (!text) {
        std::fprintf(stderr, "clcapture pack: clcapture-verify failed on the packed capture (--format=%s)\n",
                     format);
        fs::remove_all(work, ec);
        return kCommandLine;
      }
      entries.push_back({std::string("report/report.") + format, *text, {}});
    }
    fs::remove_all(work, ec);
  }
  if (auto s = archive::writeArchive(archivePath, entries); !s.ok()) {
    std::fprintf(stderr, "clcapture pack: %s\n", s.error().c_str());
    return kCommandLine;
  }
  std::string processes =
      packed->manyParts ? " from " + std::to_string(partCount) + (partCount == 1 ? " process" : " processes")
                        : "";
  std::printf("clcapture pack: %zu instantiation(s)%s, %zu file(s) in %s%s\n", instantiations,
              processes.c_str(), entries.size(), archivePath.c_str(),
              dataLeftOut ? (" (" + std::to_string(dataLeftOut) + " buffer(s) without bytes)").c_str() : "");
  return 0;
}
