/* Launches a kernel N times, finishing the queue after each launch, then kills itself with SIGKILL: no
 * destructors, no exit handlers, no flush. A capture must still hold all N launches.
 *   killed N */
#include "common/sample_util.h"

#include <signal.h>
#include <unistd.h>

static const char *kSource = "kernel void accumulate(global int *data, int n) {\n"
                             "  data[get_global_id(0)] += n;\n"
                             "}\n";

int main(int argc, char **argv) {
  int launches = argc > 1 ? atoi(argv[1]) : 5;
  if (launches < 1) {
    fprintf(stderr, "usage: %s N (N >= 1)\n", argv[0]);
    return 2;
  }
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  cl_int err = sample_open(0, &device, &context, &queue);
  CHECK_ERR(err, "clCreateCommandQueue");
  cl_program program = sample_build(context, device, kSource, "");
  cl_kernel kernel = clCreateKernel(program, "accumulate", &err);
  CHECK_ERR(err, "clCreateKernel");
  cl_int zeros[64] = {0};
  cl_mem data = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zeros, zeros, &err);
  CHECK_ERR(err, "clCreateBuffer");
  CHECK_CL(clSetKernelArg(kernel, 0, sizeof data, &data));
  for (cl_int n = 0; n < launches; ++n) {
    CHECK_CL(clSetKernelArg(kernel, 1, sizeof n, &n));
    size_t global = 64;
    CHECK_CL(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_CL(clFinish(queue));
  }
  printf("killed: %d launches finished; now SIGKILL\n", launches);
  fflush(stdout);
  kill(getpid(), SIGKILL);
  return 0;
}
