//===- CaptureEngine.cpp - What the hooks learn, and the launches it records -===//

#include "CaptureEngine.h"

#include "CallSite.h"
#include "CallSiteResolver.h"
#include "CaptureControls.h"
#include "FreeSpaceGuard.h"
#include "Log.h"
#include "RunStatus.h"
#include "ProgramStore.h"
#include "SourceInliner.h"
#include "clcapture/format/CaptureRecorder.h"
#include "clcapture/format/MemFlags.h"
#include "clcapture/format/ScalarCodec.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <unistd.h>

namespace clcapture::layer {

namespace fmt = clcapture::format;

namespace {

struct ProgramInfo {
  std::uint64_t id = 0;
  std::string source;
  std::string options; ///< the application's own build options
  fmt::ProgramOrigin origin = fmt::ProgramOrigin::Source;
  long refs = 1;
  CallSite createdAt = 0; ///< the application's clCreateProgramWithSource (or ...WithBinary)
  const char *createdWith = "clCreateProgramWithSource";
  CallSite builtAt = 0; ///< its latest clBuildProgram
  /// BinarySourceRecovered: the devices whose binary the program store knew (launches elsewhere are not
  /// verifiable: another device's binary may come from another source).
  std::vector<cl_device_id> sourceDevices;
  std::string noSourceReason; ///< Binary: why there is no source, and how to get it
};

/// Whether launches of a program with this origin can be instantiations (they have source).
bool hasSource(fmt::ProgramOrigin origin) {
  return origin == fmt::ProgramOrigin::Source || origin == fmt::ProgramOrigin::Linked ||
         origin == fmt::ProgramOrigin::BinarySourceRecovered;
}

/// How to get the source of a program loaded from an application's binary cache (issue 10).
constexpr const char *kHowToRecover =
    "clear the application's binary cache (hashcat: ~/.cache/hashcat or its kernels folder; PyOpenCL: "
    "~/.cache/pyopencl) and run it once under clcapture, which stores the source of every binary the "
    "application reads (CLCAPTURE_STORE)";

struct ArgValue {
  bool set = false;
  std::vector<std::uint8_t> bytes; ///< empty when the value pointer was NULL
  std::size_t size = 0;
  bool svm = false; ///< set by clSetKernelArgSVMPointer: `svmPointer` is the value
  const void *svmPointer = nullptr;
  CallSite setAt = 0; ///< the application's clSetKernelArg that set this value
};

/// What the driver says about one kernel parameter (clGetKernelArgInfo); fixed for the kernel's lifetime.
struct ParamInfo {
  std::string name;
  std::string type;
  bool haveQualifier = false;
  cl_kernel_arg_address_qualifier qualifier = 0;
};

struct KernelInfo {
  std::shared_ptr<ProgramInfo> program; ///< shared: the kernel keeps its program alive in the driver too
  std::string name;
  std::vector<ArgValue> args;
  long refs = 1;
  /// CLCAPTURE_KERNELS admits this kernel: only then are its argument-setting call sites worth a stack walk.
  bool wanted = true;
  /// Asked of the driver at the kernel's first captured launch, then reused: launches are a hot path.
  std::optional<std::vector<ParamInfo>> params;
  std::string kernelFile; ///< the stored source's name in the capture folder, once written
};

struct MemInfo {
  std::uint64_t id = 0;
  cl_mem_flags flags = 0;
  std::size_t size = 0;
  long refs = 1;
  std::optional<std::uint64_t> parent; ///< a sub-buffer's parent (OpenCL 1.2: never itself a sub-buffer)
  std::uint64_t origin = 0;            ///< a sub-buffer's offset in its parent
};

struct SvmInfo {
  std::uint64_t id = 0;
  cl_svm_mem_flags flags = 0;
  std::size_t size = 0;
};

/// A capture-time read of one argument's memory: a buffer, a staging copy of a CL_MEM_HOST_NO_ACCESS
/// buffer, or an SVM range.
struct ReadPlan {
  enum class From { Buffer, StagedBuffer, Svm } from = From::Buffer;
  std::size_t argument = 0;
  cl_mem mem = nullptr;
  const void *svm = nullptr;
  std::size_t size = 0;
};

/// Memory an argument refers to, for aliasing: the root object (a buffer or an SVM allocation) and the
/// byte range in it.
struct MemoryRange {
  bool svm = false;
  std::uint64_t root = 0;
  std::uint64_t begin = 0, end = 0;
  std::uint32_t argument = 0;
};

/// Groups of arguments whose ranges overlap in the same root object (union of overlapping pairs).
std::vector<std::vector<std::uint32_t>> aliasGroups(const std::vector<MemoryRange> &ranges) {
  std::vector<std::size_t> leader(ranges.size());
  for (std::size_t i = 0; i < leader.size(); ++i)
    leader[i] = i;
  auto find = [&](std::size_t i) {
    while (leader[i] != i)
      i = leader[i] = leader[leader[i]];
    return i;
  };
  for (std::size_t i = 0; i < ranges.size(); ++i)
    for (std::size_t j = i + 1; j < ranges.size(); ++j) {
      const MemoryRange &a = ranges[i], &b = ranges[j];
      // Empty ranges (size 0) still alias when they are the same object at the same place.
      bool overlap = a.begin < b.end && b.begin < a.end;
      bool same = a.begin == b.begin && a.end == b.end;
      if (a.svm == b.svm && a.root == b.root && (overlap || same))
        leader[find(i)] = find(j);
    }
  std::map<std::size_t, std::vector<std::uint32_t>> groups;
  for (std::size_t i = 0; i < ranges.size(); ++i)
    groups[find(i)].push_back(ranges[i].argument);
  std::vector<std::vector<std::uint32_t>> out;
  for (auto &[leaderIndex, group] : groups)
    if (group.size() > 1) {
      std::sort(group.begin(), group.end());
      out.push_back(group);
    }
  std::sort(out.begin(), out.end());
  return out;
}

/// The application's reference count, mirrored: +1 on retain, -1 on release, forgotten at zero (the driver
/// may then hand the same handle out for a new object).
long &refsOf(std::shared_ptr<ProgramInfo> &p) {
  return p->refs;
}
template <typename Info> long &refsOf(Info &info) {
  return info.refs;
}

template <typename Map> void retainIn(Map &map, typename Map::key_type handle) {
  auto it = map.find(handle);
  if (it != map.end())
    ++refsOf(it->second);
}

template <typename Map> void releaseIn(Map &map, typename Map::key_type handle) {
  auto it = map.find(handle);
  if (it != map.end() && --refsOf(it->second) <= 0)
    map.erase(it);
}

std::string executableName() {
  char buf[4096];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n <= 0 ? std::string("app") : std::string(buf, static_cast<std::size_t>(n));
}

std::string baseName(const std::string &path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string utcNow() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string deviceString(const cl_icd_dispatch &d, cl_device_id device, cl_device_info what) {
  std::size_t size = 0;
  if (d.clGetDeviceInfo(device, what, 0, nullptr, &size) != CL_SUCCESS || size == 0)
    return {};
  std::string s(size, '\0');
  if (d.clGetDeviceInfo(device, what, size, s.data(), nullptr) != CL_SUCCESS)
    return {};
  while (!s.empty() && s.back() == '\0')
    s.pop_back();
  return s;
}

std::string kernelArgString(const cl_icd_dispatch &d, cl_kernel kernel, cl_uint index,
                            cl_kernel_arg_info what) {
  std::size_t size = 0;
  if (!d.clGetKernelArgInfo || d.clGetKernelArgInfo(kernel, index, what, 0, nullptr, &size) != CL_SUCCESS ||
      size == 0)
    return {};
  std::string s(size, '\0');
  if (d.clGetKernelArgInfo(kernel, index, what, size, s.data(), nullptr) != CL_SUCCESS)
    return {};
  while (!s.empty() && s.back() == '\0')
    s.pop_back();
  return s;
}

std::vector<ParamInfo> askParams(const cl_icd_dispatch &d, cl_kernel kernel) {
  cl_uint count = 0;
  d.clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof count, &count, nullptr);
  std::vector<ParamInfo> params(count);
  for (cl_uint i = 0; i < count; ++i) {
    ParamInfo &p = params[i];
    p.name = kernelArgString(d, kernel, i, CL_KERNEL_ARG_NAME);
    p.type = kernelArgString(d, kernel, i, CL_KERNEL_ARG_TYPE_NAME);
    p.haveQualifier =
        d.clGetKernelArgInfo && d.clGetKernelArgInfo(kernel, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER,
                                                     sizeof p.qualifier, &p.qualifier, nullptr) == CL_SUCCESS;
  }
  return params;
}

} // namespace

struct CaptureEngine::State {
  std::mutex mutex;
  std::atomic<bool> enabled{true};
  std::map<cl_program, std::shared_ptr<ProgramInfo>> programs;
  std::map<cl_kernel, KernelInfo> kernels;
  std::map<cl_mem, MemInfo> mems;
  std::map<std::uintptr_t, SvmInfo> svms; ///< by start address
  std::uint64_t nextSvm = 0;

  /// The SVM allocation holding `pointer`, and the pointer's offset in it.
  const SvmInfo *svmHolding(const void *pointer, std::uint64_t &offset) const {
    auto address = reinterpret_cast<std::uintptr_t>(pointer);
    auto it = svms.upper_bound(address);
    if (it == svms.begin())
      return nullptr;
    --it;
    if (address >= it->first + std::max<std::size_t>(it->second.size, 1))
      return nullptr;
    offset = address - it->first;
    return &it->second;
  }
  std::map<cl_command_queue, std::uint64_t> queues;
  std::map<cl_command_queue, bool> queueOutOfOrder;
  std::uint64_t nextThread = 0, nextQueue = 0;

  /// The queue's number: counted, never reused, even when the driver reuses a released queue's handle.
  std::uint64_t queueNumber(cl_command_queue queue) {
    auto it = queues.find(queue);
    if (it == queues.end())
      it = queues.emplace(queue, nextQueue++).first;
    return it->second;
  }

  /// This host thread's number: assigned at its first launch and kept in a thread_local, because the system
  /// reuses thread ids once a thread has ended (a map keyed by id merged two threads of the threads sample).
  std::uint64_t threadNumber() {
    thread_local std::uint64_t number = UINT64_MAX;
    if (number == UINT64_MAX)
      number = nextThread++;
    return number;
  }
  std::map<cl_device_id, fmt::DeviceFacts> devices;
  std::uint64_t nextProgram = 0, nextMem = 0, launches = 0;
  std::unique_ptr<fmt::CaptureRecorder> recorder;
  bool recorderTried = false;
  std::string executable = executableName();
  CaptureControls controls = controlsFromEnvironment();
  std::uint64_t bytesRead = 0; ///< buffer bytes captured so far, against CLCAPTURE_MAX_BYTES
  FreeSpaceGuard freeSpace;    ///< CLCAPTURE_MIN_FREE on the capture folder's file system
  /// CLCAPTURE_STORE: the sources of the binaries applications cache; null when off. Used outside `mutex`
  /// (it is file I/O, and safe from several threads).
  std::unique_ptr<ProgramStore> store =
      controls.storeFolder ? std::make_unique<ProgramStore>(*controls.storeFolder) : nullptr;

  fmt::CaptureRecorder *recorderLocked() {
    if (recorderTried)
      return recorder.get();
    recorderTried = true;
    const char *dirEnv = std::getenv("CLCAPTURE_DIR");
    std::string dir =
        dirEnv && *dirEnv ? dirEnv : "clcapture-" + baseName(executable) + "-" + std::to_string(::getpid());
    fmt::SidecarHeader header;
    header.clcaptureVersion = CLCAPTURE_VERSION;
    header.process = {executable, static_cast<std::uint64_t>(::getpid()), utcNow()};
    auto created = fmt::CaptureRecorder::create(dir, header);
    if (!created && dirEnv && *dirEnv) {
      // CLCAPTURE_DIR is inherited by child processes: the second one gets DIR.<pid>, one folder per process.
      std::string own = dir + "." + std::to_string(::getpid());
      created = fmt::CaptureRecorder::create(own, header);
      if (created)
        dir = own;
    }
    if (!created) {
      log(LogLevel::Error, created.error() + "; capture disabled");
      enabled = false;
      return nullptr;
    }
    recorder = std::move(created.value());
    freeSpace.configure(dir, controls.minFree);
    log(LogLevel::Info, "capturing into " + dir);
    return recorder.get();
  }

  const fmt::DeviceFacts &deviceFacts(const cl_icd_dispatch &d, cl_device_id device) {
    auto it = devices.find(device);
    if (it != devices.end())
      return it->second;
    fmt::DeviceFacts f;
    f.name = deviceString(d, device, CL_DEVICE_NAME);
    f.vendor = deviceString(d, device, CL_DEVICE_VENDOR);
    f.version = deviceString(d, device, CL_DEVICE_VERSION);
    f.driverVersion = deviceString(d, device, CL_DRIVER_VERSION);
    cl_uint bits = 64;
    d.clGetDeviceInfo(device, CL_DEVICE_ADDRESS_BITS, sizeof bits, &bits, nullptr);
    f.addressBits = bits;
    cl_bool little = CL_TRUE;
    d.clGetDeviceInfo(device, CL_DEVICE_ENDIAN_LITTLE, sizeof little, &little, nullptr);
    f.endianness = little ? fmt::Endianness::Little : fmt::Endianness::Big;
    return devices.emplace(device, f).first->second;
  }
};

CaptureEngine &CaptureEngine::instance() {
  static CaptureEngine *engine = new CaptureEngine(); // never destroyed: hooks may run during exit
  return *engine;
}

CaptureEngine::CaptureEngine() : m_state(std::make_unique<State>()) {
  if (!m_state->controls.error.empty()) {
    log(LogLevel::Error, m_state->controls.error + "; capture disabled");
    m_state->enabled = false;
  }
}

bool CaptureEngine::enabled() const {
  return m_state->enabled.load(std::memory_order_relaxed);
}

void CaptureEngine::disable(const std::string &what) {
  if (m_state->enabled.exchange(false))
    log(LogLevel::Error, what + "; capture disabled for the rest of the run");
}

void CaptureEngine::programCreated(cl_program program, std::string source) {
  // Every engine entry runs inside a hook, so the stack still leads back to the application's call.
  CallSite site = m_state->controls.callSites ? callerOfHook() : 0;
  std::lock_guard<std::mutex> lock(m_state->mutex);
  auto p = std::make_shared<ProgramInfo>();
  p->id = m_state->nextProgram++;
  p->source = std::move(source);
  p->createdAt = site;
  m_state->programs[program] = std::move(p);
}

void CaptureEngine::programCreatedWithoutSource(cl_program program, const char *origin) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  auto p = std::make_shared<ProgramInfo>();
  p->id = m_state->nextProgram++;
  p->origin = fmt::parseProgramOrigin(origin).value_or(fmt::ProgramOrigin::Binary);
  log(LogLevel::Debug, "program " + std::to_string(p->id) + " created from " + origin);
  m_state->programs[program] = std::move(p);
}

void CaptureEngine::programCreatedFromBinary(cl_program program, const std::vector<ProgramBinary> &binaries) {
  CallSite site = m_state->controls.callSites ? callerOfHook() : 0;
  // The store is file I/O: asked before taking the engine's lock.
  std::optional<StoredProgram> recovered;
  std::vector<cl_device_id> devices;
  std::string reason;
  if (ProgramStore *store = m_state->store.get()) {
    bool differ = false;
    for (const ProgramBinary &b : binaries) {
      if (!b.bytes || b.size == 0)
        continue;
      std::string key = ProgramStore::keyOf(b.bytes, b.size);
      std::optional<StoredProgram> stored = store->get(key, b.size);
      if (!stored) {
        log(LogLevel::Debug, "binary " + key + " is not in the program store " + store->folder());
        continue;
      }
      // One program, one source: binaries of several devices must all come from the same build.
      if (recovered && (recovered->source != stored->source || recovered->options != stored->options))
        differ = true;
      if (!recovered)
        recovered = std::move(stored);
      devices.push_back(b.device);
    }
    if (differ) {
      recovered.reset();
      reason = "program built from binaries that the program store maps to different sources: no source to "
               "verify";
    } else if (!recovered) {
      reason = std::string("program built from a binary that the program store does not know: no source to "
                           "verify; to capture it, ") +
               kHowToRecover;
    }
  } else {
    reason = "program built from a binary, and the program store is off (CLCAPTURE_STORE=off): no source to "
             "verify";
  }
  std::lock_guard<std::mutex> lock(m_state->mutex);
  auto p = std::make_shared<ProgramInfo>();
  p->id = m_state->nextProgram++;
  p->createdAt = site;
  p->createdWith = "clCreateProgramWithBinary";
  if (recovered) {
    p->origin = fmt::ProgramOrigin::BinarySourceRecovered;
    p->source = std::move(recovered->source);
    p->options = std::move(recovered->options);
    p->sourceDevices = std::move(devices);
    log(LogLevel::Info, "program " + std::to_string(p->id) +
                            " created from a binary: source recovered from the program store for " +
                            std::to_string(p->sourceDevices.size()) + " of " +
                            std::to_string(binaries.size()) + " device(s)");
  } else {
    p->origin = fmt::ProgramOrigin::Binary;
    p->noSourceReason = std::move(reason);
    log(LogLevel::Info, "program " + std::to_string(p->id) + ": " + p->noSourceReason);
  }
  m_state->programs[program] = std::move(p);
}

void CaptureEngine::programBinariesRead(const cl_icd_dispatch &d, cl_program program,
                                        unsigned char *const *binaries, std::size_t count) {
  ProgramStore *store = m_state->store.get();
  if (!store || !binaries || count == 0 || !d.clGetProgramInfo)
    return;
  StoredProgram stored;
  std::uint64_t id = 0;
  {
    std::lock_guard<std::mutex> lock(m_state->mutex);
    auto it = m_state->programs.find(program);
    if (it == m_state->programs.end() || !hasSource(it->second->origin) || it->second->source.empty())
      return; // nothing to remember: a binary's source is unknown here too
    stored.source = it->second->source;
    stored.options = it->second->options;
    id = it->second->id;
  }
  // OpenCL 1.2 §5.6.7: CL_PROGRAM_BINARY_SIZES has one size per device, in CL_PROGRAM_BINARIES' order.
  std::size_t bytes = 0;
  if (d.clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, 0, nullptr, &bytes) != CL_SUCCESS)
    return;
  std::vector<size_t> sizes(bytes / sizeof(size_t));
  if (sizes.empty() || d.clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizes.size() * sizeof(size_t),
                                          sizes.data(), nullptr) != CL_SUCCESS)
    return;
  for (std::size_t i = 0; i < count && i < sizes.size(); ++i) {
    if (!binaries[i] || sizes[i] == 0)
      continue;
    std::string key = ProgramStore::keyOf(binaries[i], sizes[i]);
    if (store->put(key, sizes[i], stored))
      log(LogLevel::Info, "program " + std::to_string(id) + ": source stored in " + store->folder() +
                              " for its binary " + key);
  }
}

namespace {

/// Resolves the program's #includes into its source (SourceInliner.h), logging what stayed unresolved.
void inlineProgramIncludes(ProgramInfo &p, IncludeSources sources) {
  // A recovered binary's stored source had its includes inlined when it was stored.
  if (!hasSource(p.origin) || p.origin == fmt::ProgramOrigin::BinarySourceRecovered ||
      p.source.find("#") == std::string::npos)
    return;
  sources.searchDirs = includeDirsOf(p.options);
  InlineResult r = inlineIncludes(p.source, sources);
  if (r.inlined)
    p.source = std::move(r.source);
  for (const auto &name : r.unresolved)
    log(LogLevel::Warning, "program " + std::to_string(p.id) + ": #include \"" + name +
                               "\" not found; the captured source still names it");
}

} // namespace

void CaptureEngine::programBuilt(cl_program program, const char *originalOptions) {
  CallSite site = m_state->controls.callSites ? callerOfHook() : 0;
  std::lock_guard<std::mutex> lock(m_state->mutex);
  auto it = m_state->programs.find(program);
  if (it == m_state->programs.end())
    return;
  it->second->builtAt = site;
  std::string given = originalOptions ? originalOptions : "";
  if (it->second->origin == fmt::ProgramOrigin::BinarySourceRecovered) {
    // Building a binary does not compile the source again: the options that made the binary are the stored
    // ones, which are what compiles the recovered source.
    if (given != it->second->options)
      log(LogLevel::Info, "program " + std::to_string(it->second->id) + ": binary built with options \"" +
                              given + "\"; the capture records those of the build that made it: \"" +
                              it->second->options + "\"");
    return;
  }
  it->second->options = std::move(given);
  inlineProgramIncludes(*it->second, {});
}

void CaptureEngine::programCompiled(cl_program program, const char *originalOptions,
                                    const std::vector<std::pair<std::string, cl_program>> &headers) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  auto it = m_state->programs.find(program);
  if (it == m_state->programs.end() || it->second->origin == fmt::ProgramOrigin::BinarySourceRecovered)
    return;
  it->second->options = originalOptions ? originalOptions : "";
  IncludeSources sources;
  for (const auto &[name, header] : headers) {
    auto h = m_state->programs.find(header);
    if (h != m_state->programs.end() && h->second->origin == fmt::ProgramOrigin::Source)
      sources.headers[name] = h->second->source;
  }
  inlineProgramIncludes(*it->second, std::move(sources));
}

void CaptureEngine::programLinked(cl_program program, const std::vector<cl_program> &inputs,
                                  const char *linkOptions) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  auto p = std::make_shared<ProgramInfo>();
  p->id = m_state->nextProgram++;
  p->origin = fmt::ProgramOrigin::Linked;
  std::vector<std::string> options;
  for (cl_program input : inputs) {
    auto it = m_state->programs.find(input);
    if (it == m_state->programs.end() || !hasSource(it->second->origin)) {
      // One input without source: the linked program has none either.
      p->origin = it == m_state->programs.end() ? fmt::ProgramOrigin::Binary : it->second->origin;
      p->source.clear();
      break;
    }
    // One translation unit from several: each input's text in link order. Kernels that call functions
    // defined in another input then compile as one file.
    p->source += "/* clcapture: linked input program " + std::to_string(it->second->id) + " */\n";
    p->source += it->second->source;
    if (!p->source.empty() && p->source.back() != '\n')
      p->source += '\n';
    if (std::find(options.begin(), options.end(), it->second->options) == options.end())
      options.push_back(it->second->options);
  }
  if (linkOptions && *linkOptions)
    options.push_back(linkOptions);
  for (const auto &o : options)
    if (!o.empty())
      p->options += (p->options.empty() ? "" : " ") + o;
  m_state->programs[program] = std::move(p);
}

void CaptureEngine::programRetained(cl_program program) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  retainIn(m_state->programs, program);
}

void CaptureEngine::programReleased(cl_program program) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  releaseIn(m_state->programs, program);
}

void CaptureEngine::kernelCreated(cl_kernel kernel, cl_program program, const char *name) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  KernelInfo k;
  auto it = m_state->programs.find(program);
  if (it != m_state->programs.end())
    k.program = it->second;
  k.name = name ? name : "";
  k.wanted = m_state->controls.wantsKernel(k.name);
  log(LogLevel::Debug,
      "kernel " + k.name + (k.program ? " created" : " created from a program clcapture does not know"));
  m_state->kernels[kernel] = std::move(k);
}

void CaptureEngine::kernelCloned(cl_kernel kernel, cl_kernel source) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  auto it = m_state->kernels.find(source);
  if (it == m_state->kernels.end())
    return;
  KernelInfo copy = it->second;
  copy.refs = 1;
  m_state->kernels[kernel] = std::move(copy);
}

void CaptureEngine::kernelRetained(cl_kernel kernel) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  retainIn(m_state->kernels, kernel);
}

void CaptureEngine::kernelReleased(cl_kernel kernel) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  releaseIn(m_state->kernels, kernel);
}

void CaptureEngine::kernelArgSet(cl_kernel kernel, cl_uint index, size_t size, const void *value) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  auto it = m_state->kernels.find(kernel);
  if (it == m_state->kernels.end())
    return;
  // The walk (a few microseconds) is taken for every value set on a kernel CLCAPTURE_KERNELS admits while
  // CLCAPTURE_LAUNCHES can still admit a launch, since which launch will use the value is not known yet;
  // other kernels, and every kernel past the launch range, cost nothing.
  const CaptureControls &controls = m_state->controls;
  CallSite site = controls.callSites && it->second.wanted && m_state->launches <= controls.lastLaunch
                      ? callerOfHook()
                      : 0;
  auto &args = it->second.args;
  if (args.size() <= index)
    args.resize(index + 1);
  ArgValue &a = args[index];
  a.set = true;
  a.size = size;
  a.svm = false;
  a.setAt = site;
  a.bytes.clear();
  if (value)
    a.bytes.assign(static_cast<const std::uint8_t *>(value), static_cast<const std::uint8_t *>(value) + size);
}

void CaptureEngine::kernelArgSvmSet(cl_kernel kernel, cl_uint index, const void *pointer) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  auto it = m_state->kernels.find(kernel);
  if (it == m_state->kernels.end())
    return;
  auto &args = it->second.args;
  if (args.size() <= index)
    args.resize(index + 1);
  const CaptureControls &controls = m_state->controls;
  CallSite site = controls.callSites && it->second.wanted && m_state->launches <= controls.lastLaunch
                      ? callerOfHook()
                      : 0;
  ArgValue &a = args[index];
  a = ArgValue{};
  a.set = true;
  a.setAt = site;
  a.svm = true;
  a.svmPointer = pointer;
  a.size = sizeof(void *);
}

void CaptureEngine::subBufferCreated(cl_mem mem, cl_mem parent, cl_mem_flags flags, size_t origin,
                                     size_t size) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  auto p = m_state->mems.find(parent);
  MemInfo m;
  m.id = m_state->nextMem++;
  // OpenCL 1.2 §5.2.1: access and host-access flags left out are inherited from the parent.
  m.flags = flags;
  if (p != m_state->mems.end()) {
    const cl_mem_flags access = CL_MEM_READ_WRITE | CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY;
    const cl_mem_flags host = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
    const cl_mem_flags creation = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
    if (!(flags & access))
      m.flags |= p->second.flags & access;
    if (!(flags & host))
      m.flags |= p->second.flags & host;
    m.flags |= p->second.flags & creation;
    m.parent = p->second.id;
  }
  m.origin = origin;
  m.size = size;
  m_state->mems[mem] = m;
}

void CaptureEngine::svmAllocated(void *pointer, cl_svm_mem_flags flags, size_t size) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  m_state->svms[reinterpret_cast<std::uintptr_t>(pointer)] = SvmInfo{m_state->nextSvm++, flags, size};
}

void CaptureEngine::svmFreed(void *pointer) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  m_state->svms.erase(reinterpret_cast<std::uintptr_t>(pointer));
}

void CaptureEngine::bufferCreated(cl_mem mem, cl_mem_flags flags, size_t size) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  MemInfo m;
  m.id = m_state->nextMem++;
  m.flags = flags;
  m.size = size;
  m_state->mems[mem] = m;
}

void CaptureEngine::memRetained(cl_mem mem) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  retainIn(m_state->mems, mem);
}

void CaptureEngine::memReleased(cl_mem mem) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  releaseIn(m_state->mems, mem);
}

/// One launch between prepare() and its record: the instantiation without buffer contents, and the reads
/// that will supply them.
struct PendingLaunch {
  struct Snapshot {
    std::size_t argument = 0;        ///< index in kernelArguments
    std::vector<std::uint8_t> bytes; ///< filled by the driver's read
    cl_event event = nullptr;
    cl_mem staging = nullptr; ///< the copy read instead of a CL_MEM_HOST_NO_ACCESS buffer; released after
    std::atomic<bool> failed{false};
    PendingLaunch *owner = nullptr;
  };
  bool discard = false; ///< the driver refused the launch: drop it once its reads are done
  fmt::Instantiation inst;
  fmt::LaunchFacts facts;
  fmt::CaptureRecorder *recorder = nullptr;
  const cl_icd_dispatch *driver = nullptr;
  std::vector<std::unique_ptr<Snapshot>> snapshots;
  std::vector<cl_event> ownedWaits; ///< events of ours the launch waits for (staging copies): released at commit
  /// The application's calls behind the launch (SPEC §3 host_api_calls), oldest first; symbolised on the
  /// writer thread.
  struct Call {
    const char *function;
    std::optional<std::uint32_t> argument;
    CallSite site;
  };
  std::vector<Call> calls;
  std::atomic<std::size_t> outstanding{0};
  std::shared_ptr<PendingLaunch> self; ///< keeps the launch alive until its last read completes
};

namespace {

/// Symbolises the launch's call sites: every call goes to the sidecar with what is known about it; those
/// with a DWARF file and line also go to captures.json's host_api_calls, which the seed requires to have
/// both (no key at all when none has them).
void describeCalls(PendingLaunch &launch) {
  std::vector<fmt::HostApiCall> withLines;
  for (const PendingLaunch::Call &call : launch.calls) {
    ResolvedCallSite where = CallSiteResolver::instance().resolve(call.site);
    if (where.module.empty())
      continue; // libdw unusable, or an address in no module: nothing worth recording
    fmt::HostCallFacts facts;
    facts.functionName = call.function;
    facts.argument = call.argument;
    facts.module = where.module;
    facts.moduleOffset = where.moduleOffset;
    if (!where.function.empty())
      facts.caller = where.function;
    if (where.line > 0) {
      facts.compilationUnit = where.file;
      facts.lineNumber = where.line;
      withLines.push_back(fmt::HostApiCall{call.function, where.file, where.line});
    }
    launch.facts.hostCalls.push_back(std::move(facts));
  }
  if (!withLines.empty())
    launch.inst.hostApiCalls = std::move(withLines);
}

/// The writer thread: blobs and records are written here, never in the application's thread or a driver
/// callback (no blocking work in callbacks).
class Writer {
public:
  static Writer &instance() {
    static Writer *writer = new Writer(); // never destroyed: drained at exit instead
    return *writer;
  }

  void push(std::shared_ptr<PendingLaunch> launch) {
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      m_arrived.push_back(std::move(launch));
    }
    m_ready.notify_one();
  }

  /// The launch was accepted by the driver: it will arrive, and its queue's later launches are written
  /// after it.
  void started(std::uint64_t queue, std::uint64_t launch) {
    std::lock_guard<std::mutex> lock(m_mutex);
    ++m_pending;
    m_started[queue].insert(launch);
  }

  /// Waits (at most `seconds`) until every launch of `queue` started so far is written. Called after the
  /// driver's clFinish: the queue's reads are done, so only callbacks and the writer can still be busy.
  void waitForQueue(std::uint64_t queue, double seconds) {
    std::unique_lock<std::mutex> lock(m_mutex);
    m_written.wait_for(lock, std::chrono::duration<double>(seconds), [&] { return m_started[queue].empty(); });
  }

  /// Waits (at most `seconds`) until every started launch is written: called at exit. Launches held back
  /// behind one whose reads never completed are then written out of order rather than lost.
  void drain(double seconds) {
    std::unique_lock<std::mutex> lock(m_mutex);
    if (m_written.wait_for(lock, std::chrono::duration<double>(seconds), [&] { return m_pending == 0; }))
      return;
    m_inAnyOrder = true;
    m_ready.notify_one();
    m_written.wait_for(lock, std::chrono::seconds(2), [&] { return m_pending == neverArrived(); });
    if (m_pending)
      log(LogLevel::Warning, std::to_string(m_pending) +
                                 " launch(es) still waiting for their buffer reads at exit; not recorded");
  }

private:
  Writer() : m_thread([this] { run(); }) {
    m_thread.detach();
    // Runs before the drivers' own exit handlers (they registered theirs earlier, when they loaded).
    std::atexit([] { Writer::instance().drain(10.0); });
  }

  /// Started launches that have not arrived (their reads are not done): m_pending minus those held.
  long neverArrived() const {
    long held = 0;
    for (const auto &[queue, launches] : m_held)
      held += static_cast<long>(launches.size());
    return m_pending - held;
  }

  /// A held launch that may be written now: the earliest started launch of its queue (captures.json lists
  /// each queue's launches in launch order, whatever order the driver completes the reads in; Oclgrind
  /// runs completion callbacks out of order), or any when m_inAnyOrder.
  std::shared_ptr<PendingLaunch> nextWritable() {
    for (auto &[queue, held] : m_held) {
      if (held.empty())
        continue;
      auto &started = m_started[queue];
      auto first = held.begin();
      if (m_inAnyOrder || started.empty() || *started.begin() == first->first) {
        std::shared_ptr<PendingLaunch> launch = std::move(first->second);
        held.erase(first);
        return launch;
      }
    }
    return nullptr;
  }

  void run() {
    for (;;) {
      std::shared_ptr<PendingLaunch> launch;
      {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_ready.wait(lock, [this] {
          while (!m_arrived.empty()) {
            std::shared_ptr<PendingLaunch> a = std::move(m_arrived.front());
            m_arrived.pop_front();
            if (a->discard)
              m_discarded.push_back(std::move(a));
            else
              m_held[a->facts.queue].emplace(a->facts.launch, std::move(a));
          }
          if (!m_discarded.empty()) {
            return true;
          }
          return static_cast<bool>(m_next = nextWritable());
        });
        if (!m_discarded.empty()) {
          launch = std::move(m_discarded.front());
          m_discarded.pop_front();
        } else {
          launch = std::move(m_next);
        }
      }
      if (!launch->discard)
        write(*launch);
      // Staging copies are ours: released here, never in a driver callback.
      for (auto &snap : launch->snapshots)
        if (snap->staging)
          launch->driver->clReleaseMemObject(snap->staging);
      if (launch->discard)
        continue; // never counted as started
      {
        std::lock_guard<std::mutex> lock(m_mutex);
        --m_pending;
        m_started[launch->facts.queue].erase(launch->facts.launch);
      }
      m_written.notify_all();
      m_ready.notify_one(); // the next launch of the queue may be held already
    }
  }

  static void write(PendingLaunch &launch) {
    CaptureEngine &engine = CaptureEngine::instance();
    if (!engine.enabled())
      return;
    try {
      describeCalls(launch);
      auto &args = *launch.inst.kernelArguments;
      for (auto &snap : launch.snapshots) {
        auto &array = std::get<fmt::ArrayArgument>(args[snap->argument]);
        fmt::ArgumentFacts &af = launch.facts.arguments[snap->argument];
        if (snap->failed) {
          af.dataSkipped = "the read of the buffer failed";
          continue;
        }
        auto name = launch.recorder->putData(snap->bytes.data(), snap->bytes.size());
        if (!name) {
          engine.disable(name.error());
          return;
        }
        array.data = *name;
        af.dataSkipped.reset();
      }
      auto index = launch.recorder->append(launch.inst, launch.facts);
      if (!index && launch.recorder->broken()) {
        engine.disable(index.error());
      } else if (!index) {
        // One launch the format refuses (e.g. a local size the driver accepted but OpenCL forbids) costs
        // that launch only: listed in the sidecar with the reason, capture goes on.
        log(LogLevel::Warning, "launch " + std::to_string(launch.facts.launch) + ": " + index.error());
        if (auto listed = launch.recorder->appendNotCaptured(launch.facts, index.error()); !listed)
          engine.disable(listed.error());
      }
    } catch (const std::exception &e) {
      engine.disable(std::string("writing a launch: ") + e.what());
    }
  }

  std::mutex m_mutex;
  std::condition_variable m_ready;
  std::deque<std::shared_ptr<PendingLaunch>> m_arrived;   ///< reads done, not yet sorted
  std::deque<std::shared_ptr<PendingLaunch>> m_discarded; ///< refused launches: only staging to release
  /// Reads done, waiting for the earlier launches of their queue: queue → launch number → launch.
  std::map<std::uint64_t, std::map<std::uint64_t, std::shared_ptr<PendingLaunch>>> m_held;
  std::shared_ptr<PendingLaunch> m_next;
  std::condition_variable m_written;
  long m_pending = 0; ///< launches started but not yet written
  /// Launch numbers started but not yet written, per queue id.
  std::map<std::uint64_t, std::set<std::uint64_t>> m_started;
  bool m_inAnyOrder = false;
  std::thread m_thread;
};

void CL_CALLBACK snapshotCompleted(cl_event, cl_int status, void *userData) {
  // A driver thread: no OpenCL calls, no blocking; the last read hands the launch to the writer.
  auto *snap = static_cast<PendingLaunch::Snapshot *>(userData);
  if (status < 0)
    snap->failed = true;
  PendingLaunch *owner = snap->owner;
  if (owner->outstanding.fetch_sub(1) == 1)
    Writer::instance().push(std::move(owner->self)); // a discarded launch still has staging to release
}

/// A CL_MEM_HOST_NO_ACCESS buffer (OpenCL 1.2 §5.2.1: the host may not read it) is copied on the device to a
/// staging buffer after the launch's wait list, and the staging buffer is read. `gate` receives the copy's
/// event: the launch must not start before the copy has taken the bytes.
cl_int enqueueStagedRead(const cl_icd_dispatch &d, cl_command_queue queue, const ReadPlan &plan,
                         cl_uint numWaits, const cl_event *waits, PendingLaunch::Snapshot &snap, cl_event &gate) {
  if (!d.clGetMemObjectInfo || !d.clCreateBuffer || !d.clEnqueueCopyBuffer || !d.clEnqueueReadBuffer ||
      !d.clReleaseMemObject)
    return CL_INVALID_OPERATION;
  cl_context context = nullptr;
  cl_int status = d.clGetMemObjectInfo(plan.mem, CL_MEM_CONTEXT, sizeof context, &context, nullptr);
  if (status != CL_SUCCESS)
    return status;
  snap.staging = d.clCreateBuffer(context, CL_MEM_READ_WRITE, plan.size, nullptr, &status);
  if (!snap.staging)
    return status;
  status = d.clEnqueueCopyBuffer(queue, plan.mem, snap.staging, 0, 0, plan.size, numWaits, waits, &gate);
  if (status != CL_SUCCESS)
    return status;
  return d.clEnqueueReadBuffer(queue, snap.staging, CL_FALSE, 0, plan.size, snap.bytes.data(), 1, &gate,
                               &snap.event);
}

} // namespace

std::shared_ptr<PendingLaunch> CaptureEngine::prepare(const cl_icd_dispatch &d, cl_command_queue queue,
                                                      cl_kernel kernel, const LaunchShape &shape,
                                                      cl_uint numWaits, const cl_event *waits,
                                                      std::vector<cl_event> &extraWaits) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  State &s = *m_state;
  // Every launch gets a number, captured or not, so CLCAPTURE_LAUNCHES and the sidecar speak of the same
  // launches (an enqueue the driver then refuses leaves a gap).
  std::uint64_t launch = s.launches++;
  RunStatus::instance().launchSeen();
  auto kit = s.kernels.find(kernel);
  if (kit == s.kernels.end() || !kit->second.program) {
    log(LogLevel::Warning, "launch " + std::to_string(launch) +
                               ": kernel not created by clCreateKernel from a "
                               "source program; not captured");
    return nullptr;
  }
  KernelInfo &k = kit->second;
  // CLCAPTURE_KERNELS was asked once, when the kernel was created (k.wanted): no regex per launch.
  if (!k.wanted) {
    RunStatus::instance().filteredByKernels();
    return nullptr;
  }
  if (!s.controls.inLaunchRange(launch)) {
    RunStatus::instance().filteredByLaunchRange();
    return nullptr;
  }
  // Only for captured launches: filtered ones cost nothing more.
  CallSite enqueuedAt = s.controls.callSites ? callerOfHook() : 0;
  fmt::CaptureRecorder *rec = s.recorderLocked();
  if (!rec)
    return nullptr;
  cl_device_id device = nullptr;
  if (!d.clGetCommandQueueInfo || !d.clGetDeviceInfo || !d.clGetKernelInfo ||
      d.clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, nullptr) != CL_SUCCESS) {
    log(LogLevel::Warning, "launch " + std::to_string(launch) +
                               ": cannot ask the driver about the queue; "
                               "not captured");
    return nullptr;
  }
  const fmt::DeviceFacts &dev = s.deviceFacts(d, device);

  auto pending = std::make_shared<PendingLaunch>();
  pending->recorder = rec;
  pending->driver = &d;
  fmt::LaunchFacts &facts = pending->facts;
  facts.launch = launch;
  facts.enqueueFunction = shape.enqueueFunction;
  facts.kernelName = k.name;
  facts.thread = s.threadNumber();
  facts.queue = s.queueNumber(queue);
  facts.program = k.program->id;
  facts.programOrigin = k.program->origin;
  facts.buildOptions = k.program->options;
  facts.device = dev;

  // SPEC §3: launches of programs built from a binary (whose source the program store did not know, for this
  // device) or IL are listed in the sidecar, not verifiable.
  std::string noSource;
  if (!hasSource(k.program->origin))
    noSource = k.program->origin == fmt::ProgramOrigin::Il ? "program built from IL: no source to verify"
               : k.program->noSourceReason.empty() ? "program built from a binary: no source to verify"
                                                   : k.program->noSourceReason;
  else if (k.program->origin == fmt::ProgramOrigin::BinarySourceRecovered &&
           std::find(k.program->sourceDevices.begin(), k.program->sourceDevices.end(), device) ==
               k.program->sourceDevices.end())
    noSource = std::string("program built from binaries whose source the program store knows for other "
                           "devices, not this one: no source to verify; to capture it, ") +
               kHowToRecover;
  if (!noSource.empty()) {
    if (auto status = rec->appendNotCaptured(facts, noSource); !status)
      disable(status.error());
    return nullptr;
  }

  fmt::Instantiation &inst = pending->inst;
  inst.endianness = dev.endianness;
  if (k.kernelFile.empty()) {
    auto kernelFile = rec->putKernelSource(k.name, k.program->source);
    if (!kernelFile) {
      disable(kernelFile.error());
      return nullptr;
    }
    k.kernelFile = *kernelFile;
  }
  inst.kernelFile = k.kernelFile;
  inst.globalSize = shape.globalSize;
  if (!shape.localSize.empty())
    inst.localSize = shape.localSize;
  if (!shape.globalOffset.empty())
    inst.globalOffset = shape.globalOffset;
  inst.compilerFlags = k.program->options;
  inst.entryPoint = k.name;

  if (!k.params)
    k.params = askParams(d, kernel);
  const cl_uint numArgs = static_cast<cl_uint>(k.params->size());
  static const ArgValue kUnset;
  std::vector<fmt::KernelArgument> args;
  std::vector<MemoryRange> ranges;
  std::vector<ReadPlan> toRead;
  // CLCAPTURE_DATA and CLCAPTURE_MAX_BYTES decide whether `size` bytes are read; empty: read them.
  auto dataSkippedFor = [&](std::uint64_t size) -> std::optional<std::string> {
    if (!s.controls.captureData)
      return "metadata-only mode (CLCAPTURE_DATA=none)";
    if (size > s.controls.perBufferCap)
      return "larger than the per-buffer cap (CLCAPTURE_DATA=" + std::to_string(s.controls.perBufferCap) + ")";
    if (size > s.controls.totalBudget - std::min(s.bytesRead, s.controls.totalBudget))
      return "byte budget exhausted (CLCAPTURE_MAX_BYTES=" + std::to_string(s.controls.totalBudget) +
             (s.controls.totalBudget == CaptureControls::kDefaultTotalBudget ? ", the default" : "") + ")";
    if (!s.freeSpace.take(size))
      return "free-space floor: the capture folder's file system keeps " + std::to_string(s.freeSpace.floor()) +
             " bytes free (CLCAPTURE_MIN_FREE" + (s.controls.minFree ? "" : ", by default 10 % or 2 GiB") + ")";
    s.bytesRead += size;
    return std::nullopt;
  };
  for (cl_uint i = 0; i < numArgs; ++i) {
    const ArgValue &value = i < k.args.size() ? k.args[i] : kUnset;
    const ParamInfo &param = (*k.params)[i];
    const std::string &type = param.type;
    const bool haveQualifier = param.haveQualifier;
    const cl_kernel_arg_address_qualifier qualifier = param.qualifier;
    fmt::ArgumentFacts af;
    af.index = i;
    if (!param.name.empty())
      af.name = param.name;
    if (!type.empty())
      af.typeName = type;
    cl_mem mem = nullptr;
    if (value.bytes.size() == sizeof(cl_mem))
      std::memcpy(&mem, value.bytes.data(), sizeof mem);
    auto memIt = mem ? s.mems.find(mem) : s.mems.end();
    // Without arg info: a NULL value with a size is a __local argument, a known cl_mem a buffer.
    bool isLocal =
        haveQualifier ? qualifier == CL_KERNEL_ARG_ADDRESS_LOCAL : (value.set && value.bytes.empty());
    bool isBuffer = haveQualifier ? (qualifier == CL_KERNEL_ARG_ADDRESS_GLOBAL ||
                                     qualifier == CL_KERNEL_ARG_ADDRESS_CONSTANT)
                                  : memIt != s.mems.end();
    bool isImage = type.rfind("image", 0) == 0;
    if (value.svm) {
      // An SVM pointer (OpenCL 2.0 §5.9.2): the allocation it points into, from the pointer to its end.
      af.kind = fmt::ArgumentKind::Svm;
      af.addressQualifier = haveQualifier && qualifier == CL_KERNEL_ARG_ADDRESS_CONSTANT ? "constant" : "global";
      auto space = af.addressQualifier == "constant" ? fmt::AddressSpace::Constant : fmt::AddressSpace::Global;
      std::uint64_t offset = 0;
      const SvmInfo *svm = value.svmPointer ? s.svmHolding(value.svmPointer, offset) : nullptr;
      if (!svm) {
        af.kind = value.svmPointer ? fmt::ArgumentKind::Svm : fmt::ArgumentKind::NullBuffer;
        af.dataSkipped = value.svmPointer ? "an SVM pointer clcapture did not see allocated (clSVMAlloc)"
                                          : "NULL SVM pointer";
        args.push_back(fmt::ArrayArgument{std::nullopt, space, std::nullopt, std::nullopt});
      } else {
        std::uint64_t size = svm->size - offset;
        af.svm = fmt::SvmFacts{svm->id, offset};
        af.memFlags = svm->flags;
        ranges.push_back(MemoryRange{true, svm->id, offset, svm->size, i});
        args.push_back(fmt::ArrayArgument{size, space, fmt::memFlagNames(svm->flags), std::nullopt});
        if (auto skipped = dataSkippedFor(size))
          af.dataSkipped = *skipped;
        else
          toRead.push_back(ReadPlan{ReadPlan::From::Svm, i, nullptr, value.svmPointer, size});
      }
    } else if (isLocal) {
      af.kind = fmt::ArgumentKind::LocalMemory;
      af.addressQualifier = "local";
      args.push_back(fmt::ArrayArgument{value.size ? std::optional<std::uint64_t>(value.size) : std::nullopt,
                                        fmt::AddressSpace::Local, std::nullopt, std::nullopt});
    } else if (isImage) {
      af.kind = fmt::ArgumentKind::Image;
      args.push_back(fmt::ImageArgument{});
    } else if (type == "sampler_t") {
      af.kind = fmt::ArgumentKind::Sampler;
      args.push_back(fmt::SamplerArgument{});
    } else if (isBuffer) {
      bool constant = haveQualifier && qualifier == CL_KERNEL_ARG_ADDRESS_CONSTANT;
      af.addressQualifier = constant ? "constant" : "global";
      auto space = constant ? fmt::AddressSpace::Constant : fmt::AddressSpace::Global;
      if (memIt == s.mems.end()) {
        af.kind = mem ? fmt::ArgumentKind::Unknown : fmt::ArgumentKind::NullBuffer;
        args.push_back(fmt::ArrayArgument{std::nullopt, space, std::nullopt, std::nullopt});
      } else {
        const MemInfo &m = memIt->second;
        af.kind = fmt::ArgumentKind::Buffer;
        af.memObject = m.id;
        af.memFlags = m.flags;
        if (m.parent) {
          af.subBuffer = fmt::SubBufferFacts{*m.parent, m.origin};
          ranges.push_back(MemoryRange{false, *m.parent, m.origin, m.origin + m.size, i});
        } else {
          ranges.push_back(MemoryRange{false, m.id, 0, m.size, i});
        }
        args.push_back(fmt::ArrayArgument{m.size, space, fmt::memFlagNames(m.flags), std::nullopt});
        if (auto skipped = dataSkippedFor(m.size))
          af.dataSkipped = *skipped;
        else
          // The host may not read a CL_MEM_HOST_NO_ACCESS buffer: the device copies it to a staging buffer.
          toRead.push_back(ReadPlan{(m.flags & CL_MEM_HOST_NO_ACCESS) ? ReadPlan::From::StagedBuffer
                                                                      : ReadPlan::From::Buffer,
                                    i, mem, nullptr, m.size});
      }
    } else {
      af.kind = fmt::ArgumentKind::Scalar;
      fmt::ScalarArgument scalar;
      if (value.set && !value.bytes.empty())
        scalar.value = fmt::encodeScalar(value.bytes, dev.endianness);
      args.push_back(scalar);
    }
    facts.arguments.push_back(af);
  }
  facts.aliases = aliasGroups(ranges);
  inst.kernelArguments = std::move(args);

  // SPEC §3 host_api_calls: the program's creation and build, the call that set each argument's current
  // value, and the launch itself.
  auto &calls = pending->calls;
  if (k.program->createdAt)
    calls.push_back({k.program->createdWith, std::nullopt, k.program->createdAt});
  if (k.program->builtAt)
    calls.push_back({"clBuildProgram", std::nullopt, k.program->builtAt});
  for (cl_uint i = 0; i < numArgs && i < k.args.size(); ++i)
    if (k.args[i].setAt)
      calls.push_back({"clSetKernelArg", i, k.args[i].setAt});
  if (enqueuedAt)
    calls.push_back({shape.enqueueFunction, std::nullopt, enqueuedAt});

  // Non-blocking reads on the same queue, after the launch's own wait list; the launch waits for them.
  bool waitListUsable = numWaits == 0 || waits != nullptr;
  bool outOfOrder = true; // when in doubt, wait explicitly
  if (!toRead.empty()) {
    auto known = s.queueOutOfOrder.find(queue);
    if (known == s.queueOutOfOrder.end()) {
      cl_command_queue_properties props = 0;
      if (d.clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof props, &props, nullptr) == CL_SUCCESS)
        outOfOrder = (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
      s.queueOutOfOrder.emplace(queue, outOfOrder);
    } else {
      outOfOrder = known->second;
    }
  }
  for (const ReadPlan &plan : toRead) {
    fmt::ArgumentFacts &af = facts.arguments[plan.argument];
    if (!waitListUsable) {
      af.dataSkipped = "the launch's wait list is invalid; contents not read";
      continue;
    }
    auto snap = std::make_unique<PendingLaunch::Snapshot>();
    snap->argument = plan.argument;
    snap->owner = pending.get();
    snap->bytes.resize(plan.size);
    cl_event gate = nullptr; // what the launch must wait for on an out-of-order queue
    cl_int status = CL_SUCCESS;
    switch (plan.from) {
    case ReadPlan::From::Buffer:
      status = d.clEnqueueReadBuffer ? d.clEnqueueReadBuffer(queue, plan.mem, CL_FALSE, 0, plan.size,
                                                             snap->bytes.data(), numWaits, waits, &snap->event)
                                     : CL_INVALID_OPERATION;
      gate = snap->event;
      break;
    case ReadPlan::From::Svm:
      status = d.clEnqueueSVMMemcpy ? d.clEnqueueSVMMemcpy(queue, CL_FALSE, snap->bytes.data(), plan.svm,
                                                           plan.size, numWaits, waits, &snap->event)
                                    : CL_INVALID_OPERATION;
      gate = snap->event;
      break;
    case ReadPlan::From::StagedBuffer:
      status = enqueueStagedRead(d, queue, plan, numWaits, waits, *snap, gate);
      break;
    }
    if (status != CL_SUCCESS) {
      af.dataSkipped = "reading the buffer failed with " + std::to_string(status);
      if (gate && gate != snap->event)
        d.clReleaseEvent(gate);
      if (snap->staging)
        d.clReleaseMemObject(snap->staging);
      continue;
    }
    // An in-order queue already runs the read before the launch; an extra wait there only costs the driver
    // dependency tracking (PoCL's grows with the queue: 117x slower on 20,000 small launches).
    if (outOfOrder)
      extraWaits.push_back(gate);
    if (gate != snap->event)
      pending->ownedWaits.push_back(gate);
    pending->snapshots.push_back(std::move(snap));
  }
  return pending;
}

void CaptureEngine::queueReleased(cl_command_queue queue) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  m_state->queues.erase(queue);
  m_state->queueOutOfOrder.erase(queue);
}

void CaptureEngine::queueFinished(cl_command_queue queue) {
  std::uint64_t id = 0;
  {
    std::lock_guard<std::mutex> lock(m_state->mutex);
    auto it = m_state->queues.find(queue);
    if (it == m_state->queues.end())
      return; // nothing of this queue was captured
    id = it->second;
  }
  Writer::instance().waitForQueue(id, 10.0);
}

void CaptureEngine::drain() { Writer::instance().drain(10.0); }

void CaptureEngine::commit(const std::shared_ptr<PendingLaunch> &launch, cl_int enqueueStatus) {
  const cl_icd_dispatch &d = *launch->driver;
  // A refused launch is not a launch; its reads still write into `launch`'s memory, so it stays alive until
  // they complete and is then dropped. Never wait here: the reads may be gated by a user event the
  // application opens only after this call returns.
  launch->discard = enqueueStatus != CL_SUCCESS;
  for (cl_event e : launch->ownedWaits) // the launch (if accepted) holds its own reference to them now
    d.clReleaseEvent(e);
  launch->ownedWaits.clear();
  if (!launch->discard)
    Writer::instance().started(launch->facts.queue, launch->facts.launch);
  if (launch->snapshots.empty()) {
    if (!launch->discard)
      Writer::instance().push(launch);
    return;
  }
  // From here each snapshot's read completes through snapshotCompleted, which hands the launch (even a
  // discarded one: it may hold staging buffers) to the writer.
  launch->outstanding = launch->snapshots.size();
  launch->self = launch;
  for (auto &snap : launch->snapshots) {
    cl_event event = snap->event;
    if (d.clSetEventCallback(event, CL_COMPLETE, &snapshotCompleted, snap.get()) != CL_SUCCESS)
      snapshotCompleted(event, -1, snap.get());
    d.clReleaseEvent(event); // the callback still fires; the driver keeps what it needs
  }
}

} // namespace clcapture::layer
