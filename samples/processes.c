/* One step of a test suite that runs in many processes (the way test runners, make check and job launchers
 * use OpenCL). Each mode launches `scale` on a 256 KiB input that every process fills alike, with a factor
 * of its own, finishes its queue (clFinish) and checks every element.
 *   processes work [LAUNCHES]  LAUNCHES launches (default 1) in this process
 *   processes fork N           lists the platforms, forks N children without exec (each does `work` and
 *                              leaves with _exit), waits for them, then does `work` itself
 *   processes forkafter N      `work` first, then forks N children without exec, each doing `work` (a driver
 *                              whose state survives fork, such as Oclgrind's; PoCL's worker threads do not)
 *   processes chain            a child of a child execs `processes work`
 *   processes killed           `work`, then SIGKILL on itself (exit status 137, no exit handlers) */
#include "common/sample_util.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *kSource = "__kernel void scale(__global float *out, __global const float *in, float k) {\n"
                             "  size_t i = get_global_id(0);\n"
                             "  out[i] = in[i] * k;\n"
                             "}\n";

enum { kElements = 65536 };

static int work(int launches) {
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  CHECK_CL(sample_open(0, &device, &context, &queue));
  cl_program program = sample_build(context, device, kSource, "");
  cl_int err;
  cl_kernel kernel = clCreateKernel(program, "scale", &err);
  CHECK_ERR(err, "clCreateKernel");
  float *in = malloc(sizeof(float) * kElements), *out = calloc(kElements, sizeof(float));
  for (int i = 0; i < kElements; ++i)
    in[i] = (float)(i % 1000);
  cl_mem inBuffer =
      clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(float) * kElements, in, &err);
  CHECK_ERR(err, "clCreateBuffer");
  cl_mem outBuffer = clCreateBuffer(context, CL_MEM_WRITE_ONLY | CL_MEM_COPY_HOST_PTR,
                                    sizeof(float) * kElements, out, &err); /* zeros: alike in every process */
  CHECK_ERR(err, "clCreateBuffer");
  float k = (float)(getpid() % 97 + 2);
  CHECK_CL(clSetKernelArg(kernel, 0, sizeof outBuffer, &outBuffer));
  CHECK_CL(clSetKernelArg(kernel, 1, sizeof inBuffer, &inBuffer));
  CHECK_CL(clSetKernelArg(kernel, 2, sizeof k, &k));
  size_t global = kElements;
  for (int l = 0; l < launches; ++l)
    CHECK_CL(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL));
  CHECK_CL(clFinish(queue));
  CHECK_CL(clEnqueueReadBuffer(queue, outBuffer, CL_TRUE, 0, sizeof(float) * kElements, out, 0, NULL, NULL));
  int failed = 0;
  for (int i = 0; i < kElements; ++i)
    failed |= out[i] != in[i] * k;
  clReleaseMemObject(inBuffer);
  clReleaseMemObject(outBuffer);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  free(in);
  free(out);
  printf("%s\n", failed ? "FAIL" : "PASS");
  fflush(stdout);
  return failed ? 1 : 0;
}

static int waitAll(void) {
  int status = 0, failed = 0;
  while (wait(&status) > 0)
    failed |= !WIFEXITED(status) || WEXITSTATUS(status) != 0;
  return failed;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "work";
  if (!strcmp(mode, "work"))
    return work(argc > 2 ? atoi(argv[2]) : 1);
  if (!strcmp(mode, "fork")) {
    cl_platform_id platform;
    cl_uint count = 0;
    CHECK_CL(clGetPlatformIDs(1, &platform, &count)); /* the ICD loader and its drivers are loaded now */
    fflush(stdout);
    int children = argc > 2 ? atoi(argv[2]) : 2;
    for (int c = 0; c < children; ++c)
      if (fork() == 0)
        _exit(work(1));
    int failed = waitAll();
    return work(1) | failed;
  }
  if (!strcmp(mode, "forkafter")) {
    int failed = work(1);
    int children = argc > 2 ? atoi(argv[2]) : 2;
    for (int c = 0; c < children; ++c)
      if (fork() == 0)
        _exit(work(1));
    return waitAll() | failed;
  }
  if (!strcmp(mode, "chain")) {
    if (fork() == 0) {
      if (fork() == 0) {
        execl(argv[0], argv[0], "work", (char *)NULL);
        _exit(127);
      }
      _exit(waitAll());
    }
    return waitAll();
  }
  if (!strcmp(mode, "killed")) {
    work(1);
    raise(SIGKILL);
    return 1;
  }
  fprintf(stderr, "usage: processes work [LAUNCHES] | fork N | forkafter N | chain | killed\n");
  return 2;
}
