//===- Hooks.cpp - The hand-written hooks: forward unchanged, then record -===//
//
// Every hook calls the driver's own entry first with the application's arguments, returns the driver's
// result untouched, and records only when the call succeeded. Recording never throws across the C ABI
// (guarded) and never changes what the application sees.
//
//===----------------------------------------------------------------------===//

#include "Hooks.h"

#include "CaptureEngine.h"
#include "CaptureSwitch.h"
#include "Downstream.h"
#include "HookList.h"
#include "Log.h"

#include <algorithm>
#include <string>
#include <vector>

namespace clcapture::layer::hooks {
namespace {

namespace {

/// What the hook forwards to: the driver's own entries (shim ICD) or the loader's next table (layer).
/// Hooks are reached only through tables clcapture set up, so this is never null in practice; the check
/// keeps a corrupted handle from turning into a crash of ours.
const cl_icd_dispatch *driverOf(const void *object) {
  return downstreamOf(object);
}

std::vector<std::uint64_t> dims(cl_uint n, const size_t *values) {
  std::vector<std::uint64_t> out;
  if (values)
    for (cl_uint i = 0; i < n; ++i)
      out.push_back(values[i]);
  return out;
}

} // namespace

cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count, const char **strings,
                                                 const size_t *lengths, cl_int *errcode_ret) {
  const cl_icd_dispatch *d = driverOf(context);
  if (!d) {
    if (errcode_ret)
      *errcode_ret = CL_INVALID_CONTEXT;
    return nullptr;
  }
  cl_program program = d->clCreateProgramWithSource(context, count, strings, lengths, errcode_ret);
  if (program)
    guarded("clCreateProgramWithSource", [&] {
      // OpenCL 1.2 §5.8.1: a length of 0 (or no lengths array) means a NUL-terminated string.
      std::string source;
      for (cl_uint i = 0; i < count; ++i)
        source += lengths && lengths[i] ? std::string(strings[i], lengths[i]) : std::string(strings[i]);
      CaptureEngine::instance().programCreated(program, std::move(source));
    });
  return program;
}

cl_program CL_API_CALL clCreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                                 const cl_device_id *device_list, const size_t *lengths,
                                                 const unsigned char **binaries, cl_int *binary_status,
                                                 cl_int *errcode_ret) {
  const cl_icd_dispatch *d = driverOf(context);
  if (!d) {
    if (errcode_ret)
      *errcode_ret = CL_INVALID_CONTEXT;
    return nullptr;
  }
  cl_program program = d->clCreateProgramWithBinary(context, num_devices, device_list, lengths, binaries,
                                                    binary_status, errcode_ret);
  if (program)
    guarded("clCreateProgramWithBinary", [&] {
      // OpenCL 1.2 §5.6.1: binaries[i] (lengths[i] bytes) is the binary for device_list[i].
      std::vector<ProgramBinary> given;
      for (cl_uint i = 0; i < num_devices && device_list && lengths && binaries; ++i)
        given.push_back(ProgramBinary{device_list[i], binaries[i], lengths[i]});
      CaptureEngine::instance().programCreatedFromBinary(program, given);
    });
  return program;
}

cl_program CL_API_CALL clCreateProgramWithIL(cl_context context, const void *il, size_t length,
                                             cl_int *errcode_ret) {
  const cl_icd_dispatch *d = driverOf(context);
  if (!d) {
    if (errcode_ret)
      *errcode_ret = CL_INVALID_CONTEXT;
    return nullptr;
  }
  cl_program program = d->clCreateProgramWithIL(context, il, length, errcode_ret);
  if (program)
    guarded("clCreateProgramWithIL",
            [&] { CaptureEngine::instance().programCreatedWithoutSource(program, "il"); });
  return program;
}

cl_int CL_API_CALL clCompileProgram(cl_program program, cl_uint num_devices, const cl_device_id *device_list,
                                    const char *options, cl_uint num_input_headers,
                                    const cl_program *input_headers, const char **header_include_names,
                                    void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data) {
  const cl_icd_dispatch *d = driverOf(program);
  if (!d)
    return CL_INVALID_PROGRAM;
  // As in clBuildProgram: kernel-arg info is a compile option (OpenCL 1.2 §5.6.4.5).
  std::string withArgInfo = std::string(options ? options : "") + " -cl-kernel-arg-info";
  cl_int status =
      d->clCompileProgram(program, num_devices, device_list, withArgInfo.c_str(), num_input_headers,
                          input_headers, header_include_names, pfn_notify, user_data);
  guarded("clCompileProgram", [&] {
    std::vector<std::pair<std::string, cl_program>> headers;
    for (cl_uint i = 0; i < num_input_headers && input_headers && header_include_names; ++i)
      if (header_include_names[i])
        headers.emplace_back(header_include_names[i], input_headers[i]);
    CaptureEngine::instance().programCompiled(program, options, headers);
  });
  return status;
}

cl_program CL_API_CALL clLinkProgram(cl_context context, cl_uint num_devices, const cl_device_id *device_list,
                                     const char *options, cl_uint num_input_programs,
                                     const cl_program *input_programs,
                                     void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data,
                                     cl_int *errcode_ret) {
  const cl_icd_dispatch *d = driverOf(context);
  if (!d) {
    if (errcode_ret)
      *errcode_ret = CL_INVALID_CONTEXT;
    return nullptr;
  }
  cl_program program = d->clLinkProgram(context, num_devices, device_list, options, num_input_programs,
                                        input_programs, pfn_notify, user_data, errcode_ret);
  if (program)
    guarded("clLinkProgram", [&] {
      std::vector<cl_program> inputs;
      if (input_programs)
        inputs.assign(input_programs, input_programs + num_input_programs);
      CaptureEngine::instance().programLinked(program, inputs, options);
    });
  return program;
}

cl_int CL_API_CALL clGetProgramInfo(cl_program program, cl_program_info param_name, size_t param_value_size,
                                    void *param_value, size_t *param_value_size_ret) {
  const cl_icd_dispatch *d = driverOf(program);
  if (!d)
    return CL_INVALID_PROGRAM;
  cl_int status =
      d->clGetProgramInfo(program, param_name, param_value_size, param_value, param_value_size_ret);
  // OpenCL 1.2 §5.6.7: CL_PROGRAM_BINARIES fills an array of pointers to the application's buffers, one per
  // device, each as long as CL_PROGRAM_BINARY_SIZES says (a NULL entry is skipped). What an application reads
  // here is what it caches.
  if (status == CL_SUCCESS && param_name == CL_PROGRAM_BINARIES && param_value)
    guarded("clGetProgramInfo", [&] {
      CaptureEngine::instance().programBinariesRead(*d, program,
                                                    static_cast<unsigned char *const *>(param_value),
                                                    param_value_size / sizeof(unsigned char *));
    });
  return status;
}

cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id *device_list,
                                  const char *options, void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                  void *user_data) {
  const cl_icd_dispatch *d = driverOf(program);
  if (!d)
    return CL_INVALID_PROGRAM;
  // PoCL answers clGetKernelArgInfo only for programs built with -cl-kernel-arg-info (opencl-notes.md); the
  // option changes nothing else, and the application's own options are what the capture records.
  std::string withArgInfo = std::string(options ? options : "") + " -cl-kernel-arg-info";
  cl_int status =
      d->clBuildProgram(program, num_devices, device_list, withArgInfo.c_str(), pfn_notify, user_data);
  guarded("clBuildProgram", [&] { CaptureEngine::instance().programBuilt(program, options); });
  return status;
}

cl_int CL_API_CALL clRetainProgram(cl_program program) {
  const cl_icd_dispatch *d = driverOf(program);
  if (!d)
    return CL_INVALID_PROGRAM;
  cl_int status = d->clRetainProgram(program);
  if (status == CL_SUCCESS)
    guarded("clRetainProgram", [&] { CaptureEngine::instance().programRetained(program); });
  return status;
}

cl_int CL_API_CALL clReleaseProgram(cl_program program) {
  const cl_icd_dispatch *d = driverOf(program);
  if (!d)
    return CL_INVALID_PROGRAM;
  cl_int status = d->clReleaseProgram(program);
  if (status == CL_SUCCESS)
    guarded("clReleaseProgram", [&] { CaptureEngine::instance().programReleased(program); });
  return status;
}

cl_kernel CL_API_CALL clCreateKernel(cl_program program, const char *kernel_name, cl_int *errcode_ret) {
  const cl_icd_dispatch *d = driverOf(program);
  if (!d) {
    if (errcode_ret)
      *errcode_ret = CL_INVALID_PROGRAM;
    return nullptr;
  }
  cl_kernel kernel = d->clCreateKernel(program, kernel_name, errcode_ret);
  if (kernel)
    guarded("clCreateKernel", [&] { CaptureEngine::instance().kernelCreated(kernel, program, kernel_name); });
  return kernel;
}

cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program, cl_uint num_kernels, cl_kernel *kernels,
                                            cl_uint *num_kernels_ret) {
  const cl_icd_dispatch *d = driverOf(program);
  if (!d)
    return CL_INVALID_PROGRAM;
  cl_int status = d->clCreateKernelsInProgram(program, num_kernels, kernels, num_kernels_ret);
  if (status == CL_SUCCESS && kernels)
    guarded("clCreateKernelsInProgram", [&] {
      // OpenCL 1.2 §5.7.1: kernels[] holds min(num_kernels, the program's kernel count) new kernels.
      cl_uint count = num_kernels;
      if (num_kernels_ret)
        count = std::min(count, *num_kernels_ret);
      for (cl_uint i = 0; i < count && kernels[i]; ++i) {
        char name[1024] = {0};
        if (d->clGetKernelInfo(kernels[i], CL_KERNEL_FUNCTION_NAME, sizeof name - 1, name, nullptr) ==
            CL_SUCCESS)
          CaptureEngine::instance().kernelCreated(kernels[i], program, name);
      }
    });
  return status;
}

cl_kernel CL_API_CALL clCloneKernel(cl_kernel source_kernel, cl_int *errcode_ret) {
  const cl_icd_dispatch *d = driverOf(source_kernel);
  if (!d) {
    if (errcode_ret)
      *errcode_ret = CL_INVALID_KERNEL;
    return nullptr;
  }
  cl_kernel kernel = d->clCloneKernel(source_kernel, errcode_ret);
  if (kernel)
    guarded("clCloneKernel", [&] { CaptureEngine::instance().kernelCloned(kernel, source_kernel); });
  return kernel;
}

cl_int CL_API_CALL clRetainKernel(cl_kernel kernel) {
  const cl_icd_dispatch *d = driverOf(kernel);
  if (!d)
    return CL_INVALID_KERNEL;
  cl_int status = d->clRetainKernel(kernel);
  if (status == CL_SUCCESS)
    guarded("clRetainKernel", [&] { CaptureEngine::instance().kernelRetained(kernel); });
  return status;
}

cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel) {
  const cl_icd_dispatch *d = driverOf(kernel);
  if (!d)
    return CL_INVALID_KERNEL;
  cl_int status = d->clReleaseKernel(kernel);
  if (status == CL_SUCCESS)
    guarded("clReleaseKernel", [&] { CaptureEngine::instance().kernelReleased(kernel); });
  return status;
}

cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                                  const void *arg_value) {
  const cl_icd_dispatch *d = driverOf(kernel);
  if (!d)
    return CL_INVALID_KERNEL;
  cl_int status = d->clSetKernelArg(kernel, arg_index, arg_size, arg_value);
  if (status == CL_SUCCESS)
    guarded("clSetKernelArg",
            [&] { CaptureEngine::instance().kernelArgSet(kernel, arg_index, arg_size, arg_value); });
  return status;
}

cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index, const void *arg_value) {
  const cl_icd_dispatch *d = driverOf(kernel);
  if (!d)
    return CL_INVALID_KERNEL;
  cl_int status = d->clSetKernelArgSVMPointer(kernel, arg_index, arg_value);
  if (status == CL_SUCCESS)
    guarded("clSetKernelArgSVMPointer",
            [&] { CaptureEngine::instance().kernelArgSvmSet(kernel, arg_index, arg_value); });
  return status;
}

cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void *host_ptr,
                                  cl_int *errcode_ret) {
  const cl_icd_dispatch *d = driverOf(context);
  if (!d) {
    if (errcode_ret)
      *errcode_ret = CL_INVALID_CONTEXT;
    return nullptr;
  }
  cl_mem mem = d->clCreateBuffer(context, flags, size, host_ptr, errcode_ret);
  if (mem)
    guarded("clCreateBuffer", [&] { CaptureEngine::instance().bufferCreated(mem, flags, size); });
  return mem;
}

cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context context, const cl_mem_properties *properties,
                                                cl_mem_flags flags, size_t size, void *host_ptr,
                                                cl_int *errcode_ret) {
  const cl_icd_dispatch *d = driverOf(context);
  if (!d) {
    if (errcode_ret)
      *errcode_ret = CL_INVALID_CONTEXT;
    return nullptr;
  }
  cl_mem mem = d->clCreateBufferWithProperties(context, properties, flags, size, host_ptr, errcode_ret);
  if (mem)
    guarded("clCreateBufferWithProperties", [&] {
      // A property (e.g. cl_ext_buffer_device_address) may let kernels reach the buffer unseen.
      bool plain = !properties || properties[0] == 0;
      CaptureEngine::instance().bufferCreated(mem, flags, size, plain);
    });
  return mem;
}

cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
                                     cl_buffer_create_type buffer_create_type, const void *buffer_create_info,
                                     cl_int *errcode_ret) {
  const cl_icd_dispatch *d = driverOf(buffer);
  if (!d) {
    if (errcode_ret)
      *errcode_ret = CL_INVALID_MEM_OBJECT;
    return nullptr;
  }
  cl_mem mem = d->clCreateSubBuffer(buffer, flags, buffer_create_type, buffer_create_info, errcode_ret);
  if (mem && buffer_create_type == CL_BUFFER_CREATE_TYPE_REGION && buffer_create_info)
    guarded("clCreateSubBuffer", [&] {
      const auto *region = static_cast<const cl_buffer_region *>(buffer_create_info);
      CaptureEngine::instance().subBufferCreated(mem, buffer, flags, region->origin, region->size);
    });
  return mem;
}

cl_int CL_API_CALL clRetainMemObject(cl_mem memobj) {
  const cl_icd_dispatch *d = driverOf(memobj);
  if (!d)
    return CL_INVALID_MEM_OBJECT;
  cl_int status = d->clRetainMemObject(memobj);
  if (status == CL_SUCCESS)
    guarded("clRetainMemObject", [&] { CaptureEngine::instance().memRetained(memobj); });
  return status;
}

cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj) {
  const cl_icd_dispatch *d = driverOf(memobj);
  if (!d)
    return CL_INVALID_MEM_OBJECT;
  cl_int status = d->clReleaseMemObject(memobj);
  if (status == CL_SUCCESS)
    guarded("clReleaseMemObject", [&] { CaptureEngine::instance().memReleased(memobj); });
  return status;
}

void *CL_API_CALL clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size, cl_uint alignment) {
  const cl_icd_dispatch *d = driverOf(context);
  if (!d)
    return nullptr;
  void *pointer = d->clSVMAlloc(context, flags, size, alignment);
  if (pointer)
    guarded("clSVMAlloc", [&] { CaptureEngine::instance().svmAllocated(pointer, flags, size); });
  return pointer;
}

void CL_API_CALL clSVMFree(cl_context context, void *svm_pointer) {
  const cl_icd_dispatch *d = driverOf(context);
  if (!d)
    return;
  // Forgotten first: once freed, the address may be handed out again by another thread's clSVMAlloc.
  if (svm_pointer)
    guarded("clSVMFree", [&] { CaptureEngine::instance().svmFreed(svm_pointer); });
  d->clSVMFree(context, svm_pointer);
}

namespace {

/// The shape shared by both launch hooks: describe the launch and enqueue its buffer reads, forward it with
/// the reads added to its wait list, then hand it to the engine with the driver's verdict.
template <typename Forward>
cl_int captureLaunch(const cl_icd_dispatch &d, cl_command_queue queue, cl_kernel kernel,
                     const LaunchShape &shape, cl_uint num_events_in_wait_list,
                     const cl_event *event_wait_list, Forward forward) {
  std::shared_ptr<PendingLaunch> pending;
  std::vector<cl_event> waits;
  guarded("capturing a launch", [&] {
    pending = CaptureEngine::instance().prepare(d, queue, kernel, shape, num_events_in_wait_list,
                                                event_wait_list, waits);
  });
  if (waits.empty()) {
    cl_int status = forward(num_events_in_wait_list, event_wait_list);
    if (pending)
      guarded("recording a launch", [&] { CaptureEngine::instance().commit(pending, status); });
    return status;
  }
  std::vector<cl_event> all(event_wait_list, event_wait_list + num_events_in_wait_list);
  all.insert(all.end(), waits.begin(), waits.end());
  cl_int status = forward(static_cast<cl_uint>(all.size()), all.data());
  guarded("recording a launch", [&] { CaptureEngine::instance().commit(pending, status); });
  return status;
}

} // namespace

cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
                                          const size_t *global_work_offset, const size_t *global_work_size,
                                          const size_t *local_work_size, cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list, cl_event *event) {
  const cl_icd_dispatch *d = driverOf(command_queue);
  if (!d)
    return CL_INVALID_COMMAND_QUEUE;
  LaunchShape shape;
  if (work_dim >= 1 && work_dim <= 3 && global_work_size) {
    shape.globalOffset = dims(work_dim, global_work_offset);
    shape.globalSize = dims(work_dim, global_work_size);
    shape.localSize = dims(work_dim, local_work_size);
  }
  if (shape.globalSize.empty()) // invalid launch: the driver will say so; nothing to capture
    return d->clEnqueueNDRangeKernel(command_queue, kernel, work_dim, global_work_offset, global_work_size,
                                     local_work_size, num_events_in_wait_list, event_wait_list, event);
  return captureLaunch(*d, command_queue, kernel, shape, num_events_in_wait_list, event_wait_list,
                       [&](cl_uint n, const cl_event *waits) {
                         return d->clEnqueueNDRangeKernel(command_queue, kernel, work_dim, global_work_offset,
                                                          global_work_size, local_work_size, n, waits, event);
                       });
}

cl_int CL_API_CALL clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel,
                                 cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                 cl_event *event) {
  const cl_icd_dispatch *d = driverOf(command_queue);
  if (!d)
    return CL_INVALID_COMMAND_QUEUE;
  // OpenCL 1.2 §5.8: a task is an NDRange of one work-item in one work-group.
  LaunchShape shape;
  shape.globalSize = {1};
  shape.localSize = {1};
  shape.enqueueFunction = "clEnqueueTask";
  return captureLaunch(*d, command_queue, kernel, shape, num_events_in_wait_list, event_wait_list,
                       [&](cl_uint n, const cl_event *waits) {
                         return d->clEnqueueTask(command_queue, kernel, n, waits, event);
                       });
}

// Enqueues that may change a buffer's bytes: forwarded unchanged; the engine only learns that the buffer
// changed, so that no later launch reuses a read taken before (HandleMirrors::written).

cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
                                        size_t offset, size_t size, const void *ptr,
                                        cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                        cl_event *event) {
  const cl_icd_dispatch *d = driverOf(command_queue);
  if (!d)
    return CL_INVALID_COMMAND_QUEUE;
  guarded("clEnqueueWriteBuffer", [&] { CaptureEngine::instance().memWritten(buffer); });
  return d->clEnqueueWriteBuffer(command_queue, buffer, blocking_write, offset, size, ptr,
                                 num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue command_queue, cl_mem buffer,
                                            cl_bool blocking_write, const size_t *buffer_origin,
                                            const size_t *host_origin, const size_t *region,
                                            size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                            size_t host_row_pitch, size_t host_slice_pitch, const void *ptr,
                                            cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                            cl_event *event) {
  const cl_icd_dispatch *d = driverOf(command_queue);
  if (!d)
    return CL_INVALID_COMMAND_QUEUE;
  guarded("clEnqueueWriteBufferRect", [&] { CaptureEngine::instance().memWritten(buffer); });
  return d->clEnqueueWriteBufferRect(command_queue, buffer, blocking_write, buffer_origin, host_origin,
                                     region, buffer_row_pitch, buffer_slice_pitch, host_row_pitch,
                                     host_slice_pitch, ptr, num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
                                       size_t src_offset, size_t dst_offset, size_t size,
                                       cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                       cl_event *event) {
  const cl_icd_dispatch *d = driverOf(command_queue);
  if (!d)
    return CL_INVALID_COMMAND_QUEUE;
  guarded("clEnqueueCopyBuffer", [&] { CaptureEngine::instance().memWritten(dst_buffer); });
  return d->clEnqueueCopyBuffer(command_queue, src_buffer, dst_buffer, src_offset, dst_offset, size,
                                num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue command_queue, cl_mem src_buffer,
                                           cl_mem dst_buffer, const size_t *src_origin,
                                           const size_t *dst_origin, const size_t *region,
                                           size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch,
                                           size_t dst_slice_pitch, cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list, cl_event *event) {
  const cl_icd_dispatch *d = driverOf(command_queue);
  if (!d)
    return CL_INVALID_COMMAND_QUEUE;
  guarded("clEnqueueCopyBufferRect", [&] { CaptureEngine::instance().memWritten(dst_buffer); });
  return d->clEnqueueCopyBufferRect(command_queue, src_buffer, dst_buffer, src_origin, dst_origin, region,
                                    src_row_pitch, src_slice_pitch, dst_row_pitch, dst_slice_pitch,
                                    num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer, const void *pattern,
                                       size_t pattern_size, size_t offset, size_t size,
                                       cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                       cl_event *event) {
  const cl_icd_dispatch *d = driverOf(command_queue);
  if (!d)
    return CL_INVALID_COMMAND_QUEUE;
  guarded("clEnqueueFillBuffer", [&] { CaptureEngine::instance().memWritten(buffer); });
  return d->clEnqueueFillBuffer(command_queue, buffer, pattern, pattern_size, offset, size,
                                num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image,
                                              cl_mem dst_buffer, const size_t *src_origin,
                                              const size_t *region, size_t dst_offset,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event *event_wait_list, cl_event *event) {
  const cl_icd_dispatch *d = driverOf(command_queue);
  if (!d)
    return CL_INVALID_COMMAND_QUEUE;
  guarded("clEnqueueCopyImageToBuffer", [&] { CaptureEngine::instance().memWritten(dst_buffer); });
  return d->clEnqueueCopyImageToBuffer(command_queue, src_image, dst_buffer, src_origin, region, dst_offset,
                                       num_events_in_wait_list, event_wait_list, event);
}

void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_map,
                                     cl_map_flags map_flags, size_t offset, size_t size,
                                     cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                     cl_event *event, cl_int *errcode_ret) {
  const cl_icd_dispatch *d = driverOf(command_queue);
  if (!d) {
    if (errcode_ret)
      *errcode_ret = CL_INVALID_COMMAND_QUEUE;
    return nullptr;
  }
  // The host writes a region mapped for writing at any time until the unmap (which is hooked too).
  if (map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))
    guarded("clEnqueueMapBuffer", [&] { CaptureEngine::instance().memWritten(buffer); });
  return d->clEnqueueMapBuffer(command_queue, buffer, blocking_map, map_flags, offset, size,
                               num_events_in_wait_list, event_wait_list, event, errcode_ret);
}

cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue command_queue, cl_mem memobj, void *mapped_ptr,
                                           cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                           cl_event *event) {
  const cl_icd_dispatch *d = driverOf(command_queue);
  if (!d)
    return CL_INVALID_COMMAND_QUEUE;
  guarded("clEnqueueUnmapMemObject", [&] { CaptureEngine::instance().memWritten(memobj); });
  return d->clEnqueueUnmapMemObject(command_queue, memobj, mapped_ptr, num_events_in_wait_list,
                                    event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueNativeKernel(cl_command_queue command_queue, void(CL_CALLBACK *user_func)(void *),
                                         void *args, size_t cb_args, cl_uint num_mem_objects,
                                         const cl_mem *mem_list, const void **args_mem_loc,
                                         cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                         cl_event *event) {
  const cl_icd_dispatch *d = driverOf(command_queue);
  if (!d)
    return CL_INVALID_COMMAND_QUEUE;
  guarded("clEnqueueNativeKernel", [&] {
    for (cl_uint i = 0; mem_list && i < num_mem_objects; ++i)
      CaptureEngine::instance().memWritten(mem_list[i]);
  });
  return d->clEnqueueNativeKernel(command_queue, user_func, args, cb_args, num_mem_objects, mem_list,
                                  args_mem_loc, num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue command_queue, cl_uint num_mem_objects,
                                              const cl_mem *mem_objects, cl_mem_migration_flags flags,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event *event_wait_list, cl_event *event) {
  const cl_icd_dispatch *d = driverOf(command_queue);
  if (!d)
    return CL_INVALID_COMMAND_QUEUE;
  // OpenCL 1.2 §5.4.4: CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED leaves the contents undefined.
  if (flags & CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)
    guarded("clEnqueueMigrateMemObjects", [&] {
      for (cl_uint i = 0; mem_objects && i < num_mem_objects; ++i)
        CaptureEngine::instance().memWritten(mem_objects[i]);
    });
  return d->clEnqueueMigrateMemObjects(command_queue, num_mem_objects, mem_objects, flags,
                                       num_events_in_wait_list, event_wait_list, event);
}

void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char *func_name) {
  const cl_icd_dispatch *d = driverOf(platform);
  if (!d)
    return nullptr;
  guarded("clGetExtensionFunctionAddressForPlatform",
          [&] { CaptureEngine::instance().extensionFunctionFetched(func_name); });
  return d->clGetExtensionFunctionAddressForPlatform(platform, func_name);
}

cl_int CL_API_CALL clFinish(cl_command_queue command_queue) {
  const cl_icd_dispatch *d = driverOf(command_queue);
  if (!d)
    return CL_INVALID_COMMAND_QUEUE;
  cl_int status = d->clFinish(command_queue);
  if (status == CL_SUCCESS)
    guarded("clFinish", [&] { CaptureEngine::instance().queueFinished(command_queue); });
  return status;
}

cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue command_queue) {
  const cl_icd_dispatch *d = driverOf(command_queue);
  if (!d)
    return CL_INVALID_COMMAND_QUEUE;
  // Queues are not mirrored from their creation (several entry points create them), so ask whether this
  // release is the last: a handle the driver reuses for a new queue must get a new queue number.
  cl_uint refs = 0;
  bool last = d->clGetCommandQueueInfo(command_queue, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs,
                                       nullptr) == CL_SUCCESS &&
              refs == 1;
  cl_int status = d->clReleaseCommandQueue(command_queue);
  if (status == CL_SUCCESS && last)
    guarded("clReleaseCommandQueue", [&] { CaptureEngine::instance().queueReleased(command_queue); });
  return status;
}

} // namespace

void installHooks(cl_icd_dispatch *table, const TableLimits &limits) {
#define CLCAPTURE_INSTALL(name, since)                                                                       \
  if (CLCAPTURE_ENTRY_ALLOWED(limits, name, since) && table->name)                                           \
    table->name = &name;
  CLCAPTURE_HOOKS(CLCAPTURE_INSTALL)
#undef CLCAPTURE_INSTALL
}

} // namespace clcapture::layer::hooks
