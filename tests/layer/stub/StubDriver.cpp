//===- StubDriver.cpp - An OpenCL ICD that logs every call it receives -===//
//
// The stub driver of the Khronos ICD loader's test suite, for clcapture: a complete ICD
// (clIcdGetPlatformIDsKHR, clGetExtensionFunctionAddress, clGetPlatformInfo answering cl_khr_icd and its
// suffix) whose every dispatch-table entry (generated: StubEntries_generated.inc) appends one line to
// $CLCAPTURE_STUB_LOG: the entry, every argument as received, then what it gave back. It answers the few
// queries a loader and the capture engine need (platform, device, queue, kernel and kernel-argument facts;
// buffer reads; event callbacks) and fills every other out-parameter with distinctive values; each call
// returns CL_SUCCESS unless the app scripted an error for it (clStubScriptCLCSTUB, reached through
// clGetExtensionFunctionAddress).
//
//===----------------------------------------------------------------------===//

#include "StubCalls_generated.h"

#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#define STUB_EXPORT extern "C" __attribute__((visibility("default")))

namespace {
cl_icd_dispatch g_table{};
}

// cl_khr_icd: every object starts with the dispatch table pointer; the serial tells objects apart in the log.
#define STUB_OBJECT(type)                                                                                    \
  struct type {                                                                                              \
    cl_icd_dispatch *dispatch;                                                                               \
    unsigned serial;                                                                                         \
  };
STUB_OBJECT(_cl_platform_id)
STUB_OBJECT(_cl_device_id)
STUB_OBJECT(_cl_context)
STUB_OBJECT(_cl_command_queue)
STUB_OBJECT(_cl_program)
STUB_OBJECT(_cl_kernel)
STUB_OBJECT(_cl_event)
STUB_OBJECT(_cl_sampler)
struct _cl_mem {
  cl_icd_dispatch *dispatch;
  unsigned serial;
  std::vector<unsigned char> contents; ///< the host bytes a buffer was created from (CL_MEM_COPY_HOST_PTR)
};
#undef STUB_OBJECT

namespace stub {
namespace {

std::mutex g_mutex;
unsigned g_serial = 0;
std::map<std::string, std::vector<cl_int>> g_scripted;

template <typename T>
constexpr bool isHandle =
    std::is_same_v<T, cl_platform_id> || std::is_same_v<T, cl_device_id> || std::is_same_v<T, cl_context> ||
    std::is_same_v<T, cl_command_queue> || std::is_same_v<T, cl_mem> || std::is_same_v<T, cl_program> ||
    std::is_same_v<T, cl_kernel> || std::is_same_v<T, cl_event> || std::is_same_v<T, cl_sampler>;

/// A new object of handle type T (never freed: a test process).
template <typename T> T make() {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto *object = new std::remove_pointer_t<T>{};
  object->dispatch = &g_table;
  object->serial = ++g_serial;
  return object;
}

_cl_platform_id g_platform{&g_table, 0};
_cl_device_id g_device{&g_table, 0};

/// A value no one else would produce: new objects for handles, a recognisable number or address otherwise.
template <typename T> T distinct(int entry, int param) {
  if constexpr (isHandle<T>) {
    return make<T>();
  } else if constexpr (std::is_pointer_v<T>) {
    static unsigned char arena[4096];
    return reinterpret_cast<T>(arena + (entry * 16 + param) % 4096);
  } else {
    return static_cast<T>(0x6B0000 + entry * 0x100 + param);
  }
}

template <typename T> void fillArray(T *out, cl_uint count, int entry, int param) {
  if (!out)
    return;
  for (cl_uint i = 0; i < count; ++i) {
    if constexpr (isHandle<T>) {
      out[i] = make<T>();
    } else if constexpr (std::is_integral_v<T>) {
      out[i] = static_cast<T>(0x6C0000 + entry * 0x100 + param * 0x10 + static_cast<int>(i));
    } else {
      std::memset(&out[i], 0x40 + entry % 64, sizeof(T)); // structs (cl_image_format)
    }
  }
}

void fillBytes(void *out, std::size_t size, int entry, int param) {
  auto *b = static_cast<unsigned char *>(out);
  for (std::size_t i = 0; b && i < size; ++i)
    b[i] = static_cast<unsigned char>(entry * 7 + param * 3 + static_cast<int>(i));
}

cl_int takeScripted(const char *entry) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto it = g_scripted.find(entry);
  if (it == g_scripted.end() || it->second.empty())
    return CL_SUCCESS;
  cl_int code = it->second.front();
  it->second.erase(it->second.begin());
  return code;
}

void record(const std::string &in, const std::string &out) {
  static std::FILE *log = [] {
    const char *path = std::getenv("CLCAPTURE_STUB_LOG");
    return path ? std::fopen(path, "w") : nullptr;
  }();
  std::lock_guard<std::mutex> lock(g_mutex);
  if (!log)
    return;
  std::fprintf(log, "%s\n", joined(in, out).c_str());
  std::fflush(log);
}

/// The OpenCL 1.2 §4.1 size protocol for a query answered with `size` bytes.
void answerWith(const void *value, std::size_t size, std::size_t param_value_size, void *param_value,
                std::size_t *param_value_size_ret) {
  if (param_value && param_value_size >= size)
    std::memcpy(param_value, value, size);
  if (param_value_size_ret)
    *param_value_size_ret = size;
}

void answerString(const char *s, std::size_t param_value_size, void *param_value, std::size_t *size_ret) {
  answerWith(s, std::strlen(s) + 1, param_value_size, param_value, size_ret);
}

template <typename T>
void answerValue(T v, std::size_t param_value_size, void *param_value, std::size_t *size_ret) {
  answerWith(&v, sizeof v, param_value_size, param_value, size_ret);
}

} // namespace

// Hand-written answers (the generator's ANSWERED list): only for the parameters a loader or the capture
// engine asks about; the app's own distinctive parameter names keep the generic distinctive bytes.

void answer_clGetPlatformInfo(cl_int, cl_platform_id, cl_platform_info param_name, size_t param_value_size,
                              void *param_value, size_t *param_value_size_ret) {
  const char *s = nullptr;
  switch (param_name) {
  case CL_PLATFORM_PROFILE:
    s = "FULL_PROFILE";
    break;
  case CL_PLATFORM_VERSION:
    s = "OpenCL 3.0 clcapture-stub";
    break;
  case CL_PLATFORM_NAME:
    s = "clcapture stub";
    break;
  case CL_PLATFORM_VENDOR:
    s = "clcapture";
    break;
  case CL_PLATFORM_EXTENSIONS:
    s = "cl_khr_icd";
    break;
  case CL_PLATFORM_ICD_SUFFIX_KHR:
    s = "CLCSTUB";
    break;
  default:
    return;
  }
  answerString(s, param_value_size, param_value, param_value_size_ret);
}

void answer_clGetDeviceIDs(cl_int, cl_platform_id, cl_device_type, cl_uint num_entries, cl_device_id *devices,
                           cl_uint *num_devices) {
  for (cl_uint i = 0; devices && i < num_entries; ++i)
    devices[i] = &g_device;
  if (num_devices)
    *num_devices = 1;
}

void answer_clGetDeviceInfo(cl_int, cl_device_id, cl_device_info param_name, size_t param_value_size,
                            void *param_value, size_t *param_value_size_ret) {
  switch (param_name) {
  case CL_DEVICE_NAME:
    return answerString("clcapture stub device", param_value_size, param_value, param_value_size_ret);
  case CL_DEVICE_VENDOR:
    return answerString("clcapture", param_value_size, param_value, param_value_size_ret);
  case CL_DEVICE_VERSION:
    return answerString("OpenCL 3.0 stub", param_value_size, param_value, param_value_size_ret);
  case CL_DRIVER_VERSION:
    return answerString("1.0", param_value_size, param_value, param_value_size_ret);
  case CL_DEVICE_ADDRESS_BITS:
    return answerValue(cl_uint{64}, param_value_size, param_value, param_value_size_ret);
  case CL_DEVICE_ENDIAN_LITTLE:
    return answerValue(cl_bool{CL_TRUE}, param_value_size, param_value, param_value_size_ret);
  default:
    return;
  }
}

void answer_clGetCommandQueueInfo(cl_int, cl_command_queue, cl_command_queue_info param_name,
                                  size_t param_value_size, void *param_value, size_t *param_value_size_ret) {
  switch (param_name) {
  case CL_QUEUE_DEVICE:
    return answerValue(static_cast<cl_device_id>(&g_device), param_value_size, param_value,
                       param_value_size_ret);
  // In order: the capture engine then adds no waits of its own to a launch's wait list.
  case CL_QUEUE_PROPERTIES:
    return answerValue(cl_command_queue_properties{0}, param_value_size, param_value, param_value_size_ret);
  case CL_QUEUE_REFERENCE_COUNT:
    return answerValue(cl_uint{1}, param_value_size, param_value, param_value_size_ret);
  default:
    return;
  }
}

// Every stub kernel is `kernel void stub_kernel(global int *out, int scale, local float *scratch)`.
void answer_clGetKernelInfo(cl_int, cl_kernel, cl_kernel_info param_name, size_t param_value_size,
                            void *param_value, size_t *param_value_size_ret) {
  if (param_name == CL_KERNEL_NUM_ARGS)
    answerValue(cl_uint{3}, param_value_size, param_value, param_value_size_ret);
  else if (param_name == CL_KERNEL_FUNCTION_NAME)
    answerString("stub_kernel", param_value_size, param_value, param_value_size_ret);
}

void answer_clGetKernelArgInfo(cl_int, cl_kernel, cl_uint arg_index, cl_kernel_arg_info param_name,
                               size_t param_value_size, void *param_value, size_t *param_value_size_ret) {
  static const char *const names[] = {"out", "scale", "scratch"};
  static const char *const types[] = {"int*", "int", "float*"};
  static const cl_kernel_arg_address_qualifier spaces[] = {
      CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_ADDRESS_LOCAL};
  if (arg_index > 2)
    return;
  if (param_name == CL_KERNEL_ARG_NAME)
    answerString(names[arg_index], param_value_size, param_value, param_value_size_ret);
  else if (param_name == CL_KERNEL_ARG_TYPE_NAME)
    answerString(types[arg_index], param_value_size, param_value, param_value_size_ret);
  else if (param_name == CL_KERNEL_ARG_ADDRESS_QUALIFIER)
    answerValue(spaces[arg_index], param_value_size, param_value, param_value_size_ret);
}

/// The callback runs at once (the stub's events are complete when created).
void answer_clSetEventCallback(cl_int code, cl_event event, cl_int,
                               void(CL_CALLBACK *pfn_notify)(cl_event, cl_int, void *), void *user_data) {
  if (code == CL_SUCCESS && pfn_notify)
    pfn_notify(event, CL_COMPLETE, user_data);
}

/// The stub's events are complete when created: the capture engine's writer thread polls its reads' events.
void answer_clGetEventInfo(cl_int code, cl_event, cl_event_info param_name, size_t param_value_size,
                           void *param_value, size_t *param_value_size_ret) {
  if (code == CL_SUCCESS && param_name == CL_EVENT_COMMAND_EXECUTION_STATUS)
    answerValue(static_cast<cl_int>(CL_COMPLETE), param_value_size, param_value, param_value_size_ret);
}

/// A buffer created from host bytes reads back as those bytes, so the capture's data can be checked.
void answer_clEnqueueReadBuffer(cl_int, cl_command_queue, cl_mem buffer, cl_bool, size_t offset, size_t size,
                                void *ptr, cl_uint, const cl_event *, cl_event *) {
  if (buffer && ptr && offset + size <= buffer->contents.size())
    std::memcpy(ptr, buffer->contents.data() + offset, size);
}

cl_mem answerRet_clCreateBuffer(cl_mem ret, cl_context, cl_mem_flags flags, size_t size, void *host_ptr,
                                cl_int *) {
  if (ret && host_ptr && (flags & CL_MEM_COPY_HOST_PTR) && size <= 4096)
    ret->contents.assign(static_cast<unsigned char *>(host_ptr),
                         static_cast<unsigned char *>(host_ptr) + size);
  return ret;
}

void CL_API_CALL scriptNext(const char *entry, cl_int code);
} // namespace stub
extern "C" cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id, cl_platform_info, size_t, void *, size_t *);
namespace stub {

/// The loader's look-ups get the real entry points; names with the stub's suffix get a distinctive address
/// (clStubScriptCLCSTUB the script hook); any other name is unknown (NULL), as in a real driver.
void *extensionFunction(void *ret, const char *func_name) {
  if (!func_name)
    return nullptr;
  if (!std::strcmp(func_name, "clIcdGetPlatformIDsKHR"))
    return reinterpret_cast<void *>(&clIcdGetPlatformIDsKHR);
  if (!std::strcmp(func_name, "clGetPlatformInfo"))
    return reinterpret_cast<void *>(&clGetPlatformInfo);
  if (!std::strcmp(func_name, "clStubScriptCLCSTUB"))
    return reinterpret_cast<void *>(&scriptNext);
  std::size_t n = std::strlen(func_name);
  return n > 7 && !std::strcmp(func_name + n - 7, "CLCSTUB") ? ret : nullptr;
}

void *answerRet_clGetExtensionFunctionAddress(void *ret, const char *func_name) {
  return extensionFunction(ret, func_name);
}

void *answerRet_clGetExtensionFunctionAddressForPlatform(void *ret, cl_platform_id, const char *func_name) {
  return extensionFunction(ret, func_name);
}

/// clStubScriptCLCSTUB(entry, code): the next call of `entry` returns `code` (and writes it to errcode_ret).
void CL_API_CALL scriptNext(const char *entry, cl_int code) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_scripted[entry].push_back(code);
}

#include "StubEntries_generated.inc"

} // namespace stub

STUB_EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms,
                                                      cl_uint *num_platforms) {
  static std::once_flag once;
  std::call_once(once, [] { stub::fillDispatch(g_table); });
  stub::Line in("clIcdGetPlatformIDsKHR");
  in.value("num_entries", num_entries).value("platforms", platforms).value("num_platforms", num_platforms);
  if (platforms && num_entries > 0)
    platforms[0] = &stub::g_platform;
  if (num_platforms)
    *num_platforms = 1;
  stub::Line out;
  out.value("ret", CL_SUCCESS)
      .array("platforms", platforms, platforms ? 1 : 0)
      .deref("num_platforms", num_platforms);
  stub::record(in.str(), out.str());
  return CL_SUCCESS;
}

STUB_EXPORT void *CL_API_CALL clGetExtensionFunctionAddress(const char *func_name) {
  return stub::stub_clGetExtensionFunctionAddress(func_name);
}

STUB_EXPORT cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
                                                 size_t param_value_size, void *param_value,
                                                 size_t *param_value_size_ret) {
  return stub::stub_clGetPlatformInfo(platform, param_name, param_value_size, param_value,
                                      param_value_size_ret);
}
