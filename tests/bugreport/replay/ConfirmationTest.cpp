// clcapture-verify --confirm without a device: Oclgrind's messages parsed, findings matched against them,
// and each mark carried by the text, JSON and SARIF reports.
#include "clcapture/report/JsonReport.h"
#include "clcapture/report/SarifReport.h"
#include "clcapture/report/TextReport.h"
#include "clcapture/verify/FindingConfirmation.h"

#include <catch2/catch.hpp>

using namespace clcapture;
using verify::OclgrindMessage;

namespace {

// As Oclgrind 21.10 prints them (the racy reduce sample, the corpus' inter-group race, barrier_in_branch).
const char *kOclgrindOutput = R"(instantiation 0 (reduce): replayed in 0.010 s; writes partial

Read-write data race at local memory address 0x1000000000004
	Kernel: reduce
	
	First entity:  Global(65,0,0) Local(1,0,0) Group(1,0,0)
	  store i32 %add7, i32 addrspace(3)* %arrayidx2, align 4, !dbg !58, !tbaa !34
	At line 7 (column 18) of input.cl:
	  scratch[l] += scratch[l + s];
	
	Second entity: Global(64,0,0) Local(0,0,0) Group(1,0,0)
	  %1 = load i32, i32 addrspace(3)* %arrayidx5, align 4, !dbg !57, !tbaa !34
	At line 7 (column 21) of input.cl:
	  scratch[l] += scratch[l + s];
	

Write-write data race at global memory address 0x1000000000000
	Kernel: inter_group
	
	First entity:  Global(64,0,0) Local(0,0,0) Group(1,0,0)
	  store i32 %conv, i32 addrspace(1)* %out, align 4, !dbg !32, !tbaa !33
	At line 8 (column 12) of input.cl:
	  out[0] = (int)g;
	
	Second entity: Global(0,0,0) Local(0,0,0) Group(0,0,0)
	  store i32 %conv, i32 addrspace(1)* %out, align 4, !dbg !32, !tbaa !33
	At line 8 (column 12) of input.cl:
	  out[0] = (int)g;
	
Work-group divergence detected (barrier)
	Kernel:     divergent
	Work-group: (1,0,0)
	Only 16 out of 32 work-items executed barrier
	  tail call spir_func void @_Z7barrierj(i32 noundef 1) #5, !dbg !36
	At line 8 (column 5) of input.cl:
	  barrier(CLK_LOCAL_MEM_FENCE);
)";

report::Finding race(report::Conflict conflict, report::AddressSpace memory, std::string array,
                     std::uint64_t line) {
  report::Finding f;
  f.kind = report::FindingKind::DataRace;
  f.conflict = conflict;
  f.memory = memory;
  f.array = std::move(array);
  for (report::Access &a : f.accesses) {
    a.access = report::AccessKind::Write;
    a.location = {"kernels/k.cl", line, 5};
  }
  return f;
}

} // namespace

TEST_CASE("confirm: Oclgrind's race and divergence messages", "[confirm]") {
  auto seen = verify::parseOclgrindMessages(kOclgrindOutput);
  REQUIRE(seen.size() == 3);
  CHECK(seen[0].kind == OclgrindMessage::Kind::Race);
  CHECK(!seen[0].writeWrite);
  CHECK(seen[0].memory == "local");
  REQUIRE(seen[0].sites.size() == 2);
  CHECK(seen[0].sites[0].line == 7);
  CHECK(seen[0].sites[0].source == "scratch[l] += scratch[l + s];");
  CHECK(seen[1].writeWrite);
  CHECK(seen[1].memory == "global");
  CHECK(seen[2].kind == OclgrindMessage::Kind::Divergence);
}

TEST_CASE("confirm: a finding is what Oclgrind saw when kind, memory and array agree", "[confirm]") {
  auto seen = verify::parseOclgrindMessages(kOclgrindOutput);
  using report::AddressSpace;
  using report::Conflict;
  CHECK(verify::oclgrindSaw(race(Conflict::ReadWrite, AddressSpace::Local, "scratch", 99), seen));
  CHECK(verify::oclgrindSaw(race(Conflict::WriteRead, AddressSpace::Local, "scratch", 99), seen));
  // Oclgrind saw a read-write race on scratch, not a write-write one.
  CHECK(!verify::oclgrindSaw(race(Conflict::WriteWrite, AddressSpace::Local, "scratch", 7), seen));
  // Another array, on none of the lines Oclgrind names.
  CHECK(!verify::oclgrindSaw(race(Conflict::ReadWrite, AddressSpace::Local, "other", 12), seen));
  // Named differently (a pointer into the array), but on the line Oclgrind names.
  CHECK(verify::oclgrindSaw(race(Conflict::ReadWrite, AddressSpace::Local, "p", 7), seen));
  CHECK(verify::oclgrindSaw(race(Conflict::WriteWrite, AddressSpace::Global, "out", 8), seen));
  CHECK(!verify::oclgrindSaw(race(Conflict::WriteWrite, AddressSpace::Constant, "out", 8), seen));
  report::Finding divergence;
  divergence.kind = report::FindingKind::BarrierDivergence;
  CHECK(verify::oclgrindSaw(divergence, seen));
  CHECK(!verify::oclgrindSaw(divergence, verify::parseOclgrindMessages("")));
}

namespace {

// MemCheck's messages as Oclgrind 21.10 prints them (a write to a read-only buffer, a write past a buffer's
// end, an index past a private array).
const char *kMemCheckOutput = R"(Invalid write to read-only buffer
	Kernel: write_read_only_memory
	Entity: Global(3,0,0) Local(3,0,0) Group(0,0,0)
	  store i32 %inc, i32 addrspace(1)* %arrayidx, align 4, !dbg !24, !tbaa !25
	At line 6 (column 17) of input.cl:
	  out[i] = in[i]++;
	

Invalid write of size 4 at global memory address 0x2000000000010
	Kernel: write_read_only_memory
	Entity: Global(3,0,0) Local(3,0,0) Group(0,0,0)
	  store i32 0, i32 addrspace(1)* %arrayidx4, align 4, !dbg !33, !tbaa !25
	At line 7 (column 14) of input.cl:
	  out[i + 1] = 0;
	

Index (9) exceeds static array size (8)
	Kernel: private_past_end
	Entity: Global(0,0,0) Local(0,0,0) Group(0,0,0)
	  %arrayidx = getelementptr inbounds [8 x i32], [8 x i32]* %tmp, i64 0, i64 %idxprom
	At line 12 (column 3) of input.cl:
	  tmp[n] = 1;
)";

report::Finding memoryFinding(report::FindingKind kind, report::AccessKind access, std::string array,
                              std::uint64_t line) {
  report::Finding f;
  f.kind = kind;
  f.memory = report::AddressSpace::Global;
  f.array = std::move(array);
  f.accesses[0].access = access;
  f.accesses[0].location = {"kernels/k.cl", line, 5};
  return f;
}

} // namespace

TEST_CASE("confirm: MemCheck's invalid accesses confirm memory-safety findings of their kind", "[confirm]") {
  auto seen = verify::parseOclgrindMessages(kMemCheckOutput);
  REQUIRE(seen.size() == 3);
  CHECK(seen[0].kind == OclgrindMessage::Kind::AccessMode);
  CHECK(seen[0].write);
  CHECK(seen[1].kind == OclgrindMessage::Kind::Invalid);
  CHECK(seen[1].write);
  CHECK(seen[1].memory == "global");
  REQUIRE(seen[1].sites.size() == 1);
  CHECK(seen[1].sites[0].line == 7);
  CHECK(seen[2].kind == OclgrindMessage::Kind::Invalid);
  CHECK(seen[2].memory.empty());
  using report::AccessKind;
  using report::FindingKind;
  CHECK(verify::oclgrindSaw(memoryFinding(FindingKind::AccessMode, AccessKind::Write, "in", 6), seen));
  // Oclgrind saw a write to a read-only buffer, not a read of a write-only one.
  CHECK(!verify::oclgrindSaw(memoryFinding(FindingKind::AccessMode, AccessKind::Read, "in", 6), seen));
  CHECK(verify::oclgrindSaw(memoryFinding(FindingKind::OutOfBounds, AccessKind::Write, "out", 7), seen));
  // An out-of-bounds finding is not confirmed by an access-mode message on its line, nor elsewhere.
  CHECK(!verify::oclgrindSaw(memoryFinding(FindingKind::OutOfBounds, AccessKind::Write, "in", 6), seen));
  CHECK(!verify::oclgrindSaw(memoryFinding(FindingKind::OutOfBounds, AccessKind::Read, "x", 30), seen));
  // A private array's index: the array's name in the source Oclgrind shows.
  report::Finding past = memoryFinding(FindingKind::OutOfBounds, AccessKind::Write, "tmp", 99);
  past.memory = report::AddressSpace::Private;
  CHECK(verify::oclgrindSaw(past, seen));
  // Memory-safety findings are not confirmed by race messages, nor races by MemCheck's.
  CHECK(!verify::oclgrindSaw(memoryFinding(FindingKind::OutOfBounds, AccessKind::Write, "scratch", 7),
                             verify::parseOclgrindMessages(kOclgrindOutput)));
  CHECK(
      !verify::oclgrindSaw(race(report::Conflict::WriteWrite, report::AddressSpace::Global, "out", 7), seen));
}

TEST_CASE("confirm: every report format carries the mark, and only with --confirm", "[confirm]") {
  report::InstantiationResult r;
  r.index = 0;
  r.entryPoint = "k";
  r.kernelFile = "kernels/k.cl";
  r.verdict = report::Verdict::Defects;
  r.findings = {race(report::Conflict::WriteWrite, report::AddressSpace::Global, "a", 3),
                race(report::Conflict::WriteWrite, report::AddressSpace::Global, "b", 4),
                race(report::Conflict::WriteWrite, report::AddressSpace::Global, "c", 5)};
  report::finalizeResult(r, false);
  report::ReportInfo info;
  info.version = "test";
  info.capturesPath = "captures.json";
  std::vector<report::InstantiationResult> plain{r};
  CHECK(report::textReport(plain, info).find("confirm") == std::string::npos);
  CHECK(report::jsonReport(plain, info).find("confirmation") == std::string::npos);
  CHECK(report::sarifReport(plain, info).find("confirmation") == std::string::npos);

  r.findings[0].confirmation = verify::kConfirmed;
  r.findings[1].confirmation = verify::kNotObserved;
  r.findings[2].confirmation = std::string(verify::kNotReplayable) + "argument 0 (a): an SVM pointer";
  std::vector<report::InstantiationResult> marked{r};
  std::string text = report::textReport(marked, info);
  CHECK(text.find("\n  confirmed: Oclgrind saw it with the captured input\n") != std::string::npos);
  CHECK(text.find("\n  not observed with this input: Oclgrind ran the captured launch and did not see it") !=
        std::string::npos);
  CHECK(text.find("\n  not replayable: argument 0 (a): an SVM pointer\n") != std::string::npos);
  std::string json = report::jsonReport(marked, info);
  CHECK(json.find("\"confirmation\": \"confirmed\"") != std::string::npos);
  CHECK(json.find("\"confirmation\": \"not observed with this input\"") != std::string::npos);
  std::string sarif = report::sarifReport(marked, info);
  CHECK(sarif.find("\"confirmation\": \"not replayable: argument 0 (a): an SVM pointer\"") !=
        std::string::npos);
}
