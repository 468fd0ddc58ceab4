//===- CaptureSummary.cpp - What the launcher says after the command -===//

#include "CaptureSummary.h"

#include "clcapture/format/CaptureParts.h"
#include "clcapture/format/CaptureReader.h"
#include "clcapture/format/SidecarRepeats.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <set>
#include <vector>

namespace fs = std::filesystem;
namespace fmt = clcapture::format;

namespace clcapture::launcher {

namespace {

std::string plural(std::size_t n, const char *one, const char *many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

/// "a, b, c and 2 more"
std::string listed(const std::set<std::string> &names, std::size_t most = 4) {
  std::string out;
  std::size_t shown = 0;
  for (const auto &name : names) {
    if (shown == most) {
      out += " and " + std::to_string(names.size() - most) + " more";
      break;
    }
    out += (shown ? ", " : "") + name;
    ++shown;
  }
  return out;
}

/// How to get what a not-captured launch lacks, by its reason (CaptureEngine.cpp writes them).
std::string notCapturedFix(const std::string &reason) {
  if (reason.find("cache") != std::string::npos)
    return {}; // the reason already says how (the program store's wording)
  if (reason.find("from a binary") != std::string::npos)
    return "to capture their source, clear the application's program cache (e.g. hashcat: ~/.cache/hashcat, "
           "PyOpenCL: ~/.cache/pyopencl) and run it once more under clcapture, so that it builds them from "
           "source";
  if (reason.find("from IL") != std::string::npos)
    return "clcapture verifies OpenCL C source only: build the program from source if the application can";
  return {};
}

/// How to get the bytes of arguments left without them, by the sidecar's data_skipped reason.
std::string dataSkippedFix(const std::string &reason) {
  if (reason.find("per-buffer cap") != std::string::npos)
    return "raise --data (e.g. --data 64M) or use --data all";
  if (reason.find("budget") != std::string::npos)
    return "raise --max-bytes (e.g. --max-bytes 16G, or unlimited), or capture fewer launches with "
           "--kernels/--launches";
  if (reason.find("free-space floor") != std::string::npos)
    return "free space on that file system, point --dir at a larger one, or lower --min-free";
  if (reason.find("behind and had written nothing") != std::string::npos)
    return "the application queued more launches than the capture keeps in memory behind work that waited "
           "(a user event, a device still busy); capture fewer launches (--launches, --kernels) to get their "
           "bytes";
  if (reason.find("--data-per-shape") != std::string::npos)
    return "raise --data-per-shape (e.g. --data-per-shape 1000) or use --data-per-shape all";
  if (reason.find("metadata-only") != std::string::npos)
    return "as --data none asked";
  return {};
}

/// One line per kind of reason: the shape quota's reasons name each shape's first launch, the line does not.
std::string reasonGroup(const std::string &reason) {
  static const std::regex perShape(R"(^launch \d+ has the same shape \(([^)]*)\), and its first (\d+) )");
  std::smatch m;
  if (std::regex_search(reason, m, perShape))
    return "each launch shape (" + m[1].str() + ") keeps bytes for its first " + m[2].str() +
           " launches only (--data-per-shape " + m[2].str() + ")";
  return reason;
}

struct NotCaptured {
  std::size_t launches = 0;
  std::set<std::string> kernels;
};

struct WithoutBytes {
  std::size_t arguments = 0;
  std::size_t launches = 0;
};

/// What the closing lines need from the sidecar, read as a stream (SAX): a run of a million launches writes
/// gigabytes of sidecar, which must not be held in memory to count its reasons. Repeat entries (`like`,
/// SidecarRepeats.h) start from their slot's facts, so the tally keeps what it needs of each slot.
struct SidecarTally : nlohmann::json_sax<nlohmann::json> {
  std::map<std::string, NotCaptured> notCaptured;
  std::map<std::string, WithoutBytes> withoutBytes;
  std::uint64_t instantiations = 0;

  /// What the tally needs of a launch: also what a slot remembers.
  struct Facts {
    std::optional<std::string> notCapturedReason;
    std::string kernelName;
    std::vector<std::optional<std::string>> skipped; ///< per argument: data_skipped (not for NULL buffers)
  };
  std::map<std::uint64_t, Facts> slots; ///< bounded by the format (kMaxRepeatSlot)

  // Where the parser is: the key of each open container (root "", "launches", a launch "", "arguments", …).
  std::vector<std::string> path;
  std::string current; ///< the last key read
  // The launch (depth 3) and the argument (depth 5) being read.
  bool hasInstantiation = false;
  Facts facts;
  std::optional<std::uint64_t> slot; ///< the slot this entry fills (`slot`) or repeats (`like`)
  std::vector<std::optional<std::string>> arguments; ///< the `arguments` array being read
  std::string argKind;
  std::optional<std::string> argSkipped;

  bool inLaunch() const { return path.size() == 3 && path[1] == "launches"; }
  bool inArguments() const { return path.size() == 4 && path[1] == "launches" && path[3] == "arguments"; }
  bool inArgument() const { return path.size() == 5 && path[1] == "launches" && path[3] == "arguments"; }

  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t v) override { return number(static_cast<std::uint64_t>(v)); }
  bool number_unsigned(number_unsigned_t v) override { return number(v); }
  bool number_float(number_float_t, const string_t &) override { return true; }
  bool binary(binary_t &) override { return true; }
  bool number(std::uint64_t v) {
    if (inLaunch() && current == "instantiation") {
      hasInstantiation = true;
    } else if (inLaunch() && current == "slot" && v < fmt::kMaxRepeatSlot) {
      slot = v;
    } else if (inLaunch() && current == "like" && v < fmt::kMaxRepeatSlot) {
      slot = v;
      if (auto it = slots.find(v); it != slots.end())
        facts = it->second; // written before the keys that differ
    }
    return true;
  }
  bool string(string_t &v) override {
    if (inLaunch() && current == "not_captured_reason")
      facts.notCapturedReason = v;
    else if (inLaunch() && current == "kernel_name")
      facts.kernelName = v;
    else if (inArguments() && v == "same") // a repeat's argument: the slot's at this position
      arguments.push_back(arguments.size() < facts.skipped.size() ? facts.skipped[arguments.size()]
                                                                  : std::nullopt);
    else if (inArgument() && current == "kind")
      argKind = v;
    else if (inArgument() && current == "data_skipped")
      argSkipped = v;
    return true;
  }
  bool key(string_t &k) override {
    current = k;
    return true;
  }
  bool open() {
    path.push_back(current);
    current.clear();
    if (inLaunch()) {
      hasInstantiation = false;
      facts = Facts{};
      slot.reset();
    } else if (inArguments()) {
      arguments.clear();
    } else if (inArgument()) {
      argKind.clear();
      argSkipped.reset();
    }
    return true;
  }
  bool start_object(std::size_t) override { return open(); }
  bool start_array(std::size_t) override { return open(); }
  bool end_array() override {
    if (inArguments())
      facts.skipped = std::move(arguments);
    path.pop_back();
    return true;
  }
  bool end_object() override {
    if (inArgument()) // a NULL buffer has no bytes to lose
      arguments.push_back(argKind != "null-buffer" ? argSkipped : std::nullopt);
    if (inLaunch()) {
      if (!hasInstantiation) {
        auto &entry = notCaptured[facts.notCapturedReason.value_or("no reason given")];
        ++entry.launches;
        entry.kernels.insert(facts.kernelName);
      } else {
        ++instantiations;
        std::set<std::string> groups;
        for (const std::optional<std::string> &reason : facts.skipped) {
          if (!reason)
            continue;
          std::string group = reasonGroup(*reason);
          ++withoutBytes[group].arguments;
          groups.insert(group);
        }
        for (const std::string &group : groups)
          ++withoutBytes[group].launches;
      }
      if (slot)
        slots[*slot] = facts;
    }
    path.pop_back();
    return true;
  }
  bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &) override {
    return false; // a sidecar cut short (SIGKILL): what was read so far is counted
  }
};

/// Counts the instantiations of a captures.json without a sidecar, as a stream.
struct CapturesTally : nlohmann::json_sax<nlohmann::json> {
  std::uint64_t instantiations = 0;
  std::size_t depth = 0;
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t &) override { return true; }
  bool string(string_t &) override { return true; }
  bool binary(binary_t &) override { return true; }
  bool key(string_t &) override { return true; }
  bool start_object(std::size_t) override {
    if (++depth == 2)
      ++instantiations;
    return true;
  }
  bool end_object() override {
    --depth;
    return true;
  }
  bool start_array(std::size_t) override {
    ++depth;
    return true;
  }
  bool end_array() override {
    --depth;
    return true;
  }
  bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &) override {
    return false;
  }
};

/// Prints the lines about launches not captured and buffers without bytes of one part (each line after
/// `who`: empty for a capture of one process); returns the instantiations.
std::uint64_t summarise(const fs::path &part, const std::string &who, std::FILE *out) {
  std::ifstream sidecarFile(fmt::sidecarPathFor(part), std::ios::binary);
  if (!sidecarFile) {
    std::ifstream captures(part, std::ios::binary);
    CapturesTally tally;
    nlohmann::json::sax_parse(captures, &tally);
    return tally.instantiations;
  }
  SidecarTally tally;
  nlohmann::json::sax_parse(sidecarFile, &tally);
  const auto &notCaptured = tally.notCaptured;
  const auto &withoutBytes = tally.withoutBytes;
  for (const auto &[reason, entry] : notCaptured) {
    std::string fix = notCapturedFix(reason);
    std::fprintf(out, "clcapture: %s%s not captured (kernel%s %s): %s%s%s\n", who.c_str(),
                 plural(entry.launches, "launch", "launches").c_str(), entry.kernels.size() == 1 ? "" : "s",
                 listed(entry.kernels).c_str(), reason.c_str(), fix.empty() ? "" : "; ", fix.c_str());
  }
  for (const auto &[reason, entry] : withoutBytes) {
    std::string fix = dataSkippedFix(reason);
    std::fprintf(out, "clcapture: %s%s of %s left without bytes: %s%s%s\n", who.c_str(),
                 plural(entry.arguments, "buffer", "buffers").c_str(),
                 plural(entry.launches, "launch", "launches").c_str(), reason.c_str(),
                 fix.empty() ? "" : "; ", fix.c_str());
  }
  return tally.instantiations;
}

/// "process 4242 (./test_add --quick)"
std::string processName(const fmt::ProcessRecord &p) {
  std::string command = fmt::shortCommandLine(p.commandLine);
  if (command.empty())
    command = p.executable;
  return "process " + std::to_string(p.pid) + " (" + command + ")";
}

/// Launches the filters left out, with the filter that did it.
void reportFiltered(const RunStatusTotals &status, std::FILE *out) {
  const char *kernels = std::getenv("CLCAPTURE_KERNELS");
  const char *launches = std::getenv("CLCAPTURE_LAUNCHES");
  if (status.filteredKernels)
    std::fprintf(out, "clcapture: %s left out by --kernels '%s' (CLCAPTURE_KERNELS)\n",
                 plural(status.filteredKernels, "launch", "launches").c_str(), kernels ? kernels : "");
  if (status.filteredLaunches)
    std::fprintf(out, "clcapture: %s outside --launches %s (CLCAPTURE_LAUNCHES)\n",
                 plural(status.filteredLaunches, "launch", "launches").c_str(), launches ? launches : "");
}

/// What the layer itself saw, when nothing was captured; false when it reported nothing.
bool explainFromStatus(const RunStatusTotals &status, bool layer, std::FILE *out) {
  if (status.processes == 0) {
    std::fprintf(
        out,
        "clcapture: no kernel launch was captured: the application never loaded the capture library "
        "(it made no OpenCL call, was killed before exiting, or its ICD loader did not load clcapture%s; "
        "`clcapture doctor%s` shows what an application sees)\n",
        layer ? ": with --layer the loader must support OPENCL_LAYERS (CUDA's bundled Khronos loader "
                "does not): try without --layer"
              : "",
        layer ? " --layer" : "");
    return true;
  }
  if (status.platforms == 0) {
    std::fprintf(out, "clcapture: no kernel launch was captured: the capture library was loaded but the real "
                      "driver gave it no platform, so the application found none (`clcapture doctor`)\n");
    return true;
  }
  if (status.launches == 0) {
    std::string found;
    if (status.platforms > 0)
      found = " found " + plural(static_cast<std::uint64_t>(status.platforms), "platform", "platforms") +
              " through clcapture but";
    std::fprintf(out, "clcapture: no kernel launch was captured: the application%s made no kernel launch\n",
                 found.c_str());
    return true;
  }
  if (status.filteredKernels + status.filteredLaunches == status.launches) {
    std::fprintf(out, "clcapture: no kernel launch was captured: the filters left out all %s\n",
                 plural(status.launches, "launch", "launches").c_str());
    return true;
  }
  return false;
}

void reportNothing(bool layer, const PreflightReport *preflight, const RunStatusTotals *status,
                   std::FILE *out) {
  if (status && explainFromStatus(*status, layer, out))
    return;
  std::fprintf(out,
               "clcapture: no kernel launch was captured: the application made no launch that clcapture saw "
               "(it made none, --kernels/--launches left none, or it found no OpenCL platform through "
               "clcapture)\n");
  if (preflight && preflight->libraryLoads())
    std::fprintf(out,
                 "clcapture: before the run, the capture library and %s loaded; to see whether the "
                 "application found a platform through them, run with --log info (the layer logs '%s'), "
                 "or run `clcapture doctor%s` to list the platforms an application sees\n",
                 plural(preflight->usableDrivers(), "driver", "drivers").c_str(),
                 layer ? "OPENCL_LAYERS layer in front of the loader" : "forwarding to <driver>",
                 layer ? " --layer" : "");
  else
    std::fprintf(out, "clcapture: run with --log info to see what the layer did, or `clcapture doctor`\n");
  if (layer)
    std::fprintf(out,
                 "clcapture: with --layer the application's ICD loader must support OPENCL_LAYERS (CUDA's "
                 "bundled Khronos loader does not): try without --layer\n");
}

} // namespace

RunStatusTotals readRunStatus(const std::string &path) {
  RunStatusTotals totals;
  if (path.empty())
    return totals;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    auto record = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!record.is_object())
      continue;
    auto number = [&record](const char *key) -> std::int64_t {
      auto it = record.find(key);
      return it != record.end() && it->is_number_integer() ? it->get<std::int64_t>() : 0;
    };
    ++totals.processes;
    std::int64_t platforms = record.contains("platforms") ? number("platforms") : -1;
    if (platforms >= 0)
      totals.platforms = std::max<std::int64_t>(totals.platforms, 0) + platforms;
    totals.launches += static_cast<std::uint64_t>(number("launches"));
    totals.filteredKernels += static_cast<std::uint64_t>(number("filtered_kernels"));
    totals.filteredLaunches += static_cast<std::uint64_t>(number("filtered_launches"));
  }
  return totals;
}

void reportCaptures(const fs::path &folder, bool layer, const PreflightReport *preflight,
                    const RunStatusTotals *status, std::FILE *out) {
  if (status)
    reportFiltered(*status, out);
  std::vector<fs::path> parts = fmt::capturePartsOf(folder);
  if (parts.empty()) {
    reportNothing(layer, preflight, status, out);
    return;
  }
  std::map<std::string, fmt::ProcessRecord> processes;
  for (auto &record : fmt::readProcessManifest(folder))
    processes[record.part] = record;
  std::uint64_t total = 0;
  for (const fs::path &part : parts) {
    auto record = processes.find(part.filename().string());
    std::string who = parts.size() > 1 && record != processes.end() ? processName(record->second) + ": " : "";
    std::uint64_t instantiations = summarise(part, who, out);
    total += instantiations;
    if (record != processes.end() && !record->second.ended)
      std::fprintf(out,
                   "clcapture: %s ended without running its exit handlers (killed, or _exit); its part %s "
                   "keeps the %s written before\n",
                   processName(record->second).c_str(), part.filename().string().c_str(),
                   plural(instantiations, "instantiation", "instantiations").c_str());
  }
  if (parts.size() == 1) {
    std::fprintf(out, "clcapture: %s captured in %s\n",
                 plural(total, "instantiation", "instantiations").c_str(), folder.string().c_str());
    return;
  }
  std::string seen;
  if (status && status->processes > 0)
    seen = "; " + plural(status->processes, "process", "processes") + " loaded clcapture and exited";
  std::fprintf(out, "clcapture: %s captured in %s by %s%s; the tools take the whole folder\n",
               plural(total, "instantiation", "instantiations").c_str(), folder.string().c_str(),
               plural(parts.size(), "process", "processes").c_str(), seen.c_str());
}

} // namespace clcapture::launcher
