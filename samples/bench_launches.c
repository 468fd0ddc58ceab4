/* Many small launches of one kernel that adds the launch number to a 1 KiB buffer.
 *   bench_launches [N] [--finish-each] [--sigkill]
 * Launch-heavy benchmark workload by default (one clFinish at the end). --finish-each finishes the queue
 * after every launch; --sigkill then kills the process with SIGKILL (no destructors, exit handlers or
 * flushes): a capture must still hold all N launches. */
#include "common/sample_util.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

static const char *kSource = "kernel void tick(global int *data, int n) {\n"
                             "  data[get_global_id(0)] += n;\n"
                             "}\n";

int main(int argc, char **argv) {
  int launches = 10000, finishEach = 0, sigkill = 0;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--finish-each"))
      finishEach = 1;
    else if (!strcmp(argv[i], "--sigkill"))
      sigkill = 1;
    else if (atoi(argv[i]) > 0)
      launches = atoi(argv[i]);
    else {
      fprintf(stderr, "usage: %s [N] [--finish-each] [--sigkill]\n", argv[0]);
      return 2;
    }
  }
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
    if (finishEach)
      CHECK_CL(clFinish(queue));
  }
  CHECK_CL(clFinish(queue));
  printf("bench_launches: %d launches\n", launches);
  if (sigkill) {
    fflush(stdout);
    kill(getpid(), SIGKILL);
  }
  return 0;
}
