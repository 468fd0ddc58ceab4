//===- CaptureEngine.cpp - What the hooks learn, and the launches it records -===//

#include "engine/CaptureEngine.h"

#include "clcapture/format/CaptureRecorder.h"
#include "engine/ArgumentCapture.h"
#include "engine/BufferSnapshots.h"
#include "engine/DataBudget.h"
#include "engine/DriverAnswers.h"
#include "engine/DriverQueries.h"
#include "engine/HandleMirrors.h"
#include "engine/ParameterLearning.h"
#include "engine/ProgramStore.h"
#include "engine/ShapeQuota.h"
#include "engine/SignatureReader.h"
#include "engine/SourceInliner.h"
#include "process/CallSite.h"
#include "process/CaptureSwitch.h"
#include "process/Log.h"
#include "writer/CaptureFolder.h"
#include "writer/LaunchWriter.h"
#include "writer/PendingLaunch.h"
#include "writer/RunStatus.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <pthread.h>

namespace clcapture::layer {

namespace fmt = clcapture::format;

struct CaptureEngine::State {
  std::mutex mutex;
  HandleMirrors mirrors;
  DriverAnswers driver;
  std::uint64_t launches = 0;
  std::unique_ptr<fmt::CaptureRecorder> recorder;
  bool recorderTried = false;
  const CaptureControls &controls = captureControls();
  DataBudget budget{controls};
  ShapeQuota shapes{controls.dataPerShape};
  /// CLCAPTURE_STORE: the sources of the binaries applications cache; null when off. Used outside `mutex`
  /// (it is file I/O, and safe from several threads).
  std::unique_ptr<ProgramStore> store =
      controls.storeFolder ? std::make_unique<ProgramStore>(*controls.storeFolder) : nullptr;

  fmt::CaptureRecorder *recorderLocked() {
    if (recorderTried)
      return recorder.get();
    recorderTried = true;
    std::string folder;
    recorder = openCaptureFolder(folder);
    if (!recorder) {
      disableCaptureSilently(); // openCaptureFolder logged why
      return nullptr;
    }
    recorder->packSmallBlobs(controls.pack);
    budget.configure(folder);
    return recorder.get();
  }
};

CaptureEngine &CaptureEngine::instance() {
  static CaptureEngine *engine = new CaptureEngine(); // never destroyed: hooks may run during exit
  return *engine;
}

CaptureEngine::CaptureEngine() : m_state(std::make_unique<State>()) {
  // fork() without exec: the child writes a part of its own (CaptureFolder.h) with a writer of its own; the
  // forking thread holds the engine's lock, then the writer's, across the fork so both copies are consistent.
  ::pthread_atfork(
      [] {
        instance().m_state->mutex.lock();
        if (LaunchWriter *writer = LaunchWriter::running())
          writer->lockForFork();
      },
      [] {
        if (LaunchWriter *writer = LaunchWriter::running())
          writer->unlockAfterFork();
        instance().m_state->mutex.unlock();
      },
      [] {
        if (LaunchWriter *writer = LaunchWriter::running())
          writer->forkedChild();
        State &state = *instance().m_state;
        (void)state.recorder.release(); // the parent's part: its files stay the parent's
        state.recorderTried = false;
        state.mutex.unlock();
      });
}

void CaptureEngine::programCreated(cl_program program, std::string source) {
  // Every engine entry runs inside a hook, so the stack still leads back to the application's call.
  CallSite site = m_state->controls.callSites ? callerOfHook() : 0;
  std::lock_guard<std::mutex> lock(m_state->mutex);
  auto p = std::make_shared<ProgramInfo>();
  p->id = m_state->mirrors.nextProgram++;
  p->source = std::move(source);
  p->createdAt = site;
  m_state->mirrors.programs[program] = std::move(p);
}

void CaptureEngine::programCreatedWithoutSource(cl_program program, const char *origin) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  auto p = std::make_shared<ProgramInfo>();
  p->id = m_state->mirrors.nextProgram++;
  p->origin = fmt::parseProgramOrigin(origin).value_or(fmt::ProgramOrigin::Binary);
  log(LogLevel::Debug, "program " + std::to_string(p->id) + " created from " + origin);
  m_state->mirrors.programs[program] = std::move(p);
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
               kHowToRecoverSource;
    }
  } else {
    reason = "program built from a binary, and the program store is off (CLCAPTURE_STORE=off): no source to "
             "verify";
  }
  std::lock_guard<std::mutex> lock(m_state->mutex);
  auto p = std::make_shared<ProgramInfo>();
  p->id = m_state->mirrors.nextProgram++;
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
  m_state->mirrors.programs[program] = std::move(p);
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
    auto it = m_state->mirrors.programs.find(program);
    if (it == m_state->mirrors.programs.end() || !hasSource(it->second->origin) || it->second->source.empty())
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
  auto it = m_state->mirrors.programs.find(program);
  if (it == m_state->mirrors.programs.end())
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
  it->second->learnt = std::make_shared<PrivateParameters>(); // a rebuild may change the kernels' signatures
  inlineProgramIncludes(*it->second, {});
}

void CaptureEngine::programCompiled(cl_program program, const char *originalOptions,
                                    const std::vector<std::pair<std::string, cl_program>> &headers) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  auto it = m_state->mirrors.programs.find(program);
  if (it == m_state->mirrors.programs.end() ||
      it->second->origin == fmt::ProgramOrigin::BinarySourceRecovered)
    return;
  it->second->options = originalOptions ? originalOptions : "";
  it->second->learnt = std::make_shared<PrivateParameters>();
  IncludeSources sources;
  for (const auto &[name, header] : headers) {
    auto h = m_state->mirrors.programs.find(header);
    if (h != m_state->mirrors.programs.end() && h->second->origin == fmt::ProgramOrigin::Source)
      sources.headers[name] = h->second->source;
  }
  inlineProgramIncludes(*it->second, std::move(sources));
}

void CaptureEngine::programLinked(cl_program program, const std::vector<cl_program> &inputs,
                                  const char *linkOptions) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  auto p = std::make_shared<ProgramInfo>();
  p->id = m_state->mirrors.nextProgram++;
  p->origin = fmt::ProgramOrigin::Linked;
  std::vector<std::string> options;
  for (cl_program input : inputs) {
    auto it = m_state->mirrors.programs.find(input);
    if (it == m_state->mirrors.programs.end() || !hasSource(it->second->origin)) {
      // One input without source: the linked program has none either.
      p->origin = it == m_state->mirrors.programs.end() ? fmt::ProgramOrigin::Binary : it->second->origin;
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
  m_state->mirrors.programs[program] = std::move(p);
}

void CaptureEngine::programRetained(cl_program program) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  retainIn(m_state->mirrors.programs, program);
}

void CaptureEngine::programReleased(cl_program program) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  releaseIn(m_state->mirrors.programs, program);
}

void CaptureEngine::kernelCreated(cl_kernel kernel, cl_program program, const char *name) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  KernelInfo k;
  auto it = m_state->mirrors.programs.find(program);
  if (it != m_state->mirrors.programs.end())
    k.program = it->second;
  k.name = name ? name : "";
  k.wanted = m_state->controls.wantsKernel(k.name);
  log(LogLevel::Debug,
      "kernel " + k.name + (k.program ? " created" : " created from a program clcapture does not know"));
  m_state->mirrors.kernels[kernel] = std::move(k);
}

void CaptureEngine::kernelCloned(cl_kernel kernel, cl_kernel source) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  auto it = m_state->mirrors.kernels.find(source);
  if (it == m_state->mirrors.kernels.end())
    return;
  KernelInfo copy = it->second;
  copy.refs = 1;
  m_state->mirrors.kernels[kernel] = std::move(copy);
}

void CaptureEngine::kernelRetained(cl_kernel kernel) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  retainIn(m_state->mirrors.kernels, kernel);
}

void CaptureEngine::kernelReleased(cl_kernel kernel) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  releaseIn(m_state->mirrors.kernels, kernel);
}

void CaptureEngine::kernelArgSet(cl_kernel kernel, cl_uint index, size_t size, const void *value) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  auto it = m_state->mirrors.kernels.find(kernel);
  if (it == m_state->mirrors.kernels.end())
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
  auto it = m_state->mirrors.kernels.find(kernel);
  if (it == m_state->mirrors.kernels.end())
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
  CallSite site = m_state->controls.callSites ? callerOfHook() : 0;
  std::lock_guard<std::mutex> lock(m_state->mutex);
  m_state->mirrors.subBufferCreated(mem, parent, flags, origin, size, site);
}

void CaptureEngine::svmAllocated(void *pointer, cl_svm_mem_flags flags, size_t size) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  m_state->mirrors.svms[reinterpret_cast<std::uintptr_t>(pointer)] =
      SvmInfo{m_state->mirrors.nextSvm++, flags, size};
}

void CaptureEngine::svmFreed(void *pointer) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  m_state->mirrors.svms.erase(reinterpret_cast<std::uintptr_t>(pointer));
}

void CaptureEngine::bufferCreated(cl_mem mem, cl_mem_flags flags, size_t size, bool plain) {
  CallSite site = m_state->controls.callSites ? callerOfHook() : 0;
  std::lock_guard<std::mutex> lock(m_state->mutex);
  m_state->mirrors.bufferCreated(mem, flags, size, plain, site);
}

void CaptureEngine::memRetained(cl_mem mem) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  retainIn(m_state->mirrors.mems, mem);
}

void CaptureEngine::memWritten(cl_mem mem) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  m_state->mirrors.written(mem);
}

void CaptureEngine::extensionFunctionFetched(const char *name) {
  std::string n = name ? name : "";
  bool harmless = false;
  for (const char *prefix : {"clGet", "clCreate", "clRetain", "clRelease", "clIcd", "clTerminate"})
    harmless = harmless || n.rfind(prefix, 0) == 0;
  if (harmless || n.empty())
    return;
  std::lock_guard<std::mutex> lock(m_state->mutex);
  if (m_state->mirrors.reuseAllowed) {
    m_state->mirrors.reuseAllowed = false;
    m_state->mirrors.writtenAnywhere();
    log(LogLevel::Info, "the application fetched " + n +
                            ", which may change buffers unseen: every launch reads its buffers from now on");
  }
}

void CaptureEngine::memReleased(cl_mem mem) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  releaseIn(m_state->mirrors.mems, mem);
}

std::shared_ptr<PendingLaunch> CaptureEngine::prepare(const cl_icd_dispatch &d, cl_command_queue queue,
                                                      cl_kernel kernel, const LaunchShape &shape,
                                                      cl_uint numWaits, const cl_event *waits,
                                                      std::vector<cl_event> &extraWaits) {
  // Described under the engine's lock; the reads are enqueued after it is released, so that no driver call
  // that could wait on the driver's own threads (which may run our hooks) is made while an
  // application thread holds it. Only first-time questions (a queue's device and order, a kernel's
  // parameters, a device's facts) are asked under it.
  bool backlogged = LaunchWriter::throttle([&] {
    if (d.clFlush)
      d.clFlush(queue);
  });
  learnParameters(d, queue, kernel);
  std::shared_ptr<PendingLaunch> pending = describeLaunch(d, queue, kernel, shape, backlogged);
  if (pending && !pending->beforeReads.empty())
    enqueueSnapshots(d, queue, pending->beforeReads, numWaits, waits, pending->outOfOrderQueue, pending,
                     extraWaits);
  return pending;
}

namespace {

/// Why launches of `p` on `device` cannot be verified (docs/contract.md §3: programs built from a binary
/// whose source the program store did not know, for this device, or from IL are listed in the sidecar); empty
/// when they can.
std::string whyNoSource(const ProgramInfo &p, cl_device_id device) {
  if (!hasSource(p.origin))
    return p.origin == fmt::ProgramOrigin::Il ? "program built from IL: no source to verify"
           : p.noSourceReason.empty()         ? "program built from a binary: no source to verify"
                                              : p.noSourceReason;
  if (p.origin == fmt::ProgramOrigin::BinarySourceRecovered &&
      std::find(p.sourceDevices.begin(), p.sourceDevices.end(), device) == p.sourceDevices.end())
    return std::string("program built from binaries whose source the program store knows for other "
                       "devices, not this one: no source to verify; to capture it, ") +
           kHowToRecoverSource;
  return {};
}

/// docs/contract.md §3 host_api_calls: the program's creation and build, the call that created each buffer
/// argument's memory object, the call that set each argument's current value, and the launch itself.
std::vector<PendingLaunch::Call> hostCalls(const KernelInfo &k, const LaunchShape &shape, CallSite enqueuedAt,
                                           const std::vector<fmt::ArgumentFacts> &arguments,
                                           const HandleMirrors &mirrors) {
  std::vector<PendingLaunch::Call> calls;
  if (k.program->createdAt)
    calls.push_back({k.program->createdWith, std::nullopt, k.program->createdAt});
  if (k.program->builtAt)
    calls.push_back({"clBuildProgram", std::nullopt, k.program->builtAt});
  for (std::size_t i = 0; i < arguments.size() && i < k.args.size(); ++i) {
    if (arguments[i].kind != fmt::ArgumentKind::Buffer || k.args[i].bytes.size() != sizeof(cl_mem))
      continue;
    cl_mem mem = nullptr;
    std::memcpy(&mem, k.args[i].bytes.data(), sizeof mem);
    auto m = mirrors.mems.find(mem);
    if (m != mirrors.mems.end() && m->second.createdAt)
      calls.push_back({m->second.parent ? "clCreateSubBuffer" : "clCreateBuffer",
                       static_cast<std::uint32_t>(i), m->second.createdAt});
  }
  for (std::size_t i = 0; i < k.params->size() && i < k.args.size(); ++i)
    if (k.args[i].setAt)
      calls.push_back({"clSetKernelArg", static_cast<std::uint32_t>(i), k.args[i].setAt});
  if (enqueuedAt)
    calls.push_back({shape.enqueueFunction, std::nullopt, enqueuedAt});
  return calls;
}

/// CLCAPTURE_DATA_AFTER: the written buffers are read after the launch, in commit(). Only on an in-order
/// queue, which runs the reads right after the launch and before any later command; on an out-of-order
/// queue a later command that waits for the launch could change the bytes before the read takes them.
void planReadsAfter(PendingLaunch &pending, const std::vector<ReadPlan> &written,
                    const std::optional<std::string> &shapeLimit, DataBudget &budget) {
  for (const ReadPlan &plan : written) {
    std::optional<std::string> &skipped = pending.facts.arguments[plan.argument].dataAfterSkipped;
    if (pending.outOfOrderQueue)
      skipped = "an out-of-order queue: a later command may change the bytes before a read after the launch";
    else if (shapeLimit)
      skipped = *shapeLimit;
    else if (auto refused = budget.take(plan.size))
      skipped = *refused;
    else
      pending.afterReads.push_back(plan);
  }
}

} // namespace

void CaptureEngine::learnParameters(const cl_icd_dispatch &d, cl_command_queue queue, cl_kernel kernel) {
  std::shared_ptr<PrivateParameters> learnt;
  std::string name, source, options;
  std::uint64_t programId = 0;
  cl_device_id device = nullptr;
  std::vector<ValueShape> values;
  {
    std::lock_guard<std::mutex> lock(m_state->mutex);
    auto kit = m_state->mirrors.kernels.find(kernel);
    if (kit == m_state->mirrors.kernels.end() || !kit->second.program || !kit->second.wanted ||
        kit->second.params || !hasSource(kit->second.program->origin) || !m_state->recorderLocked() ||
        !d.clGetCommandQueueInfo || !d.clGetKernelInfo || !(device = m_state->driver.queueDevice(d, queue)))
      return; // describeLaunch asks the driver, or leaves the launch out
    const ProgramInfo &program = *kit->second.program;
    learnt = program.learnt;
    name = kit->second.name;
    source = program.source;
    options = program.options;
    programId = program.id;
    values = valueShapes(kit->second, m_state->mirrors);
  }
  std::vector<ParamInfo> params = askParams(d, kernel);
  if (!answeredAll(params)) {
    std::lock_guard<std::mutex> once(learnt->mutex);
    if (!learnt->read) {
      learnt->read = true;
      learnt->fromSource = readKernelSignatures(source, options);
    }
    auto read = learnt->fromSource.find(name);
    if (read != learnt->fromSource.end() && read->second.size() == params.size() &&
        agreesWithValues(read->second, values)) {
      params = read->second;
      log(LogLevel::Debug,
          "kernel " + name + ": parameters read from program " + std::to_string(programId) +
              "'s source (the driver answers clGetKernelArgInfo only with -cl-kernel-arg-info)");
    } else {
      if (!learnt->tried) {
        learnt->tried = true;
        cl_context context = nullptr;
        LearntParameters found;
        if (d.clGetKernelInfo(kernel, CL_KERNEL_CONTEXT, sizeof context, &context, nullptr) != CL_SUCCESS)
          found.failure = "clGetKernelInfo(CL_KERNEL_CONTEXT) failed";
        else
          found = learnFromPrivateBuild(d, context, device, source, options);
        learnt->byKernel = std::move(found.byKernel);
        if (!found.failure.empty())
          log(LogLevel::Info,
              "program " + std::to_string(programId) +
                  ": the driver does not answer clGetKernelArgInfo for the application's build, "
                  "and a private copy built with -cl-kernel-arg-info did not either (" +
                  found.failure + "): argument kinds come from the values set");
      }
      auto built = learnt->byKernel.find(name);
      if (built != learnt->byKernel.end()) {
        params = built->second;
        log(LogLevel::Debug, "kernel " + name + ": parameters from a private build of program " +
                                 std::to_string(programId) +
                                 " (its source does not say them with certainty)");
      }
    }
  }
  std::lock_guard<std::mutex> lock(m_state->mutex);
  auto kit = m_state->mirrors.kernels.find(kernel);
  if (kit != m_state->mirrors.kernels.end() && !kit->second.params)
    kit->second.params = std::move(params);
}

std::shared_ptr<PendingLaunch> CaptureEngine::describeLaunch(const cl_icd_dispatch &d, cl_command_queue queue,
                                                             cl_kernel kernel, const LaunchShape &shape,
                                                             bool backlogged) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  State &s = *m_state;
  // Every launch gets a number, captured or not, so CLCAPTURE_LAUNCHES and the sidecar speak of the same
  // launches (an enqueue the driver then refuses leaves a gap).
  std::uint64_t launch = s.launches++;
  RunStatus::instance().launchSeen();
  auto kit = s.mirrors.kernels.find(kernel);
  if (kit == s.mirrors.kernels.end())
    s.mirrors.writtenAnywhere(); // its arguments are unknown: any buffer may change
  if (kit == s.mirrors.kernels.end() || !kit->second.program) {
    log(LogLevel::Warning, "launch " + std::to_string(launch) +
                               ": kernel not created by clCreateKernel from a "
                               "source program; not captured");
    if (kit != s.mirrors.kernels.end())
      s.mirrors.launched(kit->second);
    return nullptr;
  }
  KernelInfo &k = kit->second;
  // Whatever happens below, once this launch is described the buffers it may write have changed for later
  // launches (captured or not): their earlier reads no longer stand for them.
  struct MarkWritten {
    HandleMirrors &mirrors;
    const KernelInfo &kernel;
    ~MarkWritten() { mirrors.launched(kernel); }
  } markWritten{s.mirrors, k};
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
      !(device = s.driver.queueDevice(d, queue))) {
    log(LogLevel::Warning, "launch " + std::to_string(launch) +
                               ": cannot ask the driver about the queue; "
                               "not captured");
    return nullptr;
  }
  const fmt::DeviceFacts &dev = s.driver.device(d, device);

  auto pending = std::make_shared<PendingLaunch>();
  pending->queue = queue;
  pending->outOfOrderQueue = s.driver.queueOutOfOrder(d, queue);
  pending->recorder = rec;
  pending->driver = &d;
  fmt::LaunchFacts &facts = pending->facts;
  facts.launch = launch;
  facts.enqueueFunction = shape.enqueueFunction;
  facts.kernelName = k.name;
  facts.thread = s.mirrors.threadNumber();
  facts.queue = s.mirrors.queueNumber(queue);
  facts.program = k.program->id;
  facts.programOrigin = k.program->origin;
  facts.buildOptions = k.program->options;
  facts.device = dev;

  if (std::string noSource = whyNoSource(*k.program, device); !noSource.empty()) {
    if (auto status = rec->appendNotCaptured(facts, noSource); !status)
      disableCapture(status.error());
    return nullptr;
  }

  fmt::Instantiation &inst = pending->inst;
  inst.endianness = dev.endianness;
  if (k.kernelFile.empty()) {
    auto kernelFile = rec->putKernelSource(k.name, k.program->source);
    if (!kernelFile) {
      disableCapture(kernelFile.error());
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
  // CLCAPTURE_DATA_PER_SHAPE: past a shape's first N launches, no new buffer bytes (ShapeQuota.h).
  std::optional<std::string> shapeLimit = s.shapes.admit(k, shape, s.mirrors, launch);
  if (backlogged && !shapeLimit)
    shapeLimit = "the capture's writer was " + std::to_string(LaunchWriter::kMaxPending) + " launches or " +
                 std::to_string(LaunchWriter::kMaxHeldBytes >> 20) +
                 " MiB of buffer bytes behind and had written nothing for 50 ms (a read waiting for the "
                 "device): no new bytes, so that the layer's memory stays bounded";
  CapturedArguments captured =
      captureArguments(k, s.mirrors, facts.queue, facts.thread, dev.endianness, s.budget, shapeLimit);
  inst.kernelArguments = std::move(captured.arguments);
  facts.arguments = std::move(captured.facts);
  // What bounds an image's pixel coordinates and how a sampler treats coordinates outside it: asked now,
  // while the handles are the application's current arguments.
  for (fmt::ArgumentFacts &af : facts.arguments) {
    const ArgValue *value = af.index < k.args.size() ? &k.args[af.index] : nullptr;
    if (!value || value->bytes.size() != sizeof(void *))
      continue;
    void *handle = nullptr;
    std::memcpy(&handle, value->bytes.data(), sizeof handle);
    if (af.kind == fmt::ArgumentKind::Image)
      af.image = askImageFacts(d, static_cast<cl_mem>(handle));
    else if (af.kind == fmt::ArgumentKind::Sampler)
      af.sampler = askSamplerFacts(d, static_cast<cl_sampler>(handle));
  }
  facts.aliases = std::move(captured.aliases);
  pending->reused = std::move(captured.reused);

  pending->calls = hostCalls(k, shape, enqueuedAt, facts.arguments, s.mirrors);

  pending->beforeReads = std::move(captured.reads);

  if (s.controls.dataAfter) // CLCAPTURE_DATA_AFTER
    planReadsAfter(*pending, captured.written, shapeLimit, s.budget);
  return pending;
}

void CaptureEngine::queueReleased(cl_command_queue queue) {
  std::lock_guard<std::mutex> lock(m_state->mutex);
  m_state->mirrors.queueReleased(queue);
  m_state->driver.queueReleased(queue);
}

void CaptureEngine::queueFinished(cl_command_queue queue) {
  std::uint64_t id = 0;
  {
    std::lock_guard<std::mutex> lock(m_state->mutex);
    auto it = m_state->mirrors.queues.find(queue);
    if (it == m_state->mirrors.queues.end())
      return; // nothing of this queue was captured
    id = it->second;
  }
  LaunchWriter::instance().waitForQueue(id, 10.0);
}

void CaptureEngine::drain() {
  LaunchWriter::instance().drain(10.0);
}

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
    LaunchWriter::instance().started(launch->facts.queue, launch->facts.launch);
  if (!launch->discard && !launch->afterReads.empty())
    enqueueAfterSnapshots(d, launch);
  if (launch->snapshots.empty()) {
    if (!launch->discard)
      LaunchWriter::instance().push(launch);
    return;
  }
  // From here the writer thread polls the reads and takes the launch (even a discarded one) once done.
  watchSnapshots(launch);
}

} // namespace clcapture::layer
