//===- SidecarReader.cpp - Parse and validate captures.meta.json ---------===//

#include "clcapture/format/SidecarReader.h"

#include "clcapture/format/SidecarRepeats.h"
#include "reader/DiagnosticText.h"
#include "reader/JsonRecordStream.h"
#include "reader/ReadWholeFile.h"
#include "reader/Reporter.h"
#include "reader/SidecarConverter.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace clcapture::format {

namespace fs = std::filesystem;
using namespace reader;

bool SidecarSet::hasErrors() const {
  return containsErrors(diagnostics);
}

SidecarSet parseSidecar(std::string_view text, std::string_view displayName, const ReadOptions &options) {
  SidecarSet set;
  DiagnosticList list(options.maxErrors);
  Reporter r(list, std::string(displayName), options);
  // Launch entries are expanded (repeats) and converted as the parser completes them: a launch-heavy
  // capture's sidecar is small on disk but would expand to a tree of every launch's facts.
  DiagnosticList records(options.maxErrors);
  Reporter recordReporter(records, std::string(displayName), options);
  std::optional<SidecarConverter> launchConverter(std::in_place, recordReporter);
  std::optional<RepeatExpander> expander(std::in_place);
  std::vector<LaunchFacts> launches;
  std::size_t count = 0;
  RecordStream stream;
  stream.underKey = "launches";
  // Each slot's facts as converted last: a repeat that changes only the numbers is a copy with new numbers
  // (64,000 launches of a loop are then never expanded and converted one by one).
  std::map<std::uint64_t, LaunchFacts> slotFacts;
  stream.record = [&](Json &entry) {
    std::size_t i = count++;
    if (records.full())
      return;
    if (auto slot = expander->renumber(entry)) {
      if (auto known = slotFacts.find(*slot); known != slotFacts.end()) {
        LaunchFacts &f = known->second;
        f.launch = entry["launch"].get<std::uint64_t>();
        if (f.instantiation)
          f.instantiation = entry["instantiation"].get<std::uint64_t>();
        launches.push_back(f);
        return;
      }
    }
    std::vector<RepeatProblem> problems;
    auto slot = expander->expand(entry, i, problems);
    for (const RepeatProblem &p : problems)
      recordReporter.error(p.path, p.message);
    std::size_t errors = records.errorCount();
    launches.push_back(launchConverter->launch(entry, at("launches", i)));
    if (slot && problems.empty() && records.errorCount() == errors)
      slotFacts[*slot] = launches.back();
    else if (slot)
      slotFacts.erase(*slot);
  };
  stream.restart = [&] {
    count = 0;
    slotFacts.clear();
    records = DiagnosticList(options.maxErrors);
    launchConverter.emplace(recordReporter);
    expander.emplace();
    launches.clear();
  };
  if (auto json = parseJsonText(text, 2, r, options, set.truncated, &stream)) {
    SidecarConverter convert(r);
    set.sidecar = convert.sidecar(*json);
    if (set.sidecar && launchConverter->ok())
      set.sidecar->launches = std::move(launches);
    else
      set.sidecar.reset();
  }
  for (Diagnostic &d : records.take())
    list.add(std::move(d));
  set.diagnostics = list.take();
  return set;
}

SidecarSet readSidecarFile(const fs::path &path, const ReadOptions &options) {
  std::string error;
  auto text = readWholeFile(path, error);
  if (!text) {
    SidecarSet set;
    set.diagnostics.push_back(Diagnostic{Severity::Error, path.string(), {}, {}, {}, {}, error});
    return set;
  }
  return parseSidecar(*text, path.string(), options);
}

} // namespace clcapture::format
