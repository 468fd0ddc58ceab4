/* A kernel taking a struct by value: out[i] = in[i] * p.scale + p.offset, for i in [p.begin, p.end).
 * The struct's bytes are what a capture must record as one scalar value (docs/contract.md §3). */
#include "common/sample_util.h"

#include <math.h>

typedef struct {
  cl_int begin;
  cl_int end;
  cl_float scale;
  cl_float offset;
} Params;

static const char *kSource = "typedef struct { int begin; int end; float scale; float offset; } params_t;\n"
                             "kernel void affine(global const float *in, global float *out, params_t p) {\n"
                             "  int i = (int)get_global_id(0);\n"
                             "  if (i >= p.begin && i < p.end)\n"
                             "    out[i] = in[i] * p.scale + p.offset;\n"
                             "}\n";

int main(void) {
  enum { N = 256 };
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  cl_int err = sample_open(0, &device, &context, &queue);
  CHECK_ERR(err, "clCreateCommandQueue");
  cl_program program = sample_build(context, device, kSource, "-cl-std=CL1.2");
  cl_kernel kernel = clCreateKernel(program, "affine", &err);
  CHECK_ERR(err, "clCreateKernel");

  float input[N], output[N];
  for (int i = 0; i < N; ++i) {
    input[i] = (float)i;
    output[i] = -1.0f;
  }
  cl_mem in = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof input, input, &err);
  CHECK_ERR(err, "clCreateBuffer(in)");
  cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof output, output, &err);
  CHECK_ERR(err, "clCreateBuffer(out)");
  Params p = {16, 240, 2.0f, 0.5f};
  CHECK_CL(clSetKernelArg(kernel, 0, sizeof(cl_mem), &in));
  CHECK_CL(clSetKernelArg(kernel, 1, sizeof(cl_mem), &out));
  CHECK_CL(clSetKernelArg(kernel, 2, sizeof p, &p));
  size_t global = N, local = 32;
  CHECK_CL(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof output, output, 0, NULL, NULL));
  int bad = 0;
  for (int i = 0; i < N; ++i) {
    float want = (i >= p.begin && i < p.end) ? input[i] * p.scale + p.offset : -1.0f;
    if (fabsf(output[i] - want) > 1e-6f)
      ++bad;
  }
  printf("struct_arg: params {begin %d, end %d, scale %g, offset %g}: %d mismatches\n", p.begin, p.end,
         (double)p.scale, (double)p.offset, bad);
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad ? 1 : 0;
}
