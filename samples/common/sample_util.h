/* Helpers shared by the sample host programs: error checks that name the failing call, and device choice.
 * The samples are ordinary OpenCL 1.2 applications; they know nothing about clcapture. */
#ifndef CLCAPTURE_SAMPLE_UTIL_H
#define CLCAPTURE_SAMPLE_UTIL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS /* clCreateCommandQueue, for samples built against newer headers   \
                                           */
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_CL(call)                                                                                       \
  do {                                                                                                       \
    cl_int check_cl_status_ = (call);                                                                        \
    if (check_cl_status_ != CL_SUCCESS) {                                                                    \
      fprintf(stderr, "%s:%d: %s failed with %d\n", __FILE__, __LINE__, #call, (int)check_cl_status_);       \
      exit(2);                                                                                               \
    }                                                                                                        \
  } while (0)

#define CHECK_ERR(err, what)                                                                                 \
  do {                                                                                                       \
    if ((err) != CL_SUCCESS) {                                                                               \
      fprintf(stderr, "%s:%d: %s failed with %d\n", __FILE__, __LINE__, what, (int)(err));                   \
      exit(2);                                                                                               \
    }                                                                                                        \
  } while (0)

/* The first device of the first platform that has one. Tests set SAMPLE_EXPECT_PLATFORM to a part of the
 * platform name they mean to run on: the first such platform is taken, and when there is none the sample
 * fails instead of passing on another driver (the Khronos loader adds the system's drivers to the ones the
 * environment names). */
static inline void sample_pick_device(cl_platform_id *platform, cl_device_id *device) {
  cl_platform_id platforms[16];
  cl_uint count = 0;
  CHECK_CL(clGetPlatformIDs(16, platforms, &count));
  const char *expect = getenv("SAMPLE_EXPECT_PLATFORM");
  for (cl_uint i = 0; i < count && i < 16; ++i) {
    char name[256] = {0};
    clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name - 1, name, NULL);
    if (expect && !strstr(name, expect)) {
      fprintf(stderr, "platform '%s' skipped: expected one named like '%s'\n", name, expect);
      continue;
    }
    cl_uint devices = 0;
    if (clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_ALL, 1, device, &devices) == CL_SUCCESS && devices > 0) {
      fprintf(stderr, "platform: %s\n", name);
      *platform = platforms[i];
      return;
    }
  }
  fprintf(stderr, expect ? "no OpenCL device on a platform named like '%s'\n" : "no OpenCL device found\n",
          expect);
  exit(2);
}

/* Picks a device, creates a context on it and a command queue with `properties`. Returns the queue's
 * creation status so that a caller can fall back when the properties are not supported. */
static inline cl_int sample_open(cl_command_queue_properties properties, cl_device_id *device,
                                 cl_context *context, cl_command_queue *queue) {
  cl_platform_id platform;
  sample_pick_device(&platform, device);
  cl_int err;
  *context = clCreateContext(NULL, 1, device, NULL, NULL, &err);
  CHECK_ERR(err, "clCreateContext");
  *queue = clCreateCommandQueue(*context, *device, properties, &err);
  return err;
}

/* Builds `source`; on failure prints the build log and exits. */
static inline cl_program sample_build(cl_context context, cl_device_id device, const char *source,
                                      const char *options) {
  cl_int err;
  cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
  CHECK_ERR(err, "clCreateProgramWithSource");
  if (clBuildProgram(program, 1, &device, options, NULL, NULL) != CL_SUCCESS) {
    char log[16384] = {0};
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
    fprintf(stderr, "build failed:\n%s\n", log);
    exit(2);
  }
  return program;
}

#endif
