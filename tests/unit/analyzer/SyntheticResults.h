//===- SyntheticResults.h - One result of every kind, for golden reports -*- C++ -*-===//
//
// Shared by the golden-output tests (ReportGoldenTest.cpp) and tests/schema's write_example_report, so the
// JSON that is validated against schemas/report.schema.json is exactly what the golden tests pin down.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/report/AnalysisResult.h"

#include <vector>

namespace clcapture::test {

inline report::ReportInfo syntheticInfo(bool strict) {
  report::ReportInfo info;
  info.version = "9.9.9-test";
  info.capturesPath = "run/captures.json";
  info.capturesDirUri = "file:///captures/run/";
  info.strict = strict;
  return info;
}

inline report::Access access(std::optional<report::AccessKind> kind, std::array<std::uint64_t, 3> global,
                             std::array<std::uint64_t, 3> local, std::array<std::uint64_t, 3> group,
                             const std::string &file, std::uint64_t line, std::uint64_t column,
                             const std::string &source) {
  report::Access a;
  a.access = kind;
  a.workItem.globalId = global;
  a.workItem.localId = local;
  a.workItem.groupId = group;
  a.location = {file, line, column};
  a.source = source;
  return a;
}

/// verified; two races (given out of order); a benign same-value race; barrier divergence; unknown; a
/// compile error; a copy of the racy result under another kernel file name; a race whose witness names
/// values the capture leaves open (two scalars and the local size); out-of-bounds accesses past the end and
/// before the start and a null dereference. Finalised with `strict`.
inline std::vector<report::InstantiationResult> syntheticResults(bool strict) {
  using namespace report;
  std::vector<InstantiationResult> results;

  InstantiationResult verified;
  verified.index = 0;
  verified.entryPoint = "copy";
  verified.kernelFile = "kernels/copy-aa11.cl";
  verified.verdict = Verdict::Verified;
  verified.seconds = 0.0512;
  results.push_back(verified);

  InstantiationResult racy;
  racy.index = 1;
  racy.entryPoint = "k";
  racy.kernelFile = "kernels/k-1f2e.cl";
  racy.verdict = Verdict::Verified; // every pair decided; the findings make it `defects`
  racy.seconds = 0.1234;
  Finding global;
  global.conflict = Conflict::ReadWrite;
  global.memory = AddressSpace::Global;
  global.array = "out";
  global.index = {3};
  global.bytes = {12, 15};
  global.accesses = {access(AccessKind::Read, {19, 0, 0}, {3, 0, 0}, {1, 0, 0}, "kernels/k-1f2e.cl", 20, 12,
                            "int v = out[l];"),
                     access(AccessKind::Write, {3, 0, 0}, {3, 0, 0}, {0, 0, 0}, "kernels/k-1f2e.cl", 22, 3,
                            "out[gid % 16] = v;")};
  Finding local;
  local.conflict = Conflict::WriteWrite;
  local.memory = AddressSpace::Local;
  local.array = "tmp";
  local.index = {7};
  local.bytes = {28, 31};
  local.accesses = {
      access(AccessKind::Write, {7, 0, 0}, {7, 0, 0}, {0, 0, 0}, "kernels/k-1f2e.cl", 13, 5, "tmp[7] = 0;"),
      access(AccessKind::Write, {3, 0, 0}, {3, 0, 0}, {0, 0, 0}, "kernels/k-1f2e.cl", 15, 5,
             "tmp[l + 4] = 1;")};
  racy.findings = {global, local}; // finalizeResult sorts: line 13 before line 20
  results.push_back(racy);

  InstantiationResult benign;
  benign.index = 2;
  benign.entryPoint = "fill";
  benign.kernelFile = "kernels/fill-77.cl";
  benign.verdict = Verdict::Verified;
  benign.seconds = 0.2;
  Finding same;
  same.conflict = Conflict::WriteWrite;
  same.benign = true;
  same.memory = AddressSpace::Global;
  same.array = "flag";
  same.index = {0};
  same.bytes = {0, 3};
  same.accesses = {access(AccessKind::Write, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, "kernels/fill-77.cl", 4, 13,
                          "if (x[i] < 0) *flag = 1;"),
                   access(AccessKind::Write, {65, 0, 0}, {1, 0, 0}, {1, 0, 0}, "kernels/fill-77.cl", 4, 13,
                          "if (x[i] < 0) *flag = 1;")};
  benign.findings = {same};
  results.push_back(benign);

  InstantiationResult divergent;
  divergent.index = 3;
  divergent.entryPoint = "div";
  divergent.kernelFile = "kernels/div-3c.cl";
  divergent.verdict = Verdict::Verified;
  divergent.seconds = 0.3;
  Finding div;
  div.kind = FindingKind::BarrierDivergence;
  div.barrier = {"kernels/div-3c.cl", 6, 5};
  div.accesses = {access(std::nullopt, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, "kernels/div-3c.cl", 6, 5,
                         "barrier(CLK_LOCAL_MEM_FENCE);"),
                  access(std::nullopt, {1, 0, 0}, {1, 0, 0}, {0, 0, 0}, "kernels/div-3c.cl", 9, 1, "}")};
  divergent.findings = {div};
  results.push_back(divergent);

  InstantiationResult unknown;
  unknown.index = 4;
  unknown.entryPoint = "loop";
  unknown.kernelFile = "kernels/loop-42.cl";
  unknown.verdict = Verdict::Unknown;
  unknown.reason =
      "loop at kernels/loop-42.cl:4 has a data-dependent trip count; bounded unrolling reached 16 "
      "iterations";
  unknown.seconds = 1.5;
  results.push_back(unknown);

  InstantiationResult error;
  error.index = 5;
  error.entryPoint = "bad";
  error.kernelFile = "kernels/bad-01.cl";
  error.verdict = Verdict::Error;
  error.errorKind = ErrorKind::Compile;
  error.reason = "kernels/bad-01.cl:3:1: error: unknown type name 'flaot'";
  error.seconds = 0.01;
  results.push_back(error);

  InstantiationResult open;
  open.index = 7;
  open.entryPoint = "strided";
  open.kernelFile = "kernels/strided-5d.cl";
  open.verdict = Verdict::Verified;
  open.seconds = 0.25;
  Finding openRace; // a witness that chose values the capture leaves open (docs/contract.md §5)
  openRace.conflict = Conflict::WriteWrite;
  openRace.memory = AddressSpace::Global;
  openRace.array = "a";
  openRace.index = {0};
  openRace.bytes = {0, 3};
  openRace.values = {{"stride", "0"}, {"bias", "-1"}};
  openRace.localSize = std::array<std::uint64_t, 3>{16, 1, 1};
  openRace.accesses = {access(AccessKind::Write, {1, 0, 0}, {1, 0, 0}, {0, 0, 0}, "kernels/strided-5d.cl", 3,
                              19, "a[i * stride] = i + bias;"),
                       access(AccessKind::Write, {16, 0, 0}, {0, 0, 0}, {1, 0, 0}, "kernels/strided-5d.cl", 3,
                              19, "a[i * stride] = i + bias;")};
  open.findings = {openRace};

  InstantiationResult unsafe; // --checks=all: memory safety
  unsafe.index = 8;
  unsafe.entryPoint = "scale";
  unsafe.kernelFile = "kernels/scale-9a.cl";
  unsafe.verdict = Verdict::Verified;
  unsafe.seconds = 0.05;
  unsafe.unsizedMemory = {"scratch"};
  Finding past; // the rounded-up global size without a guard
  past.kind = FindingKind::OutOfBounds;
  past.memory = AddressSpace::Global;
  past.array = "out";
  past.index = {1000};
  past.offset = 4000;
  past.size = 4;
  past.extent = 4000;
  past.accesses[0] = access(AccessKind::Write, {1000, 0, 0}, {40, 0, 0}, {15, 0, 0}, "kernels/scale-9a.cl", 4,
                            10, "out[i] = 2 * in[i];");
  past.createdBy =
      CreationSite{"clCreateBuffer", std::string("app/main.c"), std::uint64_t{42}, "/usr/bin/app",
                   0x6f7d0,          std::string("main")};
  Finding before;
  before.kind = FindingKind::OutOfBounds;
  before.memory = AddressSpace::Local;
  before.array = "tmp";
  before.offset = -4;
  before.size = 4;
  before.extent = 256;
  before.message = "out-of-bounds read on tmp[-1]";
  before.accesses[0] = access(AccessKind::Read, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, "kernels/scale-9a.cl", 7, 12,
                              "x = tmp[l - 1];");
  Finding null;
  null.kind = FindingKind::NullDereference;
  null.memory = AddressSpace::Global;
  null.offset = 8;
  null.size = 4;
  null.values = {{"mode", "2"}};
  null.accesses[0] = access(AccessKind::Write, {3, 0, 0}, {3, 0, 0}, {0, 0, 0}, "kernels/scale-9a.cl", 9, 5,
                            "target[2] = x;");
  unsafe.findings = {past, before, null};

  for (auto &r : results)
    finalizeResult(r, strict);
  finalizeResult(open, strict);
  finalizeResult(unsafe, strict);

  InstantiationResult copy = results[1];
  copy.index = 6;
  copy.kernelFile = "kernels/k-copy.cl";
  copy.sameAs = 1;
  copy.seconds = 0;
  for (auto &f : copy.findings)
    for (auto &a : f.accesses)
      a.location.file = "kernels/k-copy.cl";
  results.push_back(copy);
  results.push_back(open);
  results.push_back(unsafe);
  return results;
}

} // namespace clcapture::test
