//===- Hooks.cpp - The hand-written hooks: forward unchanged, then record -===//
//
// Every hook forwards to the driver's own entry with the application's arguments, returns the driver's
// result untouched, and records only what the call did (HookShape.h: the three shapes, and the answer for a
// handle that leads to no driver). Recording never throws across the C ABI and never changes what the
// application sees.
//
//===----------------------------------------------------------------------===//

#include "dispatch/Hooks.h"

#include "dispatch/HookShape.h"
#include "engine/CaptureEngine.h"

#include <algorithm>
#include <string>
#include <vector>

namespace clcapture::layer::hooks {
namespace {

using D = cl_icd_dispatch;

CaptureEngine &engine() {
  return CaptureEngine::instance();
}

std::vector<std::uint64_t> dims(cl_uint n, const size_t *values) {
  std::vector<std::uint64_t> out;
  if (values)
    for (cl_uint i = 0; i < n; ++i)
      out.push_back(values[i]);
  return out;
}

// ---- programs

cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count, const char **strings,
                                                 const size_t *lengths, cl_int *errcode_ret) {
  return forwardThenRecord<&D::clCreateProgramWithSource>(
      "clCreateProgramWithSource", context, CL_INVALID_CONTEXT,
      [&](const D &, cl_program program) {
        // OpenCL 1.2 §5.8.1: a length of 0 (or no lengths array) means a NUL-terminated string.
        std::string source;
        for (cl_uint i = 0; i < count; ++i)
          source += lengths && lengths[i] ? std::string(strings[i], lengths[i]) : std::string(strings[i]);
        engine().programCreated(program, std::move(source));
      },
      context, count, strings, lengths, errcode_ret);
}

cl_program CL_API_CALL clCreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                                 const cl_device_id *device_list, const size_t *lengths,
                                                 const unsigned char **binaries, cl_int *binary_status,
                                                 cl_int *errcode_ret) {
  return forwardThenRecord<&D::clCreateProgramWithBinary>(
      "clCreateProgramWithBinary", context, CL_INVALID_CONTEXT,
      [&](const D &, cl_program program) {
        // OpenCL 1.2 §5.6.1: binaries[i] (lengths[i] bytes) is the binary for device_list[i].
        std::vector<ProgramBinary> given;
        for (cl_uint i = 0; i < num_devices && device_list && lengths && binaries; ++i)
          given.push_back(ProgramBinary{device_list[i], binaries[i], lengths[i]});
        engine().programCreatedFromBinary(program, given);
      },
      context, num_devices, device_list, lengths, binaries, binary_status, errcode_ret);
}

cl_program CL_API_CALL clCreateProgramWithIL(cl_context context, const void *il, size_t length,
                                             cl_int *errcode_ret) {
  return forwardThenRecord<&D::clCreateProgramWithIL>(
      "clCreateProgramWithIL", context, CL_INVALID_CONTEXT,
      [&](const D &, cl_program program) { engine().programCreatedWithoutSource(program, "il"); }, context,
      il, length, errcode_ret);
}

cl_int CL_API_CALL clCompileProgram(cl_program program, cl_uint num_devices, const cl_device_id *device_list,
                                    const char *options, cl_uint num_input_headers,
                                    const cl_program *input_headers, const char **header_include_names,
                                    void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data) {
  return withDriver(program, CL_INVALID_PROGRAM, [&](const D &d) {
    cl_int status = d.clCompileProgram(program, num_devices, device_list, options, num_input_headers,
                                       input_headers, header_include_names, pfn_notify, user_data);
    guarded("clCompileProgram", [&] {
      std::vector<std::pair<std::string, cl_program>> headers;
      for (cl_uint i = 0; i < num_input_headers && input_headers && header_include_names; ++i)
        if (header_include_names[i])
          headers.emplace_back(header_include_names[i], input_headers[i]);
      engine().programCompiled(program, options, headers);
    });
    return status;
  });
}

cl_program CL_API_CALL clLinkProgram(cl_context context, cl_uint num_devices, const cl_device_id *device_list,
                                     const char *options, cl_uint num_input_programs,
                                     const cl_program *input_programs,
                                     void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data,
                                     cl_int *errcode_ret) {
  return forwardThenRecord<&D::clLinkProgram>(
      "clLinkProgram", context, CL_INVALID_CONTEXT,
      [&](const D &, cl_program program) {
        std::vector<cl_program> inputs;
        if (input_programs)
          inputs.assign(input_programs, input_programs + num_input_programs);
        engine().programLinked(program, inputs, options);
      },
      context, num_devices, device_list, options, num_input_programs, input_programs, pfn_notify, user_data,
      errcode_ret);
}

cl_int CL_API_CALL clGetProgramInfo(cl_program program, cl_program_info param_name, size_t param_value_size,
                                    void *param_value, size_t *param_value_size_ret) {
  // OpenCL 1.2 §5.6.7: CL_PROGRAM_BINARIES fills an array of pointers to the application's buffers, one per
  // device, each as long as CL_PROGRAM_BINARY_SIZES says (a NULL entry is skipped). What an application reads
  // here is what it caches.
  return forwardThenRecord<&D::clGetProgramInfo>(
      "clGetProgramInfo", program, CL_INVALID_PROGRAM,
      [&](const D &d, cl_int) {
        if (param_name == CL_PROGRAM_BINARIES && param_value)
          engine().programBinariesRead(d, program, static_cast<unsigned char *const *>(param_value),
                                       param_value_size / sizeof(unsigned char *));
      },
      program, param_name, param_value_size, param_value, param_value_size_ret);
}

cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id *device_list,
                                  const char *options, void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                  void *user_data) {
  return withDriver(program, CL_INVALID_PROGRAM, [&](const D &d) {
    cl_int status = d.clBuildProgram(program, num_devices, device_list, options, pfn_notify, user_data);
    guarded("clBuildProgram", [&] { engine().programBuilt(program, options); });
    return status;
  });
}

cl_int CL_API_CALL clRetainProgram(cl_program program) {
  return forwardThenRecord<&D::clRetainProgram>(
      "clRetainProgram", program, CL_INVALID_PROGRAM,
      [&](const D &, cl_int) { engine().programRetained(program); }, program);
}

cl_int CL_API_CALL clReleaseProgram(cl_program program) {
  return forwardThenRecord<&D::clReleaseProgram>(
      "clReleaseProgram", program, CL_INVALID_PROGRAM,
      [&](const D &, cl_int) { engine().programReleased(program); }, program);
}

// ---- kernels and their arguments

cl_kernel CL_API_CALL clCreateKernel(cl_program program, const char *kernel_name, cl_int *errcode_ret) {
  return forwardThenRecord<&D::clCreateKernel>(
      "clCreateKernel", program, CL_INVALID_PROGRAM,
      [&](const D &, cl_kernel kernel) { engine().kernelCreated(kernel, program, kernel_name); }, program,
      kernel_name, errcode_ret);
}

cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program, cl_uint num_kernels, cl_kernel *kernels,
                                            cl_uint *num_kernels_ret) {
  return forwardThenRecord<&D::clCreateKernelsInProgram>(
      "clCreateKernelsInProgram", program, CL_INVALID_PROGRAM,
      [&](const D &d, cl_int) {
        if (!kernels)
          return;
        // OpenCL 1.2 §5.7.1: kernels[] holds min(num_kernels, the program's kernel count) new kernels.
        cl_uint count = num_kernels;
        if (num_kernels_ret)
          count = std::min(count, *num_kernels_ret);
        for (cl_uint i = 0; i < count && kernels[i]; ++i) {
          char name[1024] = {0};
          if (d.clGetKernelInfo(kernels[i], CL_KERNEL_FUNCTION_NAME, sizeof name - 1, name, nullptr) ==
              CL_SUCCESS)
            engine().kernelCreated(kernels[i], program, name);
        }
      },
      program, num_kernels, kernels, num_kernels_ret);
}

cl_kernel CL_API_CALL clCloneKernel(cl_kernel source_kernel, cl_int *errcode_ret) {
  return forwardThenRecord<&D::clCloneKernel>(
      "clCloneKernel", source_kernel, CL_INVALID_KERNEL,
      [&](const D &, cl_kernel kernel) { engine().kernelCloned(kernel, source_kernel); }, source_kernel,
      errcode_ret);
}

cl_int CL_API_CALL clRetainKernel(cl_kernel kernel) {
  return forwardThenRecord<&D::clRetainKernel>(
      "clRetainKernel", kernel, CL_INVALID_KERNEL,
      [&](const D &, cl_int) { engine().kernelRetained(kernel); }, kernel);
}

cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel) {
  return forwardThenRecord<&D::clReleaseKernel>(
      "clReleaseKernel", kernel, CL_INVALID_KERNEL,
      [&](const D &, cl_int) { engine().kernelReleased(kernel); }, kernel);
}

cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                                  const void *arg_value) {
  return forwardThenRecord<&D::clSetKernelArg>(
      "clSetKernelArg", kernel, CL_INVALID_KERNEL,
      [&](const D &, cl_int) { engine().kernelArgSet(kernel, arg_index, arg_size, arg_value); }, kernel,
      arg_index, arg_size, arg_value);
}

cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index, const void *arg_value) {
  return forwardThenRecord<&D::clSetKernelArgSVMPointer>(
      "clSetKernelArgSVMPointer", kernel, CL_INVALID_KERNEL,
      [&](const D &, cl_int) { engine().kernelArgSvmSet(kernel, arg_index, arg_value); }, kernel, arg_index,
      arg_value);
}

// ---- memory objects

cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void *host_ptr,
                                  cl_int *errcode_ret) {
  return forwardThenRecord<&D::clCreateBuffer>(
      "clCreateBuffer", context, CL_INVALID_CONTEXT,
      [&](const D &, cl_mem mem) { engine().bufferCreated(mem, flags, size); }, context, flags, size,
      host_ptr, errcode_ret);
}

cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context context, const cl_mem_properties *properties,
                                                cl_mem_flags flags, size_t size, void *host_ptr,
                                                cl_int *errcode_ret) {
  return forwardThenRecord<&D::clCreateBufferWithProperties>(
      "clCreateBufferWithProperties", context, CL_INVALID_CONTEXT,
      [&](const D &, cl_mem mem) {
        // A property (e.g. cl_ext_buffer_device_address) may let kernels reach the buffer unseen.
        bool plain = !properties || properties[0] == 0;
        engine().bufferCreated(mem, flags, size, plain);
      },
      context, properties, flags, size, host_ptr, errcode_ret);
}

cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
                                     cl_buffer_create_type buffer_create_type, const void *buffer_create_info,
                                     cl_int *errcode_ret) {
  return forwardThenRecord<&D::clCreateSubBuffer>(
      "clCreateSubBuffer", buffer, CL_INVALID_MEM_OBJECT,
      [&](const D &, cl_mem mem) {
        if (buffer_create_type != CL_BUFFER_CREATE_TYPE_REGION || !buffer_create_info)
          return;
        const auto *region = static_cast<const cl_buffer_region *>(buffer_create_info);
        engine().subBufferCreated(mem, buffer, flags, region->origin, region->size);
      },
      buffer, flags, buffer_create_type, buffer_create_info, errcode_ret);
}

cl_int CL_API_CALL clRetainMemObject(cl_mem memobj) {
  return forwardThenRecord<&D::clRetainMemObject>(
      "clRetainMemObject", memobj, CL_INVALID_MEM_OBJECT,
      [&](const D &, cl_int) { engine().memRetained(memobj); }, memobj);
}

cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj) {
  return forwardThenRecord<&D::clReleaseMemObject>(
      "clReleaseMemObject", memobj, CL_INVALID_MEM_OBJECT,
      [&](const D &, cl_int) { engine().memReleased(memobj); }, memobj);
}

void *CL_API_CALL clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size, cl_uint alignment) {
  return forwardThenRecord<&D::clSVMAlloc>(
      "clSVMAlloc", context, CL_INVALID_CONTEXT,
      [&](const D &, void *pointer) { engine().svmAllocated(pointer, flags, size); }, context, flags, size,
      alignment);
}

void CL_API_CALL clSVMFree(cl_context context, void *svm_pointer) {
  // Forgotten first: once freed, the address may be handed out again by another thread's clSVMAlloc.
  noteThenForward<&D::clSVMFree>(
      "clSVMFree", context, CL_INVALID_CONTEXT,
      [&] {
        if (svm_pointer)
          engine().svmFreed(svm_pointer);
      },
      context, svm_pointer);
}

// ---- launches

/// The shape shared by both launch hooks: describe the launch and enqueue its buffer reads, forward it with
/// the reads added to its wait list, then hand it to the engine with the driver's verdict.
template <typename Forward>
cl_int captureLaunch(const cl_icd_dispatch &d, cl_command_queue queue, cl_kernel kernel,
                     const LaunchShape &shape, cl_uint num_events_in_wait_list,
                     const cl_event *event_wait_list, Forward forward) {
  std::shared_ptr<PendingLaunch> pending;
  std::vector<cl_event> waits;
  guarded("capturing a launch", [&] {
    pending = engine().prepare(d, queue, kernel, shape, num_events_in_wait_list, event_wait_list, waits);
  });
  if (waits.empty()) {
    cl_int status = forward(num_events_in_wait_list, event_wait_list);
    if (pending)
      guarded("recording a launch", [&] { engine().commit(pending, status); });
    return status;
  }
  std::vector<cl_event> all(event_wait_list, event_wait_list + num_events_in_wait_list);
  all.insert(all.end(), waits.begin(), waits.end());
  cl_int status = forward(static_cast<cl_uint>(all.size()), all.data());
  guarded("recording a launch", [&] { engine().commit(pending, status); });
  return status;
}

cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
                                          const size_t *global_work_offset, const size_t *global_work_size,
                                          const size_t *local_work_size, cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list, cl_event *event) {
  return withDriver(command_queue, CL_INVALID_COMMAND_QUEUE, [&](const D &d) {
    auto forward = [&](cl_uint n, const cl_event *waits) {
      return d.clEnqueueNDRangeKernel(command_queue, kernel, work_dim, global_work_offset, global_work_size,
                                      local_work_size, n, waits, event);
    };
    LaunchShape shape;
    if (work_dim >= 1 && work_dim <= 3 && global_work_size) {
      shape.globalOffset = dims(work_dim, global_work_offset);
      shape.globalSize = dims(work_dim, global_work_size);
      shape.localSize = dims(work_dim, local_work_size);
    }
    if (shape.globalSize.empty()) // invalid launch: the driver will say so; nothing to capture
      return forward(num_events_in_wait_list, event_wait_list);
    return captureLaunch(d, command_queue, kernel, shape, num_events_in_wait_list, event_wait_list, forward);
  });
}

cl_int CL_API_CALL clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel,
                                 cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                 cl_event *event) {
  return withDriver(command_queue, CL_INVALID_COMMAND_QUEUE, [&](const D &d) {
    // OpenCL 1.2 §5.8: a task is an NDRange of one work-item in one work-group.
    LaunchShape shape;
    shape.globalSize = {1};
    shape.localSize = {1};
    shape.enqueueFunction = "clEnqueueTask";
    return captureLaunch(d, command_queue, kernel, shape, num_events_in_wait_list, event_wait_list,
                         [&](cl_uint n, const cl_event *waits) {
                           return d.clEnqueueTask(command_queue, kernel, n, waits, event);
                         });
  });
}

// ---- enqueues that may change a buffer's bytes: forwarded unchanged; the engine only learns that the
// buffer changed, so that no later launch reuses a read taken before (HandleMirrors::written).

cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
                                        size_t offset, size_t size, const void *ptr,
                                        cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                        cl_event *event) {
  return noteThenForward<&D::clEnqueueWriteBuffer>(
      "clEnqueueWriteBuffer", command_queue, CL_INVALID_COMMAND_QUEUE, [&] { engine().memWritten(buffer); },
      command_queue, buffer, blocking_write, offset, size, ptr, num_events_in_wait_list, event_wait_list,
      event);
}

cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue command_queue, cl_mem buffer,
                                            cl_bool blocking_write, const size_t *buffer_origin,
                                            const size_t *host_origin, const size_t *region,
                                            size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                            size_t host_row_pitch, size_t host_slice_pitch, const void *ptr,
                                            cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                            cl_event *event) {
  return noteThenForward<&D::clEnqueueWriteBufferRect>(
      "clEnqueueWriteBufferRect", command_queue, CL_INVALID_COMMAND_QUEUE,
      [&] { engine().memWritten(buffer); }, command_queue, buffer, blocking_write, buffer_origin, host_origin,
      region, buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr,
      num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
                                       size_t src_offset, size_t dst_offset, size_t size,
                                       cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                       cl_event *event) {
  return noteThenForward<&D::clEnqueueCopyBuffer>(
      "clEnqueueCopyBuffer", command_queue, CL_INVALID_COMMAND_QUEUE,
      [&] { engine().memWritten(dst_buffer); }, command_queue, src_buffer, dst_buffer, src_offset, dst_offset,
      size, num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue command_queue, cl_mem src_buffer,
                                           cl_mem dst_buffer, const size_t *src_origin,
                                           const size_t *dst_origin, const size_t *region,
                                           size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch,
                                           size_t dst_slice_pitch, cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list, cl_event *event) {
  return noteThenForward<&D::clEnqueueCopyBufferRect>(
      "clEnqueueCopyBufferRect", command_queue, CL_INVALID_COMMAND_QUEUE,
      [&] { engine().memWritten(dst_buffer); }, command_queue, src_buffer, dst_buffer, src_origin, dst_origin,
      region, src_row_pitch, src_slice_pitch, dst_row_pitch, dst_slice_pitch, num_events_in_wait_list,
      event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer, const void *pattern,
                                       size_t pattern_size, size_t offset, size_t size,
                                       cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                       cl_event *event) {
  return noteThenForward<&D::clEnqueueFillBuffer>(
      "clEnqueueFillBuffer", command_queue, CL_INVALID_COMMAND_QUEUE, [&] { engine().memWritten(buffer); },
      command_queue, buffer, pattern, pattern_size, offset, size, num_events_in_wait_list, event_wait_list,
      event);
}

cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image,
                                              cl_mem dst_buffer, const size_t *src_origin,
                                              const size_t *region, size_t dst_offset,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event *event_wait_list, cl_event *event) {
  return noteThenForward<&D::clEnqueueCopyImageToBuffer>(
      "clEnqueueCopyImageToBuffer", command_queue, CL_INVALID_COMMAND_QUEUE,
      [&] { engine().memWritten(dst_buffer); }, command_queue, src_image, dst_buffer, src_origin, region,
      dst_offset, num_events_in_wait_list, event_wait_list, event);
}

void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_map,
                                     cl_map_flags map_flags, size_t offset, size_t size,
                                     cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                     cl_event *event, cl_int *errcode_ret) {
  // The host writes a region mapped for writing at any time until the unmap (which is hooked too).
  return noteThenForward<&D::clEnqueueMapBuffer>(
      "clEnqueueMapBuffer", command_queue, CL_INVALID_COMMAND_QUEUE,
      [&] {
        if (map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))
          engine().memWritten(buffer);
      },
      command_queue, buffer, blocking_map, map_flags, offset, size, num_events_in_wait_list, event_wait_list,
      event, errcode_ret);
}

cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue command_queue, cl_mem memobj, void *mapped_ptr,
                                           cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                           cl_event *event) {
  return noteThenForward<&D::clEnqueueUnmapMemObject>(
      "clEnqueueUnmapMemObject", command_queue, CL_INVALID_COMMAND_QUEUE,
      [&] { engine().memWritten(memobj); }, command_queue, memobj, mapped_ptr, num_events_in_wait_list,
      event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueNativeKernel(cl_command_queue command_queue, void(CL_CALLBACK *user_func)(void *),
                                         void *args, size_t cb_args, cl_uint num_mem_objects,
                                         const cl_mem *mem_list, const void **args_mem_loc,
                                         cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                         cl_event *event) {
  return noteThenForward<&D::clEnqueueNativeKernel>(
      "clEnqueueNativeKernel", command_queue, CL_INVALID_COMMAND_QUEUE,
      [&] {
        for (cl_uint i = 0; mem_list && i < num_mem_objects; ++i)
          engine().memWritten(mem_list[i]);
      },
      command_queue, user_func, args, cb_args, num_mem_objects, mem_list, args_mem_loc,
      num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue command_queue, cl_uint num_mem_objects,
                                              const cl_mem *mem_objects, cl_mem_migration_flags flags,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event *event_wait_list, cl_event *event) {
  // OpenCL 1.2 §5.4.4: CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED leaves the contents undefined.
  return noteThenForward<&D::clEnqueueMigrateMemObjects>(
      "clEnqueueMigrateMemObjects", command_queue, CL_INVALID_COMMAND_QUEUE,
      [&] {
        if (flags & CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)
          for (cl_uint i = 0; mem_objects && i < num_mem_objects; ++i)
            engine().memWritten(mem_objects[i]);
      },
      command_queue, num_mem_objects, mem_objects, flags, num_events_in_wait_list, event_wait_list, event);
}

// ---- the rest

void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char *func_name) {
  return noteThenForward<&D::clGetExtensionFunctionAddressForPlatform>(
      "clGetExtensionFunctionAddressForPlatform", platform, CL_INVALID_PLATFORM,
      [&] { engine().extensionFunctionFetched(func_name); }, platform, func_name);
}

cl_int CL_API_CALL clFinish(cl_command_queue command_queue) {
  return forwardThenRecord<&D::clFinish>(
      "clFinish", command_queue, CL_INVALID_COMMAND_QUEUE,
      [&](const D &, cl_int) { engine().queueFinished(command_queue); }, command_queue);
}

cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue command_queue) {
  return withDriver(command_queue, CL_INVALID_COMMAND_QUEUE, [&](const D &d) {
    // Queues are not mirrored from their creation (several entry points create them), so ask whether this
    // release is the last: a handle the driver reuses for a new queue must get a new queue number.
    cl_uint refs = 0;
    bool last = d.clGetCommandQueueInfo(command_queue, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs,
                                        nullptr) == CL_SUCCESS &&
                refs == 1;
    cl_int status = d.clReleaseCommandQueue(command_queue);
    if (status == CL_SUCCESS && last)
      guarded("clReleaseCommandQueue", [&] { engine().queueReleased(command_queue); });
    return status;
  });
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
