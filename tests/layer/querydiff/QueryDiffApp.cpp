//===- QueryDiffApp.cpp - Every object, every clGet*Info question, every refusal, printed -===//
//
// The query-diff harness's application (query_diff.py runs it bare, under the shim ICD and under the
// OPENCL_LAYERS layer, and compares the outputs). It creates every kind of OpenCL object — platform,
// devices, contexts, queues with and without properties, buffers and sub-buffers, images, samplers, pipes
// where the device has them, programs from source, from binary and by compile + link, kernels, events and
// user events — and asks each every parameter name CL/cl.h defines for its query
// (QueryParams_generated.h), then makes deliberately invalid calls. One line per answer: the status of the
// size question, the size, the status of the value question and the value. Handles print as the name of
// the object this program made (or "handle?"), host addresses as the buffer they point into, profiling
// times as whether they are ordered: the rest prints as the driver answered, so any difference a layer
// makes shows.
//
//===----------------------------------------------------------------------===//
#include "QueryParams_generated.h"

#include <CL/cl.h>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace {

std::map<const void *, std::string> g_names; // every handle and host pointer this program made
std::vector<std::pair<const unsigned char *, std::size_t>> g_hostRanges;
std::vector<std::string> g_hostNames;
/// The platform's OpenCL version (21 = 2.1): ocl-icd 2.3.1 calls an entry a 1.2 driver lacks without
/// checking (clCreateCommandQueueWithProperties spins), so newer entries are called only where they exist.
int g_version = 12;

void name(const void *handle, const std::string &what) {
  if (handle)
    g_names[handle] = what;
}

std::string nameOf(const void *pointer) {
  if (!pointer)
    return "NULL";
  auto it = g_names.find(pointer);
  if (it != g_names.end())
    return it->second;
  const auto *p = static_cast<const unsigned char *>(pointer);
  for (std::size_t i = 0; i < g_hostRanges.size(); ++i)
    if (p >= g_hostRanges[i].first && p < g_hostRanges[i].first + g_hostRanges[i].second)
      return g_hostNames[i] + "+" + std::to_string(p - g_hostRanges[i].first);
  return "handle?";
}

const char *const kHandleParams[] = {
    "CL_DEVICE_PLATFORM", "CL_DEVICE_PARENT_DEVICE", "CL_CONTEXT_DEVICES", "CL_QUEUE_CONTEXT",
    "CL_QUEUE_DEVICE", "CL_QUEUE_DEVICE_DEFAULT", "CL_MEM_CONTEXT", "CL_MEM_ASSOCIATED_MEMOBJECT",
    "CL_MEM_HOST_PTR", "CL_IMAGE_BUFFER", "CL_SAMPLER_CONTEXT", "CL_PROGRAM_CONTEXT", "CL_PROGRAM_DEVICES",
    "CL_KERNEL_CONTEXT", "CL_KERNEL_PROGRAM", "CL_EVENT_COMMAND_QUEUE", "CL_EVENT_CONTEXT",
    // property lists: CL_CONTEXT_PLATFORM's value is a handle
    "CL_CONTEXT_PROPERTIES"};

bool isHandleParam(const char *param) {
  for (const char *h : kHandleParams)
    if (std::strcmp(h, param) == 0)
      return true;
  return false;
}

std::string hex(const unsigned char *bytes, std::size_t size) {
  static const char digits[] = "0123456789abcdef";
  std::string out = "0x";
  for (std::size_t i = 0; i < size; ++i) {
    out += digits[bytes[i] >> 4];
    out += digits[bytes[i] & 15];
  }
  return out;
}

std::string render(const char *param, const std::vector<unsigned char> &value, std::size_t size) {
  if (std::strncmp(param, "CL_PROFILING_COMMAND_", 21) == 0)
    return size == sizeof(cl_ulong) ? "time" : hex(value.data(), size);
  if (isHandleParam(param) && size % sizeof(void *) == 0) {
    std::string out = "[";
    for (std::size_t i = 0; i < size; i += sizeof(void *)) {
      const void *p = nullptr;
      std::memcpy(&p, value.data() + i, sizeof p);
      std::string known = nameOf(p);
      out += (i ? " " : "") + (known == "handle?" ? hex(value.data() + i, sizeof p) : known);
    }
    return out + "]";
  }
  bool text = size > 0 && value[size - 1] == 0;
  for (std::size_t i = 0; text && i + 1 < size; ++i)
    text = value[i] == '\n' || value[i] == '\t' || (value[i] >= 0x20 && value[i] < 0x7f);
  if (text) {
    std::string s(reinterpret_cast<const char *>(value.data()), size - 1);
    for (char &c : s)
      if (c == '\n')
        c = '|';
    return "\"" + s + "\"";
  }
  return hex(value.data(), size);
}

/// One query with every parameter name of its group: the size question, then the value question.
using Ask = std::function<cl_int(cl_uint, std::size_t, void *, std::size_t *)>;
template <std::size_t N>
void askAll(const std::string &object, const char *query, const QueryParam (&params)[N], const Ask &ask) {
  for (const QueryParam &param : params) {
    if (std::strcmp(param.name, "CL_PROGRAM_BINARIES") == 0)
      continue; // pointers to the caller's buffers: programBinaries() asks it
    std::size_t size = 0;
    cl_int sizeStatus = ask(param.value, 0, nullptr, &size);
    std::vector<unsigned char> value(size + 1, 0);
    std::size_t returned = 0;
    cl_int valueStatus =
        sizeStatus == CL_SUCCESS ? ask(param.value, size, value.data(), &returned) : sizeStatus;
    std::printf("%s %s(%s) -> %d size=%zu %d %s\n", object.c_str(), query, param.name, sizeStatus, size,
                valueStatus, valueStatus == CL_SUCCESS ? render(param.name, value, returned).c_str() : "-");
  }
}

void status(const char *what, cl_int code) {
  std::printf("status %s -> %d\n", what, code);
}

/// CL_PROGRAM_BINARIES: the bytes of each device's binary (their hash: only equality matters).
std::vector<std::vector<unsigned char>> programBinaries(const std::string &object, cl_program program) {
  cl_uint devices = 0;
  clGetProgramInfo(program, CL_PROGRAM_NUM_DEVICES, sizeof devices, &devices, nullptr);
  std::vector<std::size_t> sizes(devices);
  cl_int s = clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizes.size() * sizeof(std::size_t),
                              sizes.data(), nullptr);
  std::vector<std::vector<unsigned char>> binaries(devices);
  std::vector<unsigned char *> pointers(devices);
  for (cl_uint i = 0; i < devices; ++i) {
    binaries[i].resize(sizes[i]);
    pointers[i] = sizes[i] ? binaries[i].data() : nullptr;
  }
  if (s == CL_SUCCESS)
    s = clGetProgramInfo(program, CL_PROGRAM_BINARIES, pointers.size() * sizeof(unsigned char *),
                         pointers.data(), nullptr);
  for (cl_uint i = 0; i < devices; ++i) {
    std::uint64_t h = 1469598103934665603ull; // FNV-1a
    for (unsigned char b : binaries[i])
      h = (h ^ b) * 1099511628211ull;
    std::printf("%s clGetProgramInfo(CL_PROGRAM_BINARIES)[%u] -> %d size=%zu fnv1a=%016llx\n", object.c_str(),
                i, s, sizes[i], static_cast<unsigned long long>(h));
  }
  return binaries;
}

const char *kSource = R"CLC(
#ifndef FOO
#error FOO is not defined
#endif
typedef struct { int a; float b; } pair_t;
kernel void fill(global int *out, constant int *in, local int *scratch, int n, pair_t p) {
  size_t i = get_global_id(0);
  scratch[get_local_id(0)] = in[i] + n;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = scratch[get_local_id(0)] * FOO + p.a + (int)p.b;
}
// A signature behind a function-like macro: the layer cannot read it from the source and builds a private copy.
#define COPY_PARAMETERS(T) global T *to, const global T *from
kernel void copyVia(COPY_PARAMETERS(int)) { to[get_global_id(0)] = from[get_global_id(0)]; }
kernel __attribute__((reqd_work_group_size(4, 1, 1))) void fixed(global float *x, const global float *restrict y) {
  x[get_global_id(0)] += y[get_global_id(0)];
}
)CLC";

const char *kImageSource = R"CLC(
kernel void blur(read_only image2d_t in, write_only image2d_t out, sampler_t s) {
  int2 at = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(out, at, read_imagef(in, s, at));
}
)CLC";

const char *kHeaderSource = "#define SCALE 3\nint scaled(int x);\n";
const char *kLinkedSource =
    "#include \"qd.h\"\nint scaled(int x) { return x * SCALE; }\n"
    "kernel void scale(global int *o) { o[get_global_id(0)] = scaled(o[get_global_id(0)]); }\n";

void askKernel(const std::string &object, cl_kernel kernel, cl_device_id device) {
  askAll(object, "clGetKernelInfo", k_cl_kernel_info, [&](cl_uint p, std::size_t n, void *v, std::size_t *r) {
    return clGetKernelInfo(kernel, p, n, v, r);
  });
  cl_uint args = 0;
  clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof args, &args, nullptr);
  for (cl_uint i = 0; i <= args; ++i) // one past the last: CL_INVALID_ARG_INDEX
    askAll(object + ".arg" + std::to_string(i), "clGetKernelArgInfo", k_cl_kernel_arg_info,
           [&](cl_uint p, std::size_t n, void *v, std::size_t *r) {
             return clGetKernelArgInfo(kernel, i, p, n, v, r);
           });
  askAll(object, "clGetKernelWorkGroupInfo", k_cl_kernel_work_group_info,
         [&](cl_uint p, std::size_t n, void *v, std::size_t *r) {
           return clGetKernelWorkGroupInfo(kernel, device, p, n, v, r);
         });
  std::size_t local = 4;
  if (g_version >= 21)
    askAll(object, "clGetKernelSubGroupInfo", k_cl_kernel_sub_group_info,
           [&](cl_uint p, std::size_t n, void *v, std::size_t *r) {
             return clGetKernelSubGroupInfo(kernel, device, p, sizeof local, &local, n, v, r);
           });
}

void askProgram(const std::string &object, cl_program program, cl_device_id device) {
  askAll(object, "clGetProgramInfo", k_cl_program_info,
         [&](cl_uint p, std::size_t n, void *v, std::size_t *r) {
           return clGetProgramInfo(program, p, n, v, r);
         });
  askAll(object, "clGetProgramBuildInfo", k_cl_program_build_info,
         [&](cl_uint p, std::size_t n, void *v, std::size_t *r) {
           return clGetProgramBuildInfo(program, device, p, n, v, r);
         });
}

void askMem(const std::string &object, cl_mem mem) {
  askAll(object, "clGetMemObjectInfo", k_cl_mem_info, [&](cl_uint p, std::size_t n, void *v, std::size_t *r) {
    return clGetMemObjectInfo(mem, p, n, v, r);
  });
}

void askEvent(const std::string &object, cl_event event) {
  askAll(object, "clGetEventInfo", k_cl_event_info, [&](cl_uint p, std::size_t n, void *v, std::size_t *r) {
    return clGetEventInfo(event, p, n, v, r);
  });
  askAll(object, "clGetEventProfilingInfo", k_cl_profiling_info,
         [&](cl_uint p, std::size_t n, void *v, std::size_t *r) {
           return clGetEventProfilingInfo(event, p, n, v, r);
         });
  cl_ulong t[4] = {0, 0, 0, 0};
  bool all = true;
  for (cl_uint i = 0; i < 4; ++i)
    all = all && clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_QUEUED + i, sizeof t[i], &t[i],
                                         nullptr) == CL_SUCCESS;
  std::printf("%s profiling times %s\n", object.c_str(),
              !all                                             ? "not all answered"
              : (t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3]) ? "ordered"
                                                               : "NOT ordered");
}

void deviceObjects(cl_platform_id platform, cl_device_id device, const std::string &dev) {
  cl_int err = CL_SUCCESS;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform), 0};
  cl_context context = clCreateContext(props, 1, &device, nullptr, nullptr, &err);
  status("clCreateContext", err);
  name(context, dev + ".context");
  askAll(dev + ".context", "clGetContextInfo", k_cl_context_info,
         [&](cl_uint p, std::size_t n, void *v, std::size_t *r) {
           return clGetContextInfo(context, p, n, v, r);
         });
  cl_device_type type = 0;
  clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
  cl_context byType = clCreateContextFromType(props, type, nullptr, nullptr, &err);
  status("clCreateContextFromType", err);
  name(byType, dev + ".contextFromType");
  askAll(dev + ".contextFromType", "clGetContextInfo", k_cl_context_info,
         [&](cl_uint p, std::size_t n, void *v, std::size_t *r) {
           return clGetContextInfo(byType, p, n, v, r);
         });

  cl_command_queue plain = clCreateCommandQueue(context, device, 0, &err);
  status("clCreateCommandQueue", err);
  name(plain, dev + ".queue");
  cl_queue_properties qprops[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue profiled = g_version >= 20
                                  ? clCreateCommandQueueWithProperties(context, device, qprops, &err)
                                  : clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &err);
  status("clCreateCommandQueueWithProperties (clCreateCommandQueue before OpenCL 2.0)", err);
  name(profiled, dev + ".profiledQueue");
  for (auto [q, qn] : {std::pair{plain, dev + ".queue"}, std::pair{profiled, dev + ".profiledQueue"}})
    askAll(qn, "clGetCommandQueueInfo", k_cl_command_queue_info,
           [&](cl_uint p, std::size_t n, void *v, std::size_t *r) {
             return clGetCommandQueueInfo(q, p, n, v, r);
           });

  // Buffers of every creation kind, and a sub-buffer.
  static unsigned char host[4096];
  static int inputs[64];
  for (int i = 0; i < 64; ++i)
    inputs[i] = i * 7;
  g_hostRanges = {{host, sizeof host}, {reinterpret_cast<unsigned char *>(inputs), sizeof inputs}};
  g_hostNames = {"host", "inputs"};
  struct Made {
    const char *what;
    cl_mem_flags flags;
    void *pointer;
  } made[] = {{"readWrite", CL_MEM_READ_WRITE, nullptr},
              {"useHost", CL_MEM_USE_HOST_PTR, host},
              {"copyHostReadOnly", CL_MEM_COPY_HOST_PTR | CL_MEM_READ_ONLY, inputs},
              {"allocHost", CL_MEM_ALLOC_HOST_PTR, nullptr},
              {"hostNoAccess", CL_MEM_HOST_NO_ACCESS, nullptr},
              {"writeOnly", CL_MEM_WRITE_ONLY, nullptr}};
  std::map<std::string, cl_mem> mems;
  for (const Made &m : made) {
    cl_mem mem = clCreateBuffer(context, m.flags, 256, m.pointer, &err);
    status(m.what, err);
    name(mem, dev + "." + m.what);
    mems[m.what] = mem;
  }
  cl_uint align = 0;
  clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align, &align, nullptr);
  cl_buffer_region region{align / 8, 64};
  cl_mem big = clCreateBuffer(context, CL_MEM_READ_WRITE, 4096, nullptr, &err);
  name(big, dev + ".big");
  cl_mem sub = clCreateSubBuffer(big, CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  status("clCreateSubBuffer", err);
  name(sub, dev + ".sub");
  cl_buffer_region outside{4096, 64};
  clCreateSubBuffer(big, 0, CL_BUFFER_CREATE_TYPE_REGION, &outside, &err);
  status("clCreateSubBuffer outside its parent", err);
  for (const auto &[what, mem] : mems)
    askMem(dev + "." + what, mem);
  askMem(dev + ".big", big);
  askMem(dev + ".sub", sub);
  clCreateBuffer(context, 0, 0, nullptr, &err);
  status("clCreateBuffer of 0 bytes", err);

  // Images and samplers, where the device has them.
  cl_bool images = CL_FALSE;
  clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, nullptr);
  cl_uint formats = 0;
  status("clGetSupportedImageFormats",
         clGetSupportedImageFormats(context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &formats));
  std::printf("%s image2d formats %u\n", dev.c_str(), formats);
  cl_mem image = nullptr, image2 = nullptr;
  cl_sampler sampler = nullptr;
  if (images) {
    cl_image_format format{CL_RGBA, CL_UNORM_INT8};
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = 8;
    desc.image_height = 8;
    image = clCreateImage(context, CL_MEM_READ_ONLY, &format, &desc, nullptr, &err);
    status("clCreateImage", err);
    image2 = clCreateImage(context, CL_MEM_WRITE_ONLY, &format, &desc, nullptr, &err);
    name(image, dev + ".image");
    name(image2, dev + ".image2");
    askMem(dev + ".image", image);
    askAll(
        dev + ".image", "clGetImageInfo", k_cl_image_info,
        [&](cl_uint p, std::size_t n, void *v, std::size_t *r) { return clGetImageInfo(image, p, n, v, r); });
    sampler = clCreateSampler(context, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &err);
    status("clCreateSampler", err);
    name(sampler, dev + ".sampler");
    cl_sampler_properties sprops[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_TRUE, 0};
    cl_sampler withProps = g_version >= 20
                               ? clCreateSamplerWithProperties(context, sprops, &err)
                               : clCreateSampler(context, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
    status("clCreateSamplerWithProperties", err);
    name(withProps, dev + ".samplerWithProperties");
    for (auto [s, sn] :
         {std::pair{sampler, dev + ".sampler"}, std::pair{withProps, dev + ".samplerWithProperties"}})
      askAll(
          sn, "clGetSamplerInfo", k_cl_sampler_info,
          [&](cl_uint p, std::size_t n, void *v, std::size_t *r) { return clGetSamplerInfo(s, p, n, v, r); });
  }
  cl_bool pipes = CL_FALSE;
  clGetDeviceInfo(device, CL_DEVICE_PIPE_SUPPORT, sizeof pipes, &pipes, nullptr);
  if (pipes && g_version >= 20) {
    cl_mem pipe = clCreatePipe(context, 0, 4, 16, nullptr, &err);
    status("clCreatePipe", err);
    name(pipe, dev + ".pipe");
    askAll(
        dev + ".pipe", "clGetPipeInfo", k_cl_pipe_info,
        [&](cl_uint p, std::size_t n, void *v, std::size_t *r) { return clGetPipeInfo(pipe, p, n, v, r); });
  }

  // Programs: from source (the application's own options), from that program's binary, compile + link, one
  // that asks for argument info itself, and one that does not build.
  cl_program source = clCreateProgramWithSource(context, 1, &kSource, nullptr, &err);
  name(source, dev + ".source");
  status("clBuildProgram(source)",
         clBuildProgram(source, 1, &device, "-DFOO=2 -cl-std=CL1.2", nullptr, nullptr));
  askProgram(dev + ".source", source, device);
  auto binaries = programBinaries(dev + ".source", source);
  std::size_t binarySize = binaries.empty() ? 0 : binaries[0].size();
  const unsigned char *binary = binaries.empty() ? nullptr : binaries[0].data();
  cl_int binaryStatus = CL_SUCCESS;
  cl_program fromBinary =
      clCreateProgramWithBinary(context, 1, &device, &binarySize, &binary, &binaryStatus, &err);
  status("clCreateProgramWithBinary", err);
  status("clCreateProgramWithBinary binary_status", binaryStatus);
  name(fromBinary, dev + ".fromBinary");
  status("clBuildProgram(fromBinary)", clBuildProgram(fromBinary, 1, &device, "", nullptr, nullptr));
  askProgram(dev + ".fromBinary", fromBinary, device);
  programBinaries(dev + ".fromBinary", fromBinary);

  cl_program header = clCreateProgramWithSource(context, 1, &kHeaderSource, nullptr, &err);
  name(header, dev + ".header");
  cl_program unit = clCreateProgramWithSource(context, 1, &kLinkedSource, nullptr, &err);
  name(unit, dev + ".unit");
  const char *headerName = "qd.h";
  status("clCompileProgram",
         clCompileProgram(unit, 1, &device, "-DUNUSED=1", 1, &header, &headerName, nullptr, nullptr));
  askProgram(dev + ".unit", unit, device);
  cl_program linked = clLinkProgram(context, 1, &device, "", 1, &unit, nullptr, nullptr, &err);
  status("clLinkProgram", err);
  name(linked, dev + ".linked");
  askProgram(dev + ".linked", linked, device);

  cl_program withInfo = clCreateProgramWithSource(context, 1, &kSource, nullptr, &err);
  name(withInfo, dev + ".withArgInfo");
  status("clBuildProgram(withArgInfo)",
         clBuildProgram(withInfo, 1, &device, "-DFOO=1 -cl-kernel-arg-info", nullptr, nullptr));
  askProgram(dev + ".withArgInfo", withInfo, device);

  const char *broken = "kernel void broken(global int *o) { o[0] = undeclared; }";
  cl_program fails = clCreateProgramWithSource(context, 1, &broken, nullptr, &err);
  name(fails, dev + ".fails");
  status("clBuildProgram(fails)", clBuildProgram(fails, 1, &device, "", nullptr, nullptr));
  askProgram(dev + ".fails", fails, device);
  cl_program unbuilt = clCreateProgramWithSource(context, 1, &kSource, nullptr, &err);
  name(unbuilt, dev + ".unbuilt");
  askProgram(dev + ".unbuilt", unbuilt, device);

  // Kernels of each program.
  cl_kernel fill = clCreateKernel(source, "fill", &err);
  status("clCreateKernel(fill)", err);
  name(fill, dev + ".fill");
  cl_kernel fixed = clCreateKernel(source, "fixed", &err);
  name(fixed, dev + ".fixed");
  askKernel(dev + ".fill", fill, device);
  askKernel(dev + ".fixed", fixed, device);
  cl_kernel fromBinaryKernels[4] = {nullptr, nullptr, nullptr, nullptr};
  cl_uint count = 0;
  status("clCreateKernelsInProgram(fromBinary)",
         clCreateKernelsInProgram(fromBinary, 4, fromBinaryKernels, &count));
  for (cl_uint i = 0; i < count && i < 4; ++i) {
    name(fromBinaryKernels[i], dev + ".fromBinaryKernel" + std::to_string(i));
    askKernel(dev + ".fromBinaryKernel" + std::to_string(i), fromBinaryKernels[i], device);
  }
  cl_kernel scale = clCreateKernel(linked, "scale", &err);
  name(scale, dev + ".scale");
  askKernel(dev + ".scale", scale, device);
  cl_kernel fillWithInfo = clCreateKernel(withInfo, "fill", &err);
  name(fillWithInfo, dev + ".fillWithArgInfo");
  askKernel(dev + ".fillWithArgInfo", fillWithInfo, device);
  cl_kernel clone = g_version >= 21 ? clCloneKernel(fill, &err) : nullptr;
  if (clone) {
    status("clCloneKernel", err);
    name(clone, dev + ".clone");
    askKernel(dev + ".clone", clone, device);
  }
  clCreateKernel(source, "nope", &err);
  status("clCreateKernel of a name the program lacks", err);
  clCreateKernel(fails, "broken", &err);
  status("clCreateKernel of a program that did not build", err);
  clCreateKernel(unbuilt, "fill", &err);
  status("clCreateKernel of a program never built", err);

  // A launch and what it computed, its events, and the refusals of launches that cannot be.
  cl_kernel fresh = clCreateKernel(source, "fill", &err);
  name(fresh, dev + ".freshFill");
  std::size_t global = 16, local = 4;
  status("clEnqueueNDRangeKernel with arguments unset",
         clEnqueueNDRangeKernel(plain, fresh, 1, nullptr, &global, &local, 0, nullptr, nullptr));
  cl_mem out = mems["readWrite"], in = mems["copyHostReadOnly"];
  cl_int n = 5;
  struct {
    cl_int a;
    cl_float b;
  } pair{100, 2.5f};
  status("clSetKernelArg 0", clSetKernelArg(fill, 0, sizeof out, &out));
  status("clSetKernelArg 1", clSetKernelArg(fill, 1, sizeof in, &in));
  status("clSetKernelArg 2", clSetKernelArg(fill, 2, 4 * sizeof(cl_int), nullptr));
  status("clSetKernelArg 3", clSetKernelArg(fill, 3, sizeof n, &n));
  status("clSetKernelArg 4", clSetKernelArg(fill, 4, sizeof pair, &pair));
  status("clSetKernelArg past the last", clSetKernelArg(fill, 9, sizeof n, &n));
  status("clSetKernelArg of the wrong size", clSetKernelArg(fill, 3, 2, &n));
  status("clSetKernelArg local of 0 bytes", clSetKernelArg(fill, 2, 0, nullptr));
  status("clSetKernelArg 2 again", clSetKernelArg(fill, 2, 4 * sizeof(cl_int), nullptr));
  cl_event launch = nullptr;
  status("clEnqueueNDRangeKernel(fill)",
         clEnqueueNDRangeKernel(profiled, fill, 1, nullptr, &global, &local, 0, nullptr, &launch));
  name(launch, dev + ".launchEvent");
  status("clWaitForEvents", clWaitForEvents(1, &launch));
  askEvent(dev + ".launchEvent", launch);
  cl_int results[16] = {};
  cl_event read = nullptr;
  status("clEnqueueReadBuffer",
         clEnqueueReadBuffer(profiled, out, CL_TRUE, 0, sizeof results, results, 0, nullptr, &read));
  name(read, dev + ".readEvent");
  askEvent(dev + ".readEvent", read);
  std::printf("%s fill computed", dev.c_str());
  for (cl_int r : results)
    std::printf(" %d", r);
  std::printf("\n");
  cl_kernel copyVia = clCreateKernel(source, "copyVia", &err);
  name(copyVia, dev + ".copyVia");
  status("clSetKernelArg copyVia 0", clSetKernelArg(copyVia, 0, sizeof out, &out));
  status("clSetKernelArg copyVia 1", clSetKernelArg(copyVia, 1, sizeof in, &in));
  status("clEnqueueNDRangeKernel(copyVia)",
         clEnqueueNDRangeKernel(plain, copyVia, 1, nullptr, &global, &local, 0, nullptr, nullptr));
  status("clEnqueueReadBuffer(copyVia)",
         clEnqueueReadBuffer(plain, out, CL_TRUE, 0, sizeof results, results, 0, nullptr, nullptr));
  std::printf("%s copyVia computed", dev.c_str());
  for (cl_int r : results)
    std::printf(" %d", r);
  std::printf("\n");
  status("clEnqueueReadBuffer past the end",
         clEnqueueReadBuffer(plain, out, CL_TRUE, 200, 100, results, 0, nullptr, nullptr));
  status("clEnqueueNDRangeKernel work_dim 0",
         clEnqueueNDRangeKernel(plain, fill, 0, nullptr, &global, &local, 0, nullptr, nullptr));
  std::size_t uneven = 3;
  status("clEnqueueNDRangeKernel local size not dividing (CL1.2)",
         clEnqueueNDRangeKernel(plain, fill, 1, nullptr, &global, &uneven, 0, nullptr, nullptr));
  std::size_t eight = 8;
  status("clSetKernelArg fixed 0", clSetKernelArg(fixed, 0, sizeof out, &out));
  status("clSetKernelArg fixed 1", clSetKernelArg(fixed, 1, sizeof out, &out));
  status("clEnqueueNDRangeKernel fixed with the wrong local size",
         clEnqueueNDRangeKernel(plain, fixed, 1, nullptr, &global, &eight, 0, nullptr, nullptr));
  if (images && image && image2 && sampler) {
    cl_program imageProgram = clCreateProgramWithSource(context, 1, &kImageSource, nullptr, &err);
    name(imageProgram, dev + ".imageProgram");
    status("clBuildProgram(imageProgram)",
           clBuildProgram(imageProgram, 1, &device, nullptr, nullptr, nullptr));
    cl_kernel blur = clCreateKernel(imageProgram, "blur", &err);
    name(blur, dev + ".blur");
    askKernel(dev + ".blur", blur, device);
    clSetKernelArg(blur, 0, sizeof image, &image);
    clSetKernelArg(blur, 1, sizeof image2, &image2);
    clSetKernelArg(blur, 2, sizeof sampler, &sampler);
    std::size_t size2[2] = {8, 8};
    status("clEnqueueNDRangeKernel(blur)",
           clEnqueueNDRangeKernel(plain, blur, 2, nullptr, size2, nullptr, 0, nullptr, nullptr));
    status("clFinish", clFinish(plain));
  }

  cl_event user = clCreateUserEvent(context, &err);
  status("clCreateUserEvent", err);
  name(user, dev + ".userEvent");
  askEvent(dev + ".userEvent", user);
  cl_event marker = nullptr;
  status("clEnqueueMarkerWithWaitList", clEnqueueMarkerWithWaitList(plain, 1, &user, &marker));
  name(marker, dev + ".marker");
  status("clSetUserEventStatus", clSetUserEventStatus(user, CL_COMPLETE));
  status("clSetUserEventStatus twice", clSetUserEventStatus(user, CL_COMPLETE));
  status("clWaitForEvents(marker)", clWaitForEvents(1, &marker));
  askEvent(dev + ".userEventAfter", user);
  askEvent(dev + ".marker", marker);
  status("clWaitForEvents of none", clWaitForEvents(0, nullptr));
  status("clFinish", clFinish(plain));

  // Reference counts after releases (askAll printed them along the way).
  if (clone)
    status("clReleaseKernel(clone)", clReleaseKernel(clone));
  status("clRetainProgram(source)", clRetainProgram(source));
  cl_uint refs = 0;
  clGetProgramInfo(source, CL_PROGRAM_REFERENCE_COUNT, sizeof refs, &refs, nullptr);
  std::printf("%s.source references after a retain %u\n", dev.c_str(), refs);
  status("clReleaseMemObject(sub)", clReleaseMemObject(sub));
  clGetMemObjectInfo(big, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, nullptr);
  std::printf("%s.big references after its sub-buffer's release %u\n", dev.c_str(), refs);
}

} // namespace

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0); // a driver that crashes leaves every line before it
  cl_uint platforms = 0;
  status("clGetPlatformIDs", clGetPlatformIDs(0, nullptr, &platforms));
  std::printf("platforms %u\n", platforms);
  std::vector<cl_platform_id> ids(platforms);
  if (platforms)
    clGetPlatformIDs(platforms, ids.data(), nullptr);
  for (cl_uint p = 0; p < platforms; ++p) {
    std::string pn = "platform" + std::to_string(p);
    name(ids[p], pn);
    char version[256] = {0};
    clGetPlatformInfo(ids[p], CL_PLATFORM_VERSION, sizeof version - 1, version, nullptr);
    int major = 1, minor = 2;
    if (std::sscanf(version, "OpenCL %d.%d", &major, &minor) == 2)
      g_version = major * 10 + minor;
    askAll(pn, "clGetPlatformInfo", k_cl_platform_info,
           [&](cl_uint q, std::size_t n, void *v, std::size_t *r) {
             return clGetPlatformInfo(ids[p], q, n, v, r);
           });
    cl_uint devices = 0;
    status("clGetDeviceIDs", clGetDeviceIDs(ids[p], CL_DEVICE_TYPE_ALL, 0, nullptr, &devices));
    std::vector<cl_device_id> dids(devices);
    if (devices)
      clGetDeviceIDs(ids[p], CL_DEVICE_TYPE_ALL, devices, dids.data(), nullptr);
    for (cl_uint d = 0; d < devices; ++d)
      name(dids[d], pn + ".device" + std::to_string(d));
    for (cl_uint d = 0; d < devices; ++d) {
      std::string dn = pn + ".device" + std::to_string(d);
      askAll(dn, "clGetDeviceInfo", k_cl_device_info, [&](cl_uint q, std::size_t n, void *v, std::size_t *r) {
        return clGetDeviceInfo(dids[d], q, n, v, r);
      });
      deviceObjects(ids[p], dids[d], dn);
    }
    status("clGetDeviceInfo of an unknown name",
           clGetDeviceInfo(devices ? dids[0] : nullptr, 0xFFFF, 0, nullptr, nullptr));
    for (const char *f : {"clIcdGetPlatformIDsKHR", "clGetKernelSuggestedLocalWorkSizeKHR",
                          "clCreateCommandBufferKHR", "clNoSuchFunction"})
      std::printf("%s clGetExtensionFunctionAddressForPlatform(%s) %s\n", pn.c_str(), f,
                  clGetExtensionFunctionAddressForPlatform(ids[p], f) ? "found" : "NULL");
  }
  return 0;
}
