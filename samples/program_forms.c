/* program_forms: programs made the other ways OpenCL allows, each of which the capture must turn back into
 * one source that compiles on its own.
 *  - clCompileProgram with an input header ("scale.h", passed as a program) and an #include found through
 *    -I (samples/kernels/offset.h), then clLinkProgram with a second program whose kernel calls a function
 *    defined in the first;
 *  - clCloneKernel (OpenCL 2.1, when the platform has it): the clone starts with the source kernel's
 *    argument values, and its launch is captured with them.
 * usage: program_forms    (prints PASS when every result is right) */
#define CL_TARGET_OPENCL_VERSION 300
#include "common/sample_util.h"

#ifndef SAMPLE_KERNEL_DIR
#error "SAMPLE_KERNEL_DIR (the folder of offset.h) must be defined by the build"
#endif

#define N 64

static const char *kScaleHeader = "#define SCALE 3\n";

static const char *kHelperSource = "#include \"scale.h\"\n"
                                   "#include \"offset.h\"\n"
                                   "int helper(int x) { return x * SCALE + OFFSET; }\n";

static const char *kKernelSource = "int helper(int x);\n"
                                   "kernel void apply(global int *a, int bias) {\n"
                                   "  size_t i = get_global_id(0);\n"
                                   "  a[i] = helper(a[i]) + bias;\n"
                                   "}\n";

static cl_program compile(cl_context context, cl_device_id device, const char *source, const char *options,
                          cl_uint num_headers, const cl_program *headers, const char **names) {
  cl_int err;
  cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
  CHECK_ERR(err, "clCreateProgramWithSource");
  if (clCompileProgram(program, 1, &device, options, num_headers, headers, names, NULL, NULL) != CL_SUCCESS) {
    char log[16384] = {0};
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
    fprintf(stderr, "compile failed:\n%s\n", log);
    exit(2);
  }
  return program;
}

static int check(cl_command_queue queue, cl_mem buffer, int bias, const char *what) {
  int out[N];
  CHECK_CL(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  int bad = 0;
  for (int i = 0; i < N; ++i)
    bad += out[i] != i * 3 + 7 + bias;
  fprintf(stderr, "program_forms: %s: %d mismatches\n", what, bad);
  return bad;
}

int main(void) {
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  CHECK_ERR(sample_open(0, &device, &context, &queue), "clCreateCommandQueue");
  cl_int err;

  cl_program header = clCreateProgramWithSource(context, 1, &kScaleHeader, NULL, &err);
  CHECK_ERR(err, "clCreateProgramWithSource(header)");
  const char *names[] = {"scale.h"};
  cl_program helper = compile(context, device, kHelperSource, "-I " SAMPLE_KERNEL_DIR, 1, &header, names);
  cl_program kernels = compile(context, device, kKernelSource, "", 0, NULL, NULL);
  cl_program inputs[] = {helper, kernels};
  cl_program linked = clLinkProgram(context, 1, &device, "", 2, inputs, NULL, NULL, &err);
  CHECK_ERR(err, "clLinkProgram");
  cl_kernel apply = clCreateKernel(linked, "apply", &err);
  CHECK_ERR(err, "clCreateKernel");

  int init[N];
  for (int i = 0; i < N; ++i)
    init[i] = i;
  cl_mem a = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init, init, &err);
  CHECK_ERR(err, "clCreateBuffer");
  int bias = 0;
  CHECK_CL(clSetKernelArg(apply, 0, sizeof a, &a));
  CHECK_CL(clSetKernelArg(apply, 1, sizeof bias, &bias));
  size_t global = N;
  CHECK_CL(clEnqueueNDRangeKernel(queue, apply, 1, NULL, &global, NULL, 0, NULL, NULL));
  int bad = check(queue, a, 0, "compiled and linked");

  /* clCloneKernel where the platform is OpenCL 2.1 or newer. */
  cl_platform_id platform;
  CHECK_CL(clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL));
  char version[128] = {0};
  CHECK_CL(clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof version - 1, version, NULL));
  int major = 1, minor = 0;
  sscanf(version, "OpenCL %d.%d", &major, &minor);
  if (major * 10 + minor >= 21) {
    bias = 1000;
    CHECK_CL(clSetKernelArg(apply, 1, sizeof bias, &bias));
    cl_kernel clone = clCloneKernel(apply, &err);
    CHECK_ERR(err, "clCloneKernel");
    bias = 0; /* the original goes back to 0; the clone keeps 1000 */
    CHECK_CL(clSetKernelArg(apply, 1, sizeof bias, &bias));
    CHECK_CL(clEnqueueWriteBuffer(queue, a, CL_TRUE, 0, sizeof init, init, 0, NULL, NULL));
    CHECK_CL(clEnqueueNDRangeKernel(queue, clone, 1, NULL, &global, NULL, 0, NULL, NULL));
    bad += check(queue, a, 1000, "cloned kernel");
    clReleaseKernel(clone);
  } else {
    fprintf(stderr, "program_forms: %s has no clCloneKernel; skipped\n", version);
  }

  clReleaseMemObject(a);
  clReleaseKernel(apply);
  clReleaseProgram(linked);
  clReleaseProgram(kernels);
  clReleaseProgram(helper);
  clReleaseProgram(header);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  if (bad)
    return 1;
  printf("PASS\n");
  return 0;
}
