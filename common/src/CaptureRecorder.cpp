//===- CaptureRecorder.cpp - Incremental, crash-safe capture folder writer -===//

#include "clcapture/format/CaptureRecorder.h"

#include "clcapture/format/CaptureBlobs.h"
#include "clcapture/format/CaptureParts.h"
#include "clcapture/format/CaptureWriter.h"
#include "clcapture/format/GpuVerifyForm.h"
#include "clcapture/format/InstantiationValidation.h"

#include <system_error>
#include <unistd.h>

namespace clcapture::format {

namespace fs = std::filesystem;

namespace {

/// DIR with its data/ and kernels/ folders (those already there are kept).
Status createCaptureFolders(const fs::path &dir) {
  std::error_code ec;
  fs::create_directories(dir / "data", ec);
  if (!ec)
    fs::create_directories(dir / "kernels", ec);
  if (ec)
    return fail("cannot create the capture folder " + dir.string() + ": " + ec.message());
  return {};
}

} // namespace

Expected<std::unique_ptr<CaptureRecorder>>
CaptureRecorder::create(const fs::path &dir, const SidecarHeader &header, IfExists ifExists) {
  if (Status made = createCaptureFolders(dir); !made)
    return fail(made.error());
  std::error_code ec;
  fs::path capturesPath = dir / "captures.json";
  if (ifExists == IfExists::Fail && fs::exists(capturesPath, ec))
    return fail(capturesPath.string() + " already exists; refusing to overwrite an earlier capture");
  // The sidecar first: captures.json appearing is what makes a folder a capture.
  auto sidecar = JsonArrayFile::create(dir / "captures.meta.json", sidecarHead(header), sidecarTail());
  if (!sidecar)
    return fail(sidecar.error());
  auto captures = JsonArrayFile::create(capturesPath, capturesHead(), capturesTail());
  if (!captures)
    return fail(captures.error());
  return std::unique_ptr<CaptureRecorder>(
      new CaptureRecorder(dir, "captures.json", std::move(captures.value()), std::move(sidecar.value())));
}

Expected<std::unique_ptr<CaptureRecorder>>
CaptureRecorder::createPart(const fs::path &dir, const SidecarHeader &header, std::uint64_t pid) {
  if (Status made = createCaptureFolders(dir); !made)
    return fail(made.error());
  std::error_code ec;
  for (unsigned attempt = 0; attempt < 1000; ++attempt) {
    std::string name = capturePartName(pid, attempt);
    fs::path capturesPath = dir / name;
    // The sidecar claims the name (O_EXCL): of two processes, one gets it, the other tries the next.
    bool existed = false;
    auto sidecar =
        JsonArrayFile::createNew(sidecarPathFor(capturesPath), sidecarHead(header), sidecarTail(), existed);
    if (!sidecar)
      return fail(sidecar.error());
    if (existed)
      continue;
    if (fs::exists(capturesPath, ec)) { // a captures file written without a sidecar (clcapture import)
      sidecar.value().reset();
      fs::remove(sidecarPathFor(capturesPath), ec);
      continue;
    }
    auto captures = JsonArrayFile::createNew(capturesPath, capturesHead(), capturesTail(), existed);
    if (!captures)
      return fail(captures.error());
    if (existed)
      continue;
    return std::unique_ptr<CaptureRecorder>(
        new CaptureRecorder(dir, name, std::move(captures.value()), std::move(sidecar.value())));
  }
  return fail("no free part name for process " + std::to_string(pid) + " in " + dir.string());
}

CaptureRecorder::CaptureRecorder(fs::path dir, std::string partName, std::unique_ptr<JsonArrayFile> captures,
                                 std::unique_ptr<JsonArrayFile> sidecar)
    : m_dir(std::move(dir)), m_partName(std::move(partName)), m_captures(std::move(captures)),
      m_sidecar(std::move(sidecar)) {}

void CaptureRecorder::packSmallBlobs(bool on) {
  std::lock_guard<std::mutex> lock(m_packMutex);
  if (!on) {
    m_pack.reset();
    m_follower.reset();
    m_stored.clear();
    return;
  }
  if (m_pack)
    return;
  m_pack = std::make_unique<BlobPackWriter>(m_dir / "data");
  m_follower = std::make_unique<PackFollower>(m_dir / "data", "pack-" + std::to_string(::getpid()) + "-");
  // A folder reused (IfExists::Replace) may hold blobs already: loose files and the records of its packs.
  std::error_code ec;
  for (fs::directory_iterator it(m_dir / "data", ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".bin")
      rememberLocked("data/" + it->path().filename().string());
  CaptureBlobs existing(m_dir);
  for (auto &[name, where] : existing.packedBlobs())
    rememberLocked(name);
}

namespace {

/// The two halves of the XXH3-128 a "data/<32 hex digits>.bin" name spells; false for any other name.
bool hashHalves(const std::string &name, std::uint64_t &high, std::uint64_t &low) {
  constexpr std::string_view prefix = "data/", suffix = ".bin";
  if (name.size() != prefix.size() + 32 + suffix.size() || name.compare(0, prefix.size(), prefix) != 0)
    return false;
  return parseHash128(std::string_view(name).substr(prefix.size(), 32), high, low);
}

} // namespace

bool CaptureRecorder::knownElsewhereLocked(const HashHalves &h) {
  auto now = std::chrono::steady_clock::now();
  if (!m_follower || now - m_lastFollow < kFollowInterval)
    return false;
  m_lastFollow = now;
  m_follower->poll([this](std::uint64_t high, std::uint64_t low) {
    if (m_stored.size() >= kRememberedBlobs)
      m_stored.clear();
    m_stored.insert(HashHalves{high, low});
  });
  return m_stored.count(h) > 0;
}

void CaptureRecorder::rememberLocked(const std::string &name) {
  HashHalves h{};
  if (!hashHalves(name, h.high, h.low))
    return;
  if (m_stored.size() >= kRememberedBlobs)
    m_stored.clear(); // a new generation: at worst a blob seen before is appended once more
  m_stored.insert(h);
}

Expected<std::string> CaptureRecorder::putData(const void *bytes, std::size_t size) {
  std::string name = dataBlobName(bytes, size);
  std::unique_lock<std::mutex> lock(m_packMutex);
  if (m_pack && size <= kPackMaxBlobBytes) {
    // Content-addressed: a name already stored holds these bytes.
    HashHalves h{};
    if (hashHalves(name, h.high, h.low) && (m_stored.count(h) || knownElsewhereLocked(h)))
      return name;
    if (Status s = m_pack->append(bytes, size); !s)
      return fail(s.error());
    rememberLocked(name);
    return name;
  }
  lock.unlock();
  auto written = writeBlobOnce(m_dir, name, bytes, size);
  if (!written)
    return fail(written.error());
  return name;
}

Expected<std::string> CaptureRecorder::putKernelSource(std::string_view entry, std::string_view source,
                                                       std::string_view suffix) {
  std::string name = kernelFileName(entry, source, suffix);
  auto written = writeBlobOnce(m_dir, name, source.data(), source.size());
  if (!written)
    return fail(written.error());
  return name;
}

Expected<std::uint64_t> CaptureRecorder::append(const Instantiation &inst, LaunchFacts facts) {
  std::lock_guard<std::mutex> lock(m_mutex);
  if (!m_failure.empty())
    return fail(m_failure);
  // captures.json gets what GPUVerify's loader accepts, the sidecar the exact values it leaves out.
  if (auto problem = gpuverifyFormProblem(inst))
    return fail("refusing to record an instantiation GPUVerify cannot load: " + *problem);
  const Instantiation form = gpuverifyForm(inst);
  // Files come from put*(), which named and wrote them: only the lexical path rules are checked here. (The
  // file checks cost ~24 syscalls a launch, most of a launch-heavy capture's time:
  // bench/capture_overhead.sh.)
  ReadOptions options;
  options.checkFiles = false;
  DiagnosticList problems;
  validateInstantiation(form, m_next, m_partName, options, &m_dir, problems);
  if (problems.hasErrors())
    return fail("refusing to record an invalid instantiation: " + problems.all().front().str());
  keepExactFacts(inst, form, facts);
  facts.instantiation = m_next;
  facts.notCapturedReason.reset();
  SidecarRepeats::Entry entry = m_repeats.entryFor(facts);
  // A repeat's call sites are its slot's: the sidecar has them, and the reader puts host_api_calls back
  // (restoreExactFacts), so captures.json does not repeat them (GPUVerify sees them on the first launch).
  Instantiation written = form;
  if (entry.sameHostCalls)
    written.hostApiCalls.reset();
  // After a failed write the two files may disagree about the next index: stop rather than corrupt them.
  if (Status s = m_sidecar->append(serializeRecord(entry.json, 4)); !s)
    return fail(m_failure = "cannot append to captures.meta.json: " + s.error());
  if (Status s = m_captures->append(serializeInstantiation(written, 2)); !s)
    return fail(m_failure = "cannot append to captures.json: " + s.error());
  return m_next++;
}

Status CaptureRecorder::appendNotCaptured(LaunchFacts facts, const std::string &reason) {
  std::lock_guard<std::mutex> lock(m_mutex);
  if (!m_failure.empty())
    return fail(m_failure);
  facts.instantiation.reset();
  facts.notCapturedReason = reason;
  if (Status s = m_sidecar->append(serializeRecord(m_repeats.entryFor(facts).json, 4)); !s)
    return fail(m_failure = "cannot append to captures.meta.json: " + s.error());
  return {};
}

std::uint64_t CaptureRecorder::instantiationCount() const {
  std::lock_guard<std::mutex> lock(m_mutex);
  return m_next;
}

} // namespace clcapture::format
