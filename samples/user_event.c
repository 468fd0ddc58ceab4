/* An out-of-order queue whose work is gated by a user event: the host enqueues write → kernel → read, each
 * waiting on the previous event, and only then opens the gate. A tool that blocks inside
 * clEnqueueNDRangeKernel (a blocking read, clFinish) deadlocks here; one that reads the kernel's buffer too
 * early sees zeros instead of the bytes written just before the launch. An alarm turns a hang into exit 3.
 * With --launches K, K launches wait behind the gate (a tool that holds launches in memory until their reads
 * complete must not wait for room here either).
 *   user_event [--in-order] [--launches K] */
#include "common/sample_util.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

static const char *kSource = "kernel void bump(global int *data, int amount) {\n"
                             "  size_t i = get_global_id(0);\n"
                             "  data[i] += amount;\n"
                             "}\n";

static void on_alarm(int sig) {
  (void)sig;
  static const char msg[] = "user_event: timed out (deadlock?)\n";
  (void)!write(2, msg, sizeof msg - 1);
  _exit(3);
}

int main(int argc, char **argv) {
  enum { N = 1024 };
  int inOrder = 0, launches = 1, bumps;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--in-order"))
      inOrder = 1;
    else if (!strcmp(argv[i], "--launches") && i + 1 < argc && atoi(argv[i + 1]) > 0)
      launches = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: %s [--in-order] [--launches K]\n", argv[0]);
      return 2;
    }
  }
  signal(SIGALRM, on_alarm);
  alarm(60);
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  cl_int err = sample_open(inOrder ? 0 : CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &device, &context, &queue);
  const char *mode = inOrder ? "in-order" : "out-of-order";
  if (err == CL_INVALID_QUEUE_PROPERTIES) {
    queue = clCreateCommandQueue(context, device, 0, &err);
    mode = "in-order (device has no out-of-order queues)";
  }
  CHECK_ERR(err, "clCreateCommandQueue");
  cl_program program = sample_build(context, device, kSource, "");
  cl_kernel kernel = clCreateKernel(program, "bump", &err);
  CHECK_ERR(err, "clCreateKernel");

  static cl_int zeros[N], values[N], result[N];
  for (int i = 0; i < N; ++i)
    values[i] = i + 1;
  cl_mem data = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zeros, zeros, &err);
  CHECK_ERR(err, "clCreateBuffer");
  cl_int amount = 1000;
  CHECK_CL(clSetKernelArg(kernel, 0, sizeof(cl_mem), &data));
  CHECK_CL(clSetKernelArg(kernel, 1, sizeof amount, &amount));

  bumps = launches;
  cl_event gate = clCreateUserEvent(context, &err);
  CHECK_ERR(err, "clCreateUserEvent");
  cl_event written, launched, read;
  CHECK_CL(clEnqueueWriteBuffer(queue, data, CL_FALSE, 0, sizeof values, values, 1, &gate, &written));
  size_t global = N, local = 64;
  // Each launch waits for the one before (the first for the gated write): one call site.
  for (cl_event previous = written; launches > 0; --launches, previous = launched) {
    CHECK_CL(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 1, &previous, &launched));
    if (previous != written)
      clReleaseEvent(previous);
  }
  CHECK_CL(clEnqueueReadBuffer(queue, data, CL_FALSE, 0, sizeof result, result, 1, &launched, &read));
  CHECK_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL(clWaitForEvents(1, &read));

  int bad = 0;
  for (int i = 0; i < N; ++i)
    if (result[i] != values[i] + amount * bumps)
      ++bad;
  printf("user_event: %s queue, write gated by a user event, then %d bump(s) by %d: %d mismatches\n", mode,
         bumps, amount, bad);
  clReleaseEvent(gate);
  clReleaseEvent(written);
  clReleaseEvent(launched);
  clReleaseEvent(read);
  clReleaseMemObject(data);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad ? 1 : 0;
}
