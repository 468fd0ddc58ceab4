//===- StubApp.cpp - Calls every forwarded OpenCL entry point and logs what it sent -===//
//
// The app half of the Khronos ICD loader's test pattern. Linked with -lOpenCL like any application, it
// runs against the stub driver (StubDriver.cpp), directly or through libclcapture.so, and appends one line
// per call to the log named by argv[1]: the call with its arguments as sent, then what came back. The stub
// logs the same calls as received; compare_logs.py says whether they match.
//
//   1. set-up: a platform, device, context, queue, buffer (from host bytes), program, kernel, sampler and
//      events, then one kernel launch the capture layer must record (its arguments set as a real app would);
//   2. the sweep (AppSweep_generated.inc): every entry point, twice — first answered with success, then
//      with an error code scripted in the stub (clStubScriptCLCSTUB), which the app must get back unchanged.
//
// Exit status: 0 when every call returned what the stub gave, 1 otherwise (with one line per failure).
//
//===----------------------------------------------------------------------===//

#include "StubCalls_generated.h"

#include <CL/cl.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace {

/// The type of parameter I of the dispatch member's function type F: the app's arguments are typed by
/// CL/cl_icd.h, so a generated argument of the wrong type does not compile.
template <typename F, std::size_t I> struct ArgOf;
template <typename R, typename... A, std::size_t I> struct ArgOf<R(CL_API_CALL *)(A...), I> {
  using type = std::tuple_element_t<I, std::tuple<A...>>;
};
template <typename F, std::size_t I> using Arg = typename ArgOf<F, I>::type;

template <typename T>
constexpr bool isHandle =
    std::is_same_v<T, cl_platform_id> || std::is_same_v<T, cl_device_id> || std::is_same_v<T, cl_context> ||
    std::is_same_v<T, cl_command_queue> || std::is_same_v<T, cl_mem> || std::is_same_v<T, cl_program> ||
    std::is_same_v<T, cl_kernel> || std::is_same_v<T, cl_event> || std::is_same_v<T, cl_sampler>;

/// Storage the app hands out as argument data: converts to whatever pointer type the parameter has.
struct Raw {
  unsigned char *p;
  template <typename P> operator P() const { return reinterpret_cast<P>(p); }
};

class App {
public:
  explicit App(std::FILE *log) : m_log(log) {}

  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_mem buffer = nullptr;
  cl_program program = nullptr;
  cl_kernel kernel = nullptr;
  cl_sampler sampler = nullptr;
  cl_event events[2] = {nullptr, nullptr};
  void(CL_API_CALL *script)(const char *, cl_int) = nullptr;
  int failures = 0;
  static int callbacks;

  void record(const std::string &in, const std::string &out) {
    std::fprintf(m_log, "%s\n", stub::joined(in, out).c_str());
    std::fflush(m_log);
  }

  void check(bool ok, const std::string &what) {
    if (!ok) {
      std::fprintf(stderr, "stub-app: FAIL: %s\n", what.c_str());
      ++failures;
    }
  }

  /// Pass 1 makes the stub fail the next call of `entry` with a code of its own.
  void scriptFailure(const char *entry, int pass, int index) {
    m_expected = pass == 1 ? -20000 - index : CL_SUCCESS;
    if (pass == 1)
      script(entry, m_expected);
  }

  /// The status the app got back must be the one the stub chose.
  void checkCode(const char *entry, cl_int got) {
    check(got == m_expected, std::string(entry) + " returned " + std::to_string(got) + ", the stub gave " +
                                 std::to_string(m_expected));
  }

  static void CL_CALLBACK eventCallback(cl_event, cl_int, void *) { ++callbacks; }

  template <typename T> T handle(int i) {
    if constexpr (std::is_same_v<T, cl_platform_id>)
      return platform;
    else if constexpr (std::is_same_v<T, cl_device_id>)
      return device;
    else if constexpr (std::is_same_v<T, cl_context>)
      return context;
    else if constexpr (std::is_same_v<T, cl_command_queue>)
      return queue;
    else if constexpr (std::is_same_v<T, cl_mem>)
      return buffer;
    else if constexpr (std::is_same_v<T, cl_program>)
      return program;
    else if constexpr (std::is_same_v<T, cl_kernel>)
      return kernel;
    else if constexpr (std::is_same_v<T, cl_sampler>)
      return sampler;
    else
      return events[i % 2];
  }

  /// A distinct address inside the app's scratch memory (host pointers, user data, never-called callbacks).
  template <typename T> T opaque(int entry, int param, int pass) {
    static_assert(std::is_pointer_v<T>, "an opaque argument is a pointer");
    auto offset = static_cast<std::size_t>((entry * 16 + param) * 2 + pass) % sizeof m_scratch;
    auto bits = reinterpret_cast<std::uintptr_t>(m_scratch + offset);
    T v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }

  /// A function name ending in the stub's ICD suffix: ocl-icd hands only those to the driver.
  const char *probeName(int pass) {
    m_texts.push_back("clProbe" + std::to_string(m_probes++) + "Pass" + std::to_string(pass) + "CLCSTUB");
    return m_texts.back().c_str();
  }

  static unsigned long long distinct(int entry, int param, int pass) {
    return 0x5A0000ULL + static_cast<unsigned long long>(entry * 0x100 + param * 2 + pass);
  }

  /// Counts and sizes: small, so the data they describe stays small, and different in each pass.
  static cl_uint small(int pass) { return 2u + static_cast<cl_uint>(pass); }

  const char *text(const std::string &label, int pass) {
    m_texts.push_back(label + "#" + std::to_string(pass));
    return m_texts.back().c_str();
  }

  const char **texts(const std::string &label, int pass, cl_uint n) {
    auto **out = alloc<const char *>(n);
    for (cl_uint i = 0; i < n; ++i)
      out[i] = text(label + "[" + std::to_string(i) + "]", pass);
    return out;
  }

  /// One full length, one 0 (NUL-terminated), then shortened lengths: the stub must see the same cut.
  const size_t *sourceLengths(const char **strings, cl_uint n) {
    auto *out = alloc<size_t>(n);
    for (cl_uint i = 0; i < n; ++i)
      out[i] = i == 1 ? 0 : std::strlen(strings[i]) - i;
    return out;
  }

  /// base, 2 base, 3 base: global sizes from one base, local sizes from another that divides it.
  const size_t *workSizes(cl_uint n, int base) {
    auto *out = alloc<size_t>(n);
    for (cl_uint i = 0; i < n; ++i)
      out[i] = static_cast<size_t>(base) * (i + 1);
    return out;
  }

  const size_t *binaryLengths(cl_uint n) {
    auto *out = alloc<size_t>(n);
    for (cl_uint i = 0; i < n; ++i)
      out[i] = 3 + i;
    return out;
  }

  const unsigned char **binaries(int entry, int param, int pass, cl_uint n, const size_t *lengths) {
    auto **out = alloc<const unsigned char *>(n);
    for (cl_uint i = 0; i < n; ++i)
      out[i] = bytes(entry, param * 8 + static_cast<int>(i), pass, lengths[i]);
    return out;
  }

  Raw bytes(int entry, int param, int pass, size_t n) {
    auto *out = alloc<unsigned char>(n);
    for (size_t i = 0; i < n; ++i)
      out[i] = static_cast<unsigned char>(distinct(entry, param, pass) + i * 11);
    return Raw{out};
  }

  template <typename T> T array(int entry, int param, int pass, size_t n) {
    using E = std::remove_const_t<std::remove_pointer_t<T>>;
    E *out = alloc<E>(n);
    for (size_t i = 0; i < n; ++i) {
      if constexpr (isHandle<E>)
        out[i] = handle<E>(static_cast<int>(i));
      else if constexpr (std::is_pointer_v<E>)
        out[i] = opaque<E>(entry, param * 8 + static_cast<int>(i), pass);
      else
        out[i] = static_cast<E>(distinct(entry, param, pass) + i * 0x1000);
    }
    return out;
  }

  /// Names the platform (loaders pick the driver from it: clCreateContext, clGetGLContextInfoKHR), then a
  /// distinctive pair, then the terminating zero.
  template <typename T> T propertyList(int entry, int param, int pass) {
    using E = std::remove_const_t<std::remove_pointer_t<T>>;
    E *out = alloc<E>(5);
    out[0] = static_cast<E>(CL_CONTEXT_PLATFORM);
    out[1] = static_cast<E>(reinterpret_cast<std::intptr_t>(platform));
    out[2] = static_cast<E>(distinct(entry, param, pass));
    out[3] = static_cast<E>(distinct(entry, param, pass) + 0x1000);
    out[4] = 0;
    return out;
  }

  template <typename T> T out() { return alloc<std::remove_pointer_t<T>>(1); }
  template <typename T> T outArray(size_t n) { return alloc<std::remove_pointer_t<T>>(n); }
  void *outBytes(size_t n) {
    auto *out = alloc<unsigned char>(n);
    std::memset(out, 0xEE, n);
    return out;
  }

private:
  /// Zeroed, suitably aligned, alive until the app exits.
  template <typename T> T *alloc(size_t n) {
    m_storage.emplace_back(new std::max_align_t[(n * sizeof(T)) / sizeof(std::max_align_t) + 1]());
    return reinterpret_cast<T *>(m_storage.back().get());
  }

  std::FILE *m_log;
  cl_int m_expected = CL_SUCCESS;
  int m_probes = 0;
  unsigned char m_scratch[8192] = {};
  std::deque<std::string> m_texts;
  std::deque<std::unique_ptr<std::max_align_t[]>> m_storage;
};

int App::callbacks = 0;

#include "AppSweep_generated.inc"

/// One logged call through the loader: what was sent, the call, what came back.
#define CALL(name, ...)                                                                                      \
  [&] {                                                                                                      \
    const std::string in = describeIn_##name(__VA_ARGS__);                                                   \
    auto ret = ::name(__VA_ARGS__);                                                                          \
    app.record(in, describeOut_##name(ret, __VA_ARGS__));                                                    \
    return ret;                                                                                              \
  }()

const char *const kSource = "kernel void stub_kernel(global int *out, int scale, local float *scratch) {\n"
                            "  out[get_global_id(0)] *= scale;\n"
                            "}\n";

/// The objects the sweep uses, and one launch as a real application makes it (the capture layer must
/// record it: compare_logs.py checks captures.json).
bool setUp(App &app) {
  cl_uint count = 0;
  if (clGetPlatformIDs(1, &app.platform, &count) != CL_SUCCESS || count != 1) {
    std::fprintf(stderr, "stub-app: FAIL: expected exactly one platform (the stub), got %u\n", count);
    return false;
  }
  app.script = reinterpret_cast<void(CL_API_CALL *)(const char *, cl_int)>(
      CALL(clGetExtensionFunctionAddress, "clStubScriptCLCSTUB"));
  app.check(app.script != nullptr, "the stub's clStubScriptCLCSTUB is reachable through the loader");
  if (!app.script)
    return false;
  cl_int err = CL_SUCCESS;
  CALL(clGetDeviceIDs, app.platform, CL_DEVICE_TYPE_ALL, 1, &app.device, nullptr);
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(app.platform),
                                   0};
  app.context = CALL(clCreateContext, props, 1, &app.device, nullptr, nullptr, &err);
  app.queue = CALL(clCreateCommandQueue, app.context, app.device, 0, &err);
  static int init[16];
  for (int i = 0; i < 16; ++i)
    init[i] = 1000 + 3 * i;
  app.buffer =
      CALL(clCreateBuffer, app.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init, init, &err);
  const char *source = kSource;
  app.program = CALL(clCreateProgramWithSource, app.context, 1, &source, nullptr, &err);
  CALL(clBuildProgram, app.program, 1, &app.device, "-DSTUB_SETUP=1", nullptr, nullptr);
  app.kernel = CALL(clCreateKernel, app.program, "stub_kernel", &err);
  app.sampler = CALL(clCreateSampler, app.context, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR, &err);
  app.events[1] = CALL(clCreateUserEvent, app.context, &err);
  app.check(err == CL_SUCCESS && app.context && app.queue && app.buffer && app.program && app.kernel &&
                app.sampler && app.events[1],
            "set-up: every object created");
  // One more reference each: the sweep's successful releases must not end them for the capture layer.
  CALL(clRetainProgram, app.program);
  CALL(clRetainKernel, app.kernel);
  CALL(clRetainMemObject, app.buffer);
  CALL(clRetainCommandQueue, app.queue);
  cl_int scale = 0x5A5A;
  app.check(CALL(clSetKernelArg, app.kernel, 0, sizeof(cl_mem), &app.buffer) == CL_SUCCESS,
            "clSetKernelArg 0");
  app.check(CALL(clSetKernelArg, app.kernel, 1, sizeof scale, &scale) == CL_SUCCESS, "clSetKernelArg 1");
  app.check(CALL(clSetKernelArg, app.kernel, 2, 32, nullptr) == CL_SUCCESS, "clSetKernelArg 2 (local)");
  size_t global[] = {16}, local[] = {4};
  app.check(CALL(clEnqueueNDRangeKernel, app.queue, app.kernel, 1, nullptr, global, local, 0, nullptr,
                 &app.events[0]) == CL_SUCCESS,
            "the set-up launch");
  app.check(CALL(clFinish, app.queue) == CL_SUCCESS, "clFinish");
  return app.failures == 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: stub-app LOG\n");
    return 2;
  }
  std::FILE *log = std::fopen(argv[1], "w");
  if (!log) {
    std::perror(argv[1]);
    return 2;
  }
  App app(log);
  if (!setUp(app))
    return 1;
  sweepAll(app, 0);
  sweepAll(app, 1);
  app.check(App::callbacks >= 1, "the stub ran the app's event callback");
  std::fclose(log);
  return app.failures ? 1 : 0;
}
