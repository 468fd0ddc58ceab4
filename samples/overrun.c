/* An application with a real out-of-bounds read: 1000 elements, a global size rounded up to 1024 (a multiple
 * of the work-group size), and a kernel that guards its write with `i < n` but not its read, so work-items
 * 1000..1023 read past the end of `in`. clcapture-verify's out-of-bounds finding names the clCreateBuffer
 * that sized `in` (docs/memory-safety.md). The bytes read past the end are not used: the output is right. */
#include "common/sample_util.h"

static const char *kSource = "kernel void twice(global const int *in, global int *out, int n) {\n"
                             "  int i = (int)get_global_id(0);\n"
                             "  int v = in[i];\n"
                             "  if (i < n)\n"
                             "    out[i] = 2 * v;\n"
                             "}\n";

int main(void) {
  enum { N = 1000 };
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  cl_int err = sample_open(0, &device, &context, &queue);
  CHECK_ERR(err, "clCreateCommandQueue");
  cl_program program = sample_build(context, device, kSource, "-cl-std=CL1.2");
  cl_kernel kernel = clCreateKernel(program, "twice", &err);
  CHECK_ERR(err, "clCreateKernel");
  static cl_int input[N], output[N];
  for (int i = 0; i < N; ++i)
    input[i] = i;
  cl_mem in = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof input, input, &err);
  CHECK_ERR(err, "clCreateBuffer(in)");
  cl_mem out = clCreateBuffer(context, CL_MEM_WRITE_ONLY, sizeof output, NULL, &err);
  CHECK_ERR(err, "clCreateBuffer(out)");
  cl_int n = N;
  CHECK_CL(clSetKernelArg(kernel, 0, sizeof(cl_mem), &in));
  CHECK_CL(clSetKernelArg(kernel, 1, sizeof(cl_mem), &out));
  CHECK_CL(clSetKernelArg(kernel, 2, sizeof n, &n));
  size_t local = 64, global = (N + local - 1) / local * local;
  CHECK_CL(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof output, output, 0, NULL, NULL));
  int bad = 0;
  for (int i = 0; i < N; ++i)
    bad += output[i] != 2 * i;
  printf("overrun: %d mismatches\n", bad);
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return bad ? 1 : 0;
}
