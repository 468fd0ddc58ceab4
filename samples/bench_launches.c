/* Benchmark workload: many small launches (launch-heavy). bench_launches N: N launches of a 256-work-item
 * kernel on one 1 KiB buffer, one clFinish at the end. */
#include "common/sample_util.h"

static const char *kSource = "kernel void tick(global int *data, int n) {\n"
                             "  data[get_global_id(0)] += n;\n"
                             "}\n";

int main(int argc, char **argv) {
  int launches = argc > 1 ? atoi(argv[1]) : 10000;
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  cl_int err = sample_open(0, &device, &context, &queue);
  CHECK_ERR(err, "clCreateCommandQueue");
  cl_program program = sample_build(context, device, kSource, "");
  cl_kernel kernel = clCreateKernel(program, "tick", &err);
  CHECK_ERR(err, "clCreateKernel");
  cl_int zeros[256] = {0};
  cl_mem data = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zeros, zeros, &err);
  CHECK_ERR(err, "clCreateBuffer");
  CHECK_CL(clSetKernelArg(kernel, 0, sizeof data, &data));
  for (cl_int n = 0; n < launches; ++n) {
    CHECK_CL(clSetKernelArg(kernel, 1, sizeof n, &n));
    size_t global = 256;
    CHECK_CL(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL));
  }
  CHECK_CL(clFinish(queue));
  printf("bench_launches: %d launches\n", launches);
  return 0;
}
