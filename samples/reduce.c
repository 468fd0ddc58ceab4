/* Local-memory tree reduction: each work-group sums its slice of the input in a __local scratch array
 * (a __local kernel argument), then the host adds the per-group sums.
 *   reduce [--racy] [--groups N] [--local L]
 * --racy drops the barrier inside the reduction loop: work-items then read scratch slots that others are
 * still writing (a local-memory data race). The correct version checks its result and exits 1 on a
 * mismatch; the racy one only reports, since a race may or may not show on a given driver. */
#include "common/sample_util.h"

#include <string.h>

static const char *kSource =
    "kernel void reduce(global const int *in, global int *partial, local int *scratch) {\n"
    "  size_t l = get_local_id(0);\n"
    "  scratch[l] = in[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {\n"
    "    if (l < s)\n"
    "      scratch[l] += scratch[l + s];\n"
    "#ifndef RACY\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "#endif\n"
    "  }\n"
    "  if (l == 0)\n"
    "    partial[get_group_id(0)] = scratch[0];\n"
    "}\n";

int main(int argc, char **argv) {
  int racy = 0;
  size_t groups = 4, local = 64;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--racy"))
      racy = 1;
    else if (!strcmp(argv[i], "--groups") && i + 1 < argc)
      groups = (size_t)strtoul(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--local") && i + 1 < argc)
      local = (size_t)strtoul(argv[++i], NULL, 10);
    else {
      fprintf(stderr, "usage: %s [--racy] [--groups N] [--local L]\n", argv[0]);
      return 2;
    }
  }
  size_t n = groups * local;
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  cl_int err = sample_open(0, &device, &context, &queue);
  CHECK_ERR(err, "clCreateCommandQueue");
  cl_program program = sample_build(context, device, kSource, racy ? "-DRACY" : "");
  cl_kernel kernel = clCreateKernel(program, "reduce", &err);
  CHECK_ERR(err, "clCreateKernel");

  int *input = malloc(n * sizeof(int));
  long long expected = 0;
  for (size_t i = 0; i < n; ++i) {
    input[i] = (int)(i % 97) + 1;
    expected += input[i];
  }
  cl_mem in = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(int), input, &err);
  CHECK_ERR(err, "clCreateBuffer(in)");
  cl_mem partial = clCreateBuffer(context, CL_MEM_WRITE_ONLY, groups * sizeof(int), NULL, &err);
  CHECK_ERR(err, "clCreateBuffer(partial)");
  CHECK_CL(clSetKernelArg(kernel, 0, sizeof(cl_mem), &in));
  CHECK_CL(clSetKernelArg(kernel, 1, sizeof(cl_mem), &partial));
  CHECK_CL(clSetKernelArg(kernel, 2, local * sizeof(int), NULL));
  CHECK_CL(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &n, &local, 0, NULL, NULL));
  int *sums = malloc(groups * sizeof(int));
  CHECK_CL(clEnqueueReadBuffer(queue, partial, CL_TRUE, 0, groups * sizeof(int), sums, 0, NULL, NULL));
  long long total = 0;
  for (size_t g = 0; g < groups; ++g)
    total += sums[g];
  printf("reduce%s: %zu work-items in %zu groups of %zu: sum %lld, expected %lld\n", racy ? " (racy)" : "", n,
         groups, local, total, expected);

  clReleaseMemObject(in);
  clReleaseMemObject(partial);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  free(input);
  free(sums);
  if (racy)
    return 0;
  if (total != expected) {
    printf("FAIL\n");
    return 1;
  }
  printf("PASS\n");
  return 0;
}
