/* Benchmark workload: large buffers (data-heavy). bench_data MIB LAUNCHES: LAUNCHES launches of a kernel
 * that reads one MIB-MiB buffer and writes another; each launch's input differs, so nothing de-duplicates. */
#include "common/sample_util.h"

static const char *kSource = "kernel void scale(global const float *in, global float *out, float f) {\n"
                             "  size_t i = get_global_id(0);\n"
                             "  out[i] = in[i] * f;\n"
                             "}\n";

int main(int argc, char **argv) {
  size_t mib = argc > 1 ? (size_t)atoi(argv[1]) : 64;
  int launches = argc > 2 ? atoi(argv[2]) : 4;
  size_t n = mib * 1024 * 1024 / sizeof(float);
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  cl_int err = sample_open(0, &device, &context, &queue);
  CHECK_ERR(err, "clCreateCommandQueue");
  cl_program program = sample_build(context, device, kSource, "");
  cl_kernel kernel = clCreateKernel(program, "scale", &err);
  CHECK_ERR(err, "clCreateKernel");
  float *host = malloc(n * sizeof(float));
  for (size_t i = 0; i < n; ++i)
    host[i] = (float)i;
  cl_mem in =
      clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(float), host, &err);
  CHECK_ERR(err, "clCreateBuffer(in)");
  cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, n * sizeof(float), NULL, &err);
  CHECK_ERR(err, "clCreateBuffer(out)");
  for (int l = 0; l < launches; ++l) {
    float f = 1.0f + (float)l;
    /* Alternate direction so every launch's input holds new bytes. */
    cl_mem src = (l % 2) ? out : in, dst = (l % 2) ? in : out;
    CHECK_CL(clSetKernelArg(kernel, 0, sizeof src, &src));
    CHECK_CL(clSetKernelArg(kernel, 1, sizeof dst, &dst));
    CHECK_CL(clSetKernelArg(kernel, 2, sizeof f, &f));
    CHECK_CL(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &n, NULL, 0, NULL, NULL));
  }
  CHECK_CL(clFinish(queue));
  printf("bench_data: %d launches over %zu MiB buffers\n", launches, mib);
  free(host);
  return 0;
}
