/* One read-only input, launched many times unchanged, then changed between launches by each kind of command
 * that may write a buffer: a tool that reuses an earlier read of an unchanged buffer must read it again after
 * every one of them. Launch k of the second part sees `in` filled with the value 100 + k.
 *   buffer_writers [N]     N launches with `in` unchanged first (default 1000) */
#include "common/sample_util.h"

enum { COUNT = 64 };

static const char *kSource = "kernel void copy(global const int *in, global int *out) {\n"
                             "  out[get_global_id(0)] = in[get_global_id(0)];\n"
                             "}\n"
                             "kernel void set(global int *x, int value) {\n"
                             "  x[get_global_id(0)] = value;\n"
                             "}\n";

static cl_command_queue queue;
static cl_kernel copyKernel;
static int failures;

static void launch_and_check(cl_mem out, int expected, const char *after) {
  size_t global = COUNT;
  CHECK_CL(clEnqueueNDRangeKernel(queue, copyKernel, 1, NULL, &global, NULL, 0, NULL, NULL));
  int got[COUNT];
  CHECK_CL(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
  for (int i = 0; i < COUNT; ++i)
    if (got[i] != expected) {
      fprintf(stderr, "after %s: out[%d] = %d, expected %d\n", after, i, got[i], expected);
      ++failures;
      return;
    }
}

static void fill(int *values, int value) {
  for (int i = 0; i < COUNT; ++i)
    values[i] = value;
}

int main(int argc, char **argv) {
  int unchanged = argc > 1 ? atoi(argv[1]) : 1000;
  cl_device_id device;
  cl_context context;
  cl_int err = sample_open(0, &device, &context, &queue);
  CHECK_ERR(err, "clCreateCommandQueue");
  cl_program program = sample_build(context, device, kSource, "");
  copyKernel = clCreateKernel(program, "copy", &err);
  CHECK_ERR(err, "clCreateKernel");
  cl_kernel setKernel = clCreateKernel(program, "set", &err);
  CHECK_ERR(err, "clCreateKernel");
  int values[COUNT];
  fill(values, 7);
  cl_mem in = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof values, values, &err);
  CHECK_ERR(err, "clCreateBuffer");
  cl_mem out = clCreateBuffer(context, CL_MEM_WRITE_ONLY, sizeof values, NULL, &err);
  CHECK_ERR(err, "clCreateBuffer");
  cl_mem other = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof values, NULL, &err);
  CHECK_ERR(err, "clCreateBuffer");
  cl_buffer_region half = {0, sizeof values};
  cl_mem sub = clCreateSubBuffer(in, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &half, &err);
  CHECK_ERR(err, "clCreateSubBuffer");
  CHECK_CL(clSetKernelArg(copyKernel, 0, sizeof in, &in));
  CHECK_CL(clSetKernelArg(copyKernel, 1, sizeof out, &out));

  /* Part 1: `in` unchanged; only `out` is written (by the kernel). */
  size_t global = COUNT;
  for (int n = 0; n < unchanged; ++n)
    CHECK_CL(clEnqueueNDRangeKernel(queue, copyKernel, 1, NULL, &global, NULL, 0, NULL, NULL));
  CHECK_CL(clFinish(queue));

  /* Part 2: each writer kind, then a launch that must see its bytes: 100 + k. */
  int k = 0;
  fill(values, 100 + k);
  CHECK_CL(clEnqueueWriteBuffer(queue, in, CL_TRUE, 0, sizeof values, values, 0, NULL, NULL));
  launch_and_check(out, 100 + k++, "clEnqueueWriteBuffer");

  fill(values, 100 + k);
  size_t origin[3] = {0, 0, 0}, region[3] = {sizeof values, 1, 1};
  CHECK_CL(clEnqueueWriteBufferRect(queue, in, CL_TRUE, origin, origin, region, 0, 0, 0, 0, values, 0, NULL,
                                    NULL));
  launch_and_check(out, 100 + k++, "clEnqueueWriteBufferRect");

  fill(values, 100 + k);
  CHECK_CL(clEnqueueWriteBuffer(queue, other, CL_TRUE, 0, sizeof values, values, 0, NULL, NULL));
  CHECK_CL(clEnqueueCopyBuffer(queue, other, in, 0, 0, sizeof values, 0, NULL, NULL));
  launch_and_check(out, 100 + k++, "clEnqueueCopyBuffer");

  fill(values, 100 + k);
  CHECK_CL(clEnqueueWriteBuffer(queue, other, CL_TRUE, 0, sizeof values, values, 0, NULL, NULL));
  CHECK_CL(clEnqueueCopyBufferRect(queue, other, in, origin, origin, region, 0, 0, 0, 0, 0, NULL, NULL));
  launch_and_check(out, 100 + k++, "clEnqueueCopyBufferRect");

  int pattern = 100 + k;
  CHECK_CL(clEnqueueFillBuffer(queue, in, &pattern, sizeof pattern, 0, sizeof values, 0, NULL, NULL));
  launch_and_check(out, 100 + k++, "clEnqueueFillBuffer");

  int *mapped = clEnqueueMapBuffer(queue, in, CL_TRUE, CL_MAP_WRITE, 0, sizeof values, 0, NULL, NULL, &err);
  CHECK_ERR(err, "clEnqueueMapBuffer");
  fill(mapped, 100 + k);
  CHECK_CL(clEnqueueUnmapMemObject(queue, in, mapped, 0, NULL, NULL));
  launch_and_check(out, 100 + k++, "clEnqueueMapBuffer + clEnqueueUnmapMemObject");

  int value = 100 + k;
  CHECK_CL(clSetKernelArg(setKernel, 0, sizeof in, &in));
  CHECK_CL(clSetKernelArg(setKernel, 1, sizeof value, &value));
  CHECK_CL(clEnqueueNDRangeKernel(queue, setKernel, 1, NULL, &global, NULL, 0, NULL, NULL));
  launch_and_check(out, 100 + k++, "a kernel writing it");

  fill(values, 100 + k);
  CHECK_CL(clEnqueueWriteBuffer(queue, sub, CL_TRUE, 0, sizeof values, values, 0, NULL, NULL));
  launch_and_check(out, 100 + k++, "clEnqueueWriteBuffer to a sub-buffer of it");

  /* A CL_MEM_USE_HOST_PTR buffer: the host's own memory, written by the host between launches. */
  static int host[COUNT];
  fill(host, 100 + k);
  cl_mem hosted = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, sizeof host, host, &err);
  CHECK_ERR(err, "clCreateBuffer");
  CHECK_CL(clSetKernelArg(copyKernel, 0, sizeof hosted, &hosted));
  launch_and_check(out, 100 + k++, "creating a CL_MEM_USE_HOST_PTR buffer");
  int *view = clEnqueueMapBuffer(queue, hosted, CL_TRUE, CL_MAP_WRITE, 0, sizeof host, 0, NULL, NULL, &err);
  CHECK_ERR(err, "clEnqueueMapBuffer");
  fill(view, 100 + k);
  CHECK_CL(clEnqueueUnmapMemObject(queue, hosted, view, 0, NULL, NULL));
  launch_and_check(out, 100 + k++, "the host writing a CL_MEM_USE_HOST_PTR buffer");

  CHECK_CL(clFinish(queue));
  printf("buffer_writers: %d unchanged launches, %d writer kinds, %s\n", unchanged, k,
         failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
