//===- CaptureEngine.cpp - What the hooks learn, and the launches it records -===//

#include "CaptureEngine.h"

#include "CallSite.h"
#include "CallSiteResolver.h"
#include "CaptureControls.h"
#include "Log.h"
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
  CallSite createdAt = 0; ///< the application's clCreateProgramWithSource
  CallSite builtAt = 0;   ///< its latest clBuildProgram
};

struct ArgValue {
  bool set = false;
  std::vector<std::uint8_t> bytes; ///< empty when the value pointer was NULL
  std::size_t size = 0;
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
};

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

void CaptureEngine::programBuilt(cl_program program, const char *originalOptions) {
  CallSite site = m_state->controls.callSites ? callerOfHook() : 0;
  std::lock_guard<std::mutex> lock(m_state->mutex);
  auto it = m_state->programs.find(program);
  if (it == m_state->programs.end())
    return;
  it->second->options = originalOptions ? originalOptions : "";
  it->second->builtAt = site;
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
  a.setAt = site;
  a.bytes.clear();
  if (value)
    a.bytes.assign(static_cast<const std::uint8_t *>(value), static_cast<const std::uint8_t *>(value) + size);
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
    std::atomic<bool> failed{false};
    PendingLaunch *owner = nullptr;
  };
  bool discard = false; ///< the driver refused the launch: drop it once its reads are done
  fmt::Instantiation inst;
  fmt::LaunchFacts facts;
  fmt::CaptureRecorder *recorder = nullptr;
  const cl_icd_dispatch *driver = nullptr;
  std::vector<std::unique_ptr<Snapshot>> snapshots;
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
      m_queue.push_back(std::move(launch));
    }
    m_ready.notify_one();
  }

  void started(std::uint64_t queue) {
    std::lock_guard<std::mutex> lock(m_mutex);
    ++m_pending;
    ++m_perQueue[queue];
  }

  /// Waits (at most `seconds`) until every launch of `queue` started so far is written. Called after the
  /// driver's clFinish: the queue's reads are done, so only callbacks and the writer can still be busy.
  void waitForQueue(std::uint64_t queue, double seconds) {
    std::unique_lock<std::mutex> lock(m_mutex);
    m_written.wait_for(lock, std::chrono::duration<double>(seconds), [&] { return m_perQueue[queue] == 0; });
  }

  /// Waits (at most `seconds`) until every started launch is written: called at exit.
  void drain(double seconds) {
    std::unique_lock<std::mutex> lock(m_mutex);
    if (!m_written.wait_for(lock, std::chrono::duration<double>(seconds), [&] { return m_pending == 0; }))
      log(LogLevel::Warning, std::to_string(m_pending) +
                                 " launch(es) still waiting for their buffer reads at exit; not recorded");
  }

private:
  Writer() : m_thread([this] { run(); }) {
    m_thread.detach();
    // Runs before the drivers' own exit handlers (they registered theirs earlier, when they loaded).
    std::atexit([] { Writer::instance().drain(10.0); });
  }

  void run() {
    for (;;) {
      std::shared_ptr<PendingLaunch> launch;
      {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_ready.wait(lock, [this] { return !m_queue.empty(); });
        launch = std::move(m_queue.front());
        m_queue.pop_front();
      }
      write(*launch);
      {
        std::lock_guard<std::mutex> lock(m_mutex);
        --m_pending;
        --m_perQueue[launch->facts.queue];
      }
      m_written.notify_all();
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
      if (!index)
        engine.disable(index.error());
    } catch (const std::exception &e) {
      engine.disable(std::string("writing a launch: ") + e.what());
    }
  }

  std::mutex m_mutex;
  std::condition_variable m_ready;
  std::deque<std::shared_ptr<PendingLaunch>> m_queue;
  std::condition_variable m_written;
  long m_pending = 0;                       ///< launches started but not yet written
  std::map<std::uint64_t, long> m_perQueue; ///< the same, per queue id
  std::thread m_thread;
};

void CL_CALLBACK snapshotCompleted(cl_event, cl_int status, void *userData) {
  // A driver thread: no OpenCL calls, no blocking; the last read hands the launch to the writer.
  auto *snap = static_cast<PendingLaunch::Snapshot *>(userData);
  if (status < 0)
    snap->failed = true;
  PendingLaunch *owner = snap->owner;
  if (owner->outstanding.fetch_sub(1) == 1) {
    std::shared_ptr<PendingLaunch> keep = std::move(owner->self);
    if (!keep->discard)
      Writer::instance().push(std::move(keep));
  }
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
  auto kit = s.kernels.find(kernel);
  if (kit == s.kernels.end() || !kit->second.program) {
    log(LogLevel::Warning, "launch " + std::to_string(launch) +
                               ": kernel not created by clCreateKernel from a "
                               "source program; not captured");
    return nullptr;
  }
  KernelInfo &k = kit->second;
  if (!s.controls.wantsLaunch(launch, k.name))
    return nullptr;
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

  if (k.program->origin != fmt::ProgramOrigin::Source) {
    // SPEC §3: launches of programs built from a binary or IL are listed in the sidecar, not verifiable.
    std::string reason = std::string("program built from ") +
                         (k.program->origin == fmt::ProgramOrigin::Il ? "IL" : "a binary") +
                         ": no source to verify";
    if (auto status = rec->appendNotCaptured(facts, reason); !status)
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
  std::map<std::uint64_t, std::vector<std::uint32_t>> byMem;
  std::vector<std::pair<std::size_t, cl_mem>> toRead;
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
    if (isLocal) {
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
        af.kind = fmt::ArgumentKind::Buffer;
        af.memObject = memIt->second.id;
        af.memFlags = memIt->second.flags;
        byMem[memIt->second.id].push_back(i);
        args.push_back(fmt::ArrayArgument{memIt->second.size, space, fmt::memFlagNames(memIt->second.flags),
                                          std::nullopt});
        std::uint64_t size = memIt->second.size;
        if (!s.controls.captureData)
          af.dataSkipped = "metadata-only mode (CLCAPTURE_DATA=none)";
        else if (size > s.controls.perBufferCap)
          af.dataSkipped =
              "larger than the per-buffer cap (CLCAPTURE_DATA=" + std::to_string(s.controls.perBufferCap) +
              ")";
        else if (size > s.controls.totalBudget - std::min(s.bytesRead, s.controls.totalBudget))
          af.dataSkipped =
              "byte budget exhausted (CLCAPTURE_MAX_BYTES=" + std::to_string(s.controls.totalBudget) + ")";
        else if (memIt->second.flags & CL_MEM_HOST_NO_ACCESS)
          af.dataSkipped = "CL_MEM_HOST_NO_ACCESS buffers cannot be read yet";
        else {
          s.bytesRead += size;
          toRead.emplace_back(i, mem);
        }
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
  for (const auto &[id, group] : byMem)
    if (group.size() > 1)
      facts.aliases.push_back(group);
  inst.kernelArguments = std::move(args);

  // SPEC §3 host_api_calls: the program's creation and build, the call that set each argument's current
  // value, and the launch itself.
  auto &calls = pending->calls;
  if (k.program->createdAt)
    calls.push_back({"clCreateProgramWithSource", std::nullopt, k.program->createdAt});
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
  for (const auto &[argIndex, mem] : toRead) {
    auto snap = std::make_unique<PendingLaunch::Snapshot>();
    snap->argument = argIndex;
    snap->owner = pending.get();
    std::size_t size = s.mems.at(mem).size;
    if (!waitListUsable || !d.clEnqueueReadBuffer) {
      facts.arguments[argIndex].dataSkipped = "the launch's wait list is invalid; contents not read";
      continue;
    }
    snap->bytes.resize(size);
    cl_int status = d.clEnqueueReadBuffer(queue, mem, CL_FALSE, 0, size, snap->bytes.data(), numWaits, waits,
                                          &snap->event);
    if (status != CL_SUCCESS) {
      facts.arguments[argIndex].dataSkipped = "reading the buffer failed with " + std::to_string(status);
      continue;
    }
    // An in-order queue already runs the read before the launch; an extra wait there only costs the driver
    // dependency tracking (PoCL's grows with the queue: 117x slower on 20,000 small launches).
    if (outOfOrder)
      extraWaits.push_back(snap->event);
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

void CaptureEngine::commit(const std::shared_ptr<PendingLaunch> &launch, cl_int enqueueStatus) {
  const cl_icd_dispatch &d = *launch->driver;
  // A refused launch is not a launch; its reads still write into `launch`'s memory, so it stays alive until
  // they complete and is then dropped. Never wait here: the reads may be gated by a user event the
  // application opens only after this call returns.
  launch->discard = enqueueStatus != CL_SUCCESS;
  if (!launch->discard)
    Writer::instance().started(launch->facts.queue);
  if (launch->snapshots.empty()) {
    if (!launch->discard)
      Writer::instance().push(launch);
    return;
  }
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
