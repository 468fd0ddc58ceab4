//===- Replayer.cpp - Runs launch plans on one device ---------------------===//

#include "clcapture/replay/Replayer.h"

#include "clcapture/format/CaptureBlobs.h"
#include "clcapture/opencl/InfoString.h"

#include <chrono>
#include <fstream>
#include <iterator>
#include <sstream>

namespace clcapture::replay {

namespace fs = std::filesystem;
namespace fmt = clcapture::format;

namespace {

/// A capture file: loose, or for data/<hash>.bin a record of the capture's packs (CaptureBlobs.h).
std::vector<std::uint8_t> readFile(const fs::path &path, bool &ok) {
  auto bytes = fmt::readCaptureFile(path);
  ok = static_cast<bool>(bytes);
  if (!ok)
    return {};
  return std::vector<std::uint8_t>(bytes->begin(), bytes->end());
}

/// The first lines of a build log, enough to show the error.
std::string firstLines(const std::string &text, std::size_t count) {
  std::istringstream in(text);
  std::string line, out;
  for (std::size_t n = 0; n < count && std::getline(in, line);) {
    if (line.empty())
      continue;
    out += (out.empty() ? "" : "\n  ") + line;
    ++n;
  }
  return out;
}

/// Everything one launch created, released in reverse order whatever happens.
class LaunchObjects {
public:
  explicit LaunchObjects(const OpenClDriver &driver) : m_driver(driver) {}
  ~LaunchObjects() {
    for (auto it = m_memory.rbegin(); it != m_memory.rend(); ++it)
      if (*it)
        m_driver.api(*it).clReleaseMemObject(*it);
    if (m_kernel)
      m_driver.api(m_kernel).clReleaseKernel(m_kernel);
  }
  LaunchObjects(const LaunchObjects &) = delete;
  LaunchObjects &operator=(const LaunchObjects &) = delete;

  cl_kernel m_kernel = nullptr;
  std::vector<cl_mem> m_memory;

private:
  const OpenClDriver &m_driver;
};

std::string kernelArgString(const cl_icd_dispatch &api, cl_kernel kernel, cl_uint index,
                            cl_kernel_arg_info what) {
  return opencl::infoString([&](std::size_t size, void *value, std::size_t *sizeRet) {
    return api.clGetKernelArgInfo(kernel, index, what, size, value, sizeRet);
  });
}

/// What the driver says about an argument (OpenCL 1.2 §5.7.3, answered for programs built with
/// -cl-kernel-arg-info); empty where it does not answer.
ArgQualifiers driverQualifiers(const cl_icd_dispatch &api, cl_kernel kernel, cl_uint index) {
  ArgQualifiers q;
  if (!api.clGetKernelArgInfo)
    return q;
  cl_kernel_arg_address_qualifier address = 0;
  if (api.clGetKernelArgInfo(kernel, index, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof address, &address,
                             nullptr) == CL_SUCCESS) {
    switch (address) {
    case CL_KERNEL_ARG_ADDRESS_GLOBAL:
      q.addressQualifier = "global";
      break;
    case CL_KERNEL_ARG_ADDRESS_LOCAL:
      q.addressQualifier = "local";
      break;
    case CL_KERNEL_ARG_ADDRESS_CONSTANT:
      q.addressQualifier = "constant";
      break;
    default:
      q.addressQualifier = "private";
      break;
    }
  }
  cl_kernel_arg_type_qualifier type = 0;
  if (api.clGetKernelArgInfo(kernel, index, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof type, &type, nullptr) ==
      CL_SUCCESS)
    q.isConst = (type & CL_KERNEL_ARG_TYPE_CONST) != 0;
  std::string typeName = kernelArgString(api, kernel, index, CL_KERNEL_ARG_TYPE_NAME);
  if (!typeName.empty())
    q.typeName = typeName;
  std::string name = kernelArgString(api, kernel, index, CL_KERNEL_ARG_NAME);
  if (!name.empty())
    q.name = name;
  return q;
}

std::string argLabel(const ArgPlan &arg) {
  return "argument " + std::to_string(arg.index) + " (" + arg.name + ")";
}

LaunchResult failed(LaunchResult r, LaunchStatus status, std::string reason) {
  r.status = status;
  r.reason = std::move(reason);
  r.buffers.clear();
  return r;
}

/// Why a step stopped a launch.
struct Stop {
  LaunchStatus status;
  std::string reason;
};
using StepOutcome = std::optional<Stop>;

Stop deviceError(std::string reason) {
  return Stop{LaunchStatus::Error, std::move(reason)};
}

/// The buffers the kernel may write, with the memory objects bound to them, in argument order.
using WrittenBuffers = std::vector<std::pair<const ArgPlan *, cl_mem>>;

StepOutcome endiannessMismatch(const LaunchPlan &plan, bool deviceLittle) {
  bool captureLittle = plan.endianness == fmt::Endianness::Little;
  if (captureLittle == deviceLittle)
    return std::nullopt;
  return Stop{LaunchStatus::NotReplayable,
              std::string("captured on a ") + (captureLittle ? "little" : "big") +
                  "-endian device; this device is " + (deviceLittle ? "little" : "big") +
                  "-endian, so the captured bytes would mean other values"};
}

/// The kernel, which must take as many arguments as the capture gives.
StepOutcome createKernel(const cl_icd_dispatch &api, cl_program program, const LaunchPlan &plan,
                         LaunchObjects &objects) {
  cl_int status = CL_SUCCESS;
  objects.m_kernel = api.clCreateKernel(program, plan.entryPoint.c_str(), &status);
  if (!objects.m_kernel || status != CL_SUCCESS)
    return deviceError("clCreateKernel(" + plan.entryPoint + ") failed with " + errorName(status));
  cl_uint numArgs = 0;
  if (api.clGetKernelInfo(objects.m_kernel, CL_KERNEL_NUM_ARGS, sizeof numArgs, &numArgs, nullptr) ==
          CL_SUCCESS &&
      numArgs != plan.args.size())
    return deviceError("the kernel takes " + std::to_string(numArgs) + " arguments, the capture gives " +
                       std::to_string(plan.args.size()));
  return std::nullopt;
}

/// Memory objects, parents before their sub-buffers (LaunchPlan's order).
StepOutcome createMemory(const cl_icd_dispatch &api, cl_context context, const LaunchPlan &plan,
                         std::uint64_t align, LaunchObjects &objects) {
  for (std::size_t m = 0; m < plan.memory.size(); ++m) {
    const MemorySpec &spec = plan.memory[m];
    cl_int status = CL_SUCCESS;
    cl_mem mem = nullptr;
    if (!spec.parent) {
      mem = api.clCreateBuffer(context, spec.flags | CL_MEM_COPY_HOST_PTR, spec.size,
                               const_cast<std::uint8_t *>(spec.initial.data()), &status);
    } else {
      std::string users;
      for (const ArgPlan &arg : plan.args)
        if (arg.role == ArgRole::Memory && arg.memory == m)
          users += (users.empty() ? "" : ", ") + argLabel(arg);
      if (spec.origin % align != 0)
        return Stop{LaunchStatus::NotReplayable,
                    users + ": a sub-buffer " + std::to_string(spec.origin) +
                        " bytes into its parent; this device aligns sub-buffers to " + std::to_string(align) +
                        " bytes (CL_DEVICE_MEM_BASE_ADDR_ALIGN), so the captured aliasing cannot be rebuilt"};
      cl_buffer_region region{spec.origin, spec.size};
      cl_mem parent = objects.m_memory[*spec.parent];
      mem = api.clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &status);
    }
    if (!mem || status != CL_SUCCESS)
      return deviceError(std::string(spec.parent ? "clCreateSubBuffer" : "clCreateBuffer") + " of " +
                         std::to_string(spec.size) + " bytes failed with " + errorName(status));
    objects.m_memory.push_back(mem);
  }
  return std::nullopt;
}

/// One argument set on the kernel; a buffer the kernel may write goes into `written` and `buffers`.
StepOutcome setArgument(const cl_icd_dispatch &api, const LaunchPlan &plan, const ArgPlan &arg,
                        std::uint32_t addressBits, const LaunchObjects &objects, WrittenBuffers &written,
                        std::vector<BufferResult> &buffers) {
  cl_kernel kernel = objects.m_kernel;
  ArgQualifiers q = driverQualifiers(api, kernel, arg.index);
  std::string label = argLabel(arg);
  cl_int status = CL_SUCCESS;
  switch (arg.role) {
  case ArgRole::Scalar: {
    auto bytes = scalarBytes(arg.value, q.typeName ? q.typeName : arg.typeName, addressBits, plan.endianness);
    if (!bytes)
      return deviceError(label + ": " + bytes.error());
    status = api.clSetKernelArg(kernel, arg.index, bytes->size(), bytes->data());
    if (status != CL_SUCCESS)
      return deviceError(label + ": clSetKernelArg with the " + std::to_string(bytes->size()) + " bytes of " +
                         arg.value + (q.typeName ? " (type " + *q.typeName + ")" : std::string()) +
                         " failed with " + errorName(status));
    break;
  }
  case ArgRole::Local:
    status = api.clSetKernelArg(kernel, arg.index, arg.size, nullptr);
    break;
  case ArgRole::Null: {
    cl_mem none = nullptr;
    status = api.clSetKernelArg(kernel, arg.index, sizeof none, &none);
    break;
  }
  case ArgRole::Memory: {
    cl_mem mem = objects.m_memory[arg.memory];
    status = api.clSetKernelArg(kernel, arg.index, sizeof mem, &mem);
    if (mayWrite(arg, q))
      written.emplace_back(&arg, mem);
    break;
  }
  }
  if (status != CL_SUCCESS)
    return deviceError(label + ": clSetKernelArg failed with " + errorName(status));
  if (arg.role == ArgRole::Memory && mayWrite(arg, q)) {
    BufferResult b;
    b.argument = arg.index;
    b.name = q.name ? *q.name : arg.name;
    b.size = arg.size;
    std::optional<std::string> type = q.typeName ? q.typeName : arg.typeName;
    if (type)
      b.type = elementTypeOf(*type);
    buffers.push_back(std::move(b));
  }
  return std::nullopt;
}

/// The global and local sizes and the offset as clEnqueueNDRangeKernel takes them.
struct NdRange {
  explicit NdRange(const LaunchPlan &plan)
      : dims(static_cast<cl_uint>(plan.globalSize.size())),
        global(plan.globalSize.begin(), plan.globalSize.end()) {
    if (plan.localSize)
      local.assign(plan.localSize->begin(), plan.localSize->end());
    if (plan.globalOffset)
      offset.assign(plan.globalOffset->begin(), plan.globalOffset->end());
  }
  cl_uint dims;
  std::vector<std::size_t> global, local, offset;
};

/// The same inputs again for run `run`: every buffer gets its starting bytes back (sub-buffers through
/// their parent).
StepOutcome restoreInputs(const cl_icd_dispatch &api, cl_command_queue queue, const LaunchPlan &plan,
                          const LaunchObjects &objects, std::uint32_t run) {
  for (std::size_t m = 0; m < plan.memory.size(); ++m) {
    const MemorySpec &spec = plan.memory[m];
    if (spec.parent)
      continue;
    cl_int status = api.clEnqueueWriteBuffer(queue, objects.m_memory[m], CL_TRUE, 0, spec.size,
                                             spec.initial.data(), 0, nullptr, nullptr);
    if (status != CL_SUCCESS)
      return deviceError("restoring the inputs for run " + std::to_string(run) + " failed with " +
                         errorName(status));
  }
  return std::nullopt;
}

/// One launch, waited for; `seconds`: enqueue to completion.
StepOutcome launchOnce(const cl_icd_dispatch &api, cl_command_queue queue, cl_kernel kernel,
                       const LaunchPlan &plan, const NdRange &range, double &seconds) {
  auto start = std::chrono::steady_clock::now();
  cl_int status = CL_SUCCESS;
  if (plan.task)
    status = api.clEnqueueTask(queue, kernel, 0, nullptr, nullptr);
  else
    status = api.clEnqueueNDRangeKernel(
        queue, kernel, range.dims, range.offset.empty() ? nullptr : range.offset.data(), range.global.data(),
        range.local.empty() ? nullptr : range.local.data(), 0, nullptr, nullptr);
  if (status != CL_SUCCESS)
    return deviceError(std::string(plan.task ? "clEnqueueTask" : "clEnqueueNDRangeKernel") + " failed with " +
                       errorName(status));
  status = api.clFinish(queue);
  auto end = std::chrono::steady_clock::now();
  if (status != CL_SUCCESS)
    return deviceError("the launch failed: clFinish gave " + errorName(status));
  seconds = std::chrono::duration<double>(end - start).count();
  return std::nullopt;
}

/// Every written buffer read back: run 1's bytes are kept, a later run's are compared with them.
StepOutcome readBack(const cl_icd_dispatch &api, cl_command_queue queue, const WrittenBuffers &written,
                     std::vector<BufferResult> &buffers, std::uint32_t run, fmt::Endianness endianness) {
  for (std::size_t w = 0; w < written.size(); ++w) {
    BufferResult &b = buffers[w];
    std::vector<std::uint8_t> bytes(b.size);
    cl_int status = api.clEnqueueReadBuffer(queue, written[w].second, CL_TRUE, 0, b.size, bytes.data(), 0,
                                            nullptr, nullptr);
    if (status != CL_SUCCESS)
      return deviceError(argLabel(*written[w].first) + ": reading it back failed with " + errorName(status));
    if (run == 1) {
      b.bytes = std::move(bytes);
      continue;
    }
    // Between runs every bit counts: a value that changes from run to run is what a race looks like.
    ElementType exact = b.type;
    if (exact.kind == ValueKind::Float)
      exact.kind = ValueKind::Integer;
    Comparison c = compareBuffers(bytes, b.bytes, exact, 0, endianness);
    if (!c.same) {
      if (b.runsDiffering++ == 0) {
        b.betweenRuns = std::move(c);
        b.firstDifferingRun = run;
      }
    }
  }
  return std::nullopt;
}

} // namespace

std::string errorName(cl_int code) {
  static const std::pair<cl_int, const char *> kNames[] = {
      {CL_DEVICE_NOT_FOUND, "CL_DEVICE_NOT_FOUND"},
      {CL_MEM_OBJECT_ALLOCATION_FAILURE, "CL_MEM_OBJECT_ALLOCATION_FAILURE"},
      {CL_OUT_OF_RESOURCES, "CL_OUT_OF_RESOURCES"},
      {CL_OUT_OF_HOST_MEMORY, "CL_OUT_OF_HOST_MEMORY"},
      {CL_BUILD_PROGRAM_FAILURE, "CL_BUILD_PROGRAM_FAILURE"},
      {CL_MISALIGNED_SUB_BUFFER_OFFSET, "CL_MISALIGNED_SUB_BUFFER_OFFSET"},
      {CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST"},
      {CL_INVALID_VALUE, "CL_INVALID_VALUE"},
      {CL_INVALID_DEVICE, "CL_INVALID_DEVICE"},
      {CL_INVALID_CONTEXT, "CL_INVALID_CONTEXT"},
      {CL_INVALID_COMMAND_QUEUE, "CL_INVALID_COMMAND_QUEUE"},
      {CL_INVALID_MEM_OBJECT, "CL_INVALID_MEM_OBJECT"},
      {CL_INVALID_BUILD_OPTIONS, "CL_INVALID_BUILD_OPTIONS"},
      {CL_INVALID_PROGRAM_EXECUTABLE, "CL_INVALID_PROGRAM_EXECUTABLE"},
      {CL_INVALID_KERNEL_NAME, "CL_INVALID_KERNEL_NAME"},
      {CL_INVALID_KERNEL, "CL_INVALID_KERNEL"},
      {CL_INVALID_ARG_INDEX, "CL_INVALID_ARG_INDEX"},
      {CL_INVALID_ARG_VALUE, "CL_INVALID_ARG_VALUE"},
      {CL_INVALID_ARG_SIZE, "CL_INVALID_ARG_SIZE"},
      {CL_INVALID_KERNEL_ARGS, "CL_INVALID_KERNEL_ARGS"},
      {CL_INVALID_WORK_DIMENSION, "CL_INVALID_WORK_DIMENSION"},
      {CL_INVALID_WORK_GROUP_SIZE, "CL_INVALID_WORK_GROUP_SIZE"},
      {CL_INVALID_WORK_ITEM_SIZE, "CL_INVALID_WORK_ITEM_SIZE"},
      {CL_INVALID_GLOBAL_OFFSET, "CL_INVALID_GLOBAL_OFFSET"},
      {CL_INVALID_BUFFER_SIZE, "CL_INVALID_BUFFER_SIZE"},
      {CL_INVALID_GLOBAL_WORK_SIZE, "CL_INVALID_GLOBAL_WORK_SIZE"},
  };
  for (const auto &[value, name] : kNames)
    if (value == code)
      return std::string(name) + " (" + std::to_string(code) + ")";
  return "status " + std::to_string(code);
}

Replayer::Replayer(const OpenClDriver &driver, ReplaySettings settings)
    : m_driver(driver), m_settings(std::move(settings)) {}

Replayer::~Replayer() {
  for (auto &[key, program] : m_programs)
    m_driver.api(program).clReleaseProgram(program);
  if (m_queue)
    m_driver.api(m_queue).clReleaseCommandQueue(m_queue);
  if (m_context)
    m_driver.api(m_context).clReleaseContext(m_context);
}

fmt::Status Replayer::ensureQueue() {
  if (m_queue)
    return {};
  const cl_icd_dispatch &api = m_driver.api(m_driver.device());
  cl_device_id device = m_driver.device();
  cl_context_properties properties[] = {CL_CONTEXT_PLATFORM,
                                        reinterpret_cast<cl_context_properties>(m_driver.platform()), 0};
  cl_int status = CL_SUCCESS;
  m_context = api.clCreateContext(properties, 1, &device, nullptr, nullptr, &status);
  if (!m_context || status != CL_SUCCESS)
    return fmt::fail("clCreateContext failed with " + errorName(status));
  // An in-order queue: the writes of a later run are ordered after the previous run's reads.
  m_queue = m_driver.api(m_context).clCreateCommandQueue(m_context, device, 0, &status);
  if (!m_queue || status != CL_SUCCESS)
    return fmt::fail("clCreateCommandQueue failed with " + errorName(status));
  return {};
}

fmt::Expected<cl_program> Replayer::program(const LaunchPlan &plan) {
  // The driver must say which arguments are const (PoCL answers clGetKernelArgInfo only with this option).
  std::string options = plan.buildOptions;
  if (options.find("-cl-kernel-arg-info") == std::string::npos)
    options += options.empty() ? "-cl-kernel-arg-info" : " -cl-kernel-arg-info";
  auto key = std::make_pair(plan.kernelFile.string(), options);
  if (auto it = m_programs.find(key); it != m_programs.end())
    return it->second;
  bool ok = false;
  std::vector<std::uint8_t> bytes = readFile(plan.kernelFile, ok);
  if (!ok)
    return fmt::fail("cannot read the kernel file " + plan.kernelFile.string());
  std::string source(bytes.begin(), bytes.end());
  const char *text = source.c_str();
  std::size_t length = source.size();
  cl_int status = CL_SUCCESS;
  cl_program program =
      m_driver.api(m_context).clCreateProgramWithSource(m_context, 1, &text, &length, &status);
  if (!program || status != CL_SUCCESS)
    return fmt::fail("clCreateProgramWithSource failed with " + errorName(status));
  const cl_icd_dispatch &api = m_driver.api(program);
  cl_device_id device = m_driver.device();
  status = api.clBuildProgram(program, 1, &device, options.c_str(), nullptr, nullptr);
  if (status != CL_SUCCESS) {
    std::string log = opencl::infoString([&](std::size_t size, void *value, std::size_t *sizeRet) {
      return api.clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, value, sizeRet);
    });
    api.clReleaseProgram(program);
    std::string first = firstLines(log, 8);
    return fmt::fail("the kernel did not compile (" + errorName(status) + ", options '" + options + "')" +
                     (first.empty() ? std::string() : ":\n  " + first));
  }
  m_programs.emplace(key, program);
  return program;
}

LaunchResult Replayer::replay(const LaunchPlan &plan) {
  LaunchResult r;
  r.index = plan.index;
  r.launch = plan.launch;
  r.entryPoint = plan.entryPoint;
  r.notes = plan.notes;
  auto stopped = [&r](Stop stop) { return failed(std::move(r), stop.status, std::move(stop.reason)); };
  if (auto stop = endiannessMismatch(plan, m_driver.littleEndian()))
    return stopped(std::move(*stop));
  if (auto queue = ensureQueue(); !queue)
    return failed(std::move(r), LaunchStatus::Error, queue.error());
  auto program = this->program(plan);
  if (!program)
    return failed(std::move(r), LaunchStatus::Error, program.error());

  LaunchObjects objects(m_driver);
  const cl_icd_dispatch &api = m_driver.api(*program);
  WrittenBuffers written;
  if (auto stop = createKernel(api, *program, plan, objects))
    return stopped(std::move(*stop));
  if (auto stop = createMemory(api, m_context, plan, m_driver.baseAddressAlignBytes(), objects))
    return stopped(std::move(*stop));
  for (const ArgPlan &arg : plan.args)
    if (auto stop = setArgument(api, plan, arg, m_driver.addressBits(), objects, written, r.buffers))
      return stopped(std::move(*stop));

  const NdRange range(plan);
  const cl_icd_dispatch &queueApi = m_driver.api(m_queue);
  for (std::uint32_t run = 1; run <= m_settings.repeat; ++run) {
    if (run > 1)
      if (auto stop = restoreInputs(queueApi, m_queue, plan, objects, run))
        return stopped(std::move(*stop));
    double seconds = 0;
    if (auto stop = launchOnce(queueApi, m_queue, objects.m_kernel, plan, range, seconds))
      return stopped(std::move(*stop));
    if (run == 1)
      r.seconds = seconds;
    r.runSeconds.push_back(seconds);
    r.runs = run;
    if (auto stop = readBack(queueApi, m_queue, written, r.buffers, run, plan.endianness))
      return stopped(std::move(*stop));
  }
  if (m_settings.compare)
    compareOutputs(r, plan);
  for (const BufferResult &b : r.buffers)
    if ((b.againstCapture && !b.againstCapture->same) || b.runsDiffering > 0)
      r.status = LaunchStatus::Differs;
  return r;
}

void Replayer::compareOutputs(LaunchResult &result, const LaunchPlan &plan) const {
  for (BufferResult &b : result.buffers) {
    const ArgPlan &arg = plan.args[b.argument];
    if (!arg.dataAfter) {
      b.nothingToCompare = arg.dataAfterSkipped
                               ? "nothing to compare (data_after_skipped: " + *arg.dataAfterSkipped + ")"
                               : std::string("nothing to compare (captured without CLCAPTURE_DATA_AFTER)");
      continue;
    }
    bool ok = false;
    std::vector<std::uint8_t> captured = readFile(m_settings.folder / *arg.dataAfter, ok);
    if (!ok) {
      b.nothingToCompare = "nothing to compare (cannot read " + *arg.dataAfter + ")";
      continue;
    }
    b.againstCapture = compareBuffers(b.bytes, captured, b.type, m_settings.ulp, plan.endianness);
  }
}

} // namespace clcapture::replay
