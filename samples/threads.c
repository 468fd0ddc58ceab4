/* Several host threads, each with its own queue and kernel object on one shared context and program,
 * launching the same kernel with their own argument values. A capture must record one instantiation per
 * launch, each with that launch's own values.
 *   threads [--threads T] [--launches L] */
#include "common/sample_util.h"

#include <pthread.h>
#include <string.h>

enum { N = 256 };

static const char *kSource = "kernel void fill(global int *out, int value) {\n"
                             "  out[get_global_id(0)] = value + (int)get_global_id(0);\n"
                             "}\n";

static cl_context g_context;
static cl_device_id g_device;
static cl_program g_program;
static int g_launches = 8;

static void *worker(void *arg) {
  int id = (int)(size_t)arg;
  cl_int err;
  cl_command_queue queue = clCreateCommandQueue(g_context, g_device, 0, &err);
  CHECK_ERR(err, "clCreateCommandQueue");
  cl_kernel kernel = clCreateKernel(g_program, "fill", &err);
  CHECK_ERR(err, "clCreateKernel");
  cl_mem out = clCreateBuffer(g_context, CL_MEM_WRITE_ONLY, N * sizeof(cl_int), NULL, &err);
  CHECK_ERR(err, "clCreateBuffer");
  size_t bad = 0;
  for (int launch = 0; launch < g_launches; ++launch) {
    cl_int value = id * 100000 + launch * 1000;
    CHECK_CL(clSetKernelArg(kernel, 0, sizeof(cl_mem), &out));
    CHECK_CL(clSetKernelArg(kernel, 1, sizeof value, &value));
    size_t global = N;
    CHECK_CL(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL));
    cl_int result[N];
    CHECK_CL(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof result, result, 0, NULL, NULL));
    for (int i = 0; i < N; ++i)
      if (result[i] != value + i)
        ++bad;
  }
  clReleaseMemObject(out);
  clReleaseKernel(kernel);
  clReleaseCommandQueue(queue);
  return (void *)bad;
}

int main(int argc, char **argv) {
  int threads = 4;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--threads") && i + 1 < argc)
      threads = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--launches") && i + 1 < argc)
      g_launches = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: %s [--threads T] [--launches L]\n", argv[0]);
      return 2;
    }
  }
  if (threads < 1 || threads > 64 || g_launches < 1) {
    fprintf(stderr, "threads must be 1..64 and launches at least 1\n");
    return 2;
  }
  cl_platform_id platform;
  sample_pick_device(&platform, &g_device);
  cl_int err;
  g_context = clCreateContext(NULL, 1, &g_device, NULL, NULL, &err);
  CHECK_ERR(err, "clCreateContext");
  g_program = sample_build(g_context, g_device, kSource, "");
  pthread_t tids[64];
  for (int t = 0; t < threads; ++t)
    if (pthread_create(&tids[t], NULL, worker, (void *)(size_t)t) != 0) {
      fprintf(stderr, "pthread_create failed\n");
      return 2;
    }
  size_t bad = 0;
  for (int t = 0; t < threads; ++t) {
    void *r;
    pthread_join(tids[t], &r);
    bad += (size_t)r;
  }
  printf("threads: %d threads x %d launches: %zu mismatches\n", threads, g_launches, bad);
  clReleaseProgram(g_program);
  clReleaseContext(g_context);
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad ? 1 : 0;
}
