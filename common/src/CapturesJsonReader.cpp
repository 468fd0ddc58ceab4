//===- CapturesJsonReader.cpp - Parse and validate captures.json ---------===//
//
// Two passes per record: conversion (reader/InstantiationConverter: JSON types → typed model, with key
// paths) and validation (InstantiationValidation: GPUVerify's format rules on the model). Validation is
// shared with the writer, so nothing the writer emits can fail to load.
//
//===----------------------------------------------------------------------===//

#include "clcapture/format/CapturesJsonReader.h"

#include "clcapture/format/CaptureBlobs.h"
#include "reader/DiagnosticText.h"
#include "reader/FileChecks.h"
#include "reader/InstantiationConverter.h"
#include "reader/JsonRecordStream.h"
#include "reader/ReadWholeFile.h"
#include "reader/Reporter.h"

namespace clcapture::format {

namespace fs = std::filesystem;
using namespace reader;

bool CaptureSet::hasErrors() const {
  return containsErrors(diagnostics);
}

std::string CaptureSet::diagnosticsText() const {
  std::string s;
  for (const auto &d : diagnostics)
    s += d.str() + '\n';
  return s;
}

CaptureSet parseCaptures(std::string_view text, std::string_view displayName, const ReadOptions &options,
                         const fs::path *baseDir) {
  CaptureSet set;
  DiagnosticList list(options.maxErrors);
  Reporter r(list, std::string(displayName), options);
  // Records are converted as the parser completes them; their diagnostics wait in `records` until the
  // parse is over, so that the file's own problems (a cut) come first and a failed parse leaves none.
  DiagnosticList records(options.maxErrors);
  Reporter recordReporter(records, std::string(displayName), options);
  std::size_t count = 0;
  FileChecks checks;
  RecordStream stream;
  stream.record = [&](Json &record) {
    std::size_t i = count++;
    if (records.full())
      return;
    recordReporter.setInstantiation(i);
    InstantiationConverter convert(recordReporter);
    auto inst = convert.instantiation(record);
    if (!inst)
      return;
    std::size_t before = records.errorCount();
    reader::validateInstantiation(*inst, i, displayName, options, baseDir, records, &checks);
    if (records.errorCount() != before)
      return;
    set.instantiations.push_back(std::move(*inst));
    set.indices.push_back(i);
  };
  stream.restart = [&] {
    count = 0;
    records = DiagnosticList(options.maxErrors);
    set.instantiations.clear();
    set.indices.clear();
  };
  if (auto json = parseJsonText(text, 1, r, options, set.truncated, &stream)) {
    if (!json->is_array()) {
      stream.restart();
      r.error("", "expected an array of kernel instantiations, got " + describe(*json));
    } else {
      set.recordCount = count;
    }
  }
  for (Diagnostic &d : records.take())
    list.add(std::move(d));
  // Damaged pack records (BlobPack.h): a blob they held is reported missing above; say why.
  if (baseDir && options.checkFiles)
    for (const auto &[pack, message] : CaptureBlobs::of(*baseDir).warnings())
      list.add(Diagnostic{Severity::Warning, pack.string(), {}, {}, {}, {}, message});
  set.diagnostics = list.take();
  return set;
}

CaptureSet readCapturesFile(const fs::path &path, const ReadOptions &options) {
  std::string error;
  auto text = readWholeFile(path, error);
  if (!text) {
    CaptureSet set;
    set.diagnostics.push_back(Diagnostic{Severity::Error, path.string(), {}, {}, {}, {}, error});
    return set;
  }
  fs::path base = path.parent_path().empty() ? fs::path(".") : path.parent_path();
  return parseCaptures(*text, path.string(), options, &base);
}

} // namespace clcapture::format
