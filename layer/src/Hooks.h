//===- Hooks.h - The hand-written hooks, one per entry of HookList.h -*- C++ -*-===//
#pragma once

#include <CL/cl_icd.h>

namespace clcapture::layer::hooks {

cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count, const char **strings,
                                                 const size_t *lengths, cl_int *errcode_ret);
cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id *device_list,
                                  const char *options, void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                  void *user_data);
cl_int CL_API_CALL clRetainProgram(cl_program program);
cl_int CL_API_CALL clReleaseProgram(cl_program program);
cl_kernel CL_API_CALL clCreateKernel(cl_program program, const char *kernel_name, cl_int *errcode_ret);
cl_int CL_API_CALL clRetainKernel(cl_kernel kernel);
cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel);
cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                                  const void *arg_value);
cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void *host_ptr,
                                  cl_int *errcode_ret);
cl_int CL_API_CALL clRetainMemObject(cl_mem memobj);
cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj);
cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
                                          const size_t *global_work_offset, const size_t *global_work_size,
                                          const size_t *local_work_size, cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel,
                                 cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                 cl_event *event);

} // namespace clcapture::layer::hooks
