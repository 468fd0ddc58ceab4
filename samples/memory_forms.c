/* memory_forms: the memory arguments besides plain buffers, each of which the capture must describe.
 *  - sub-buffers of one parent: two that do not overlap (no alias), two that overlap (the capture says the
 *    arguments alias), and the parent with one of its sub-buffers (alias). OpenCL 1.2 §5.2.1 leaves
 *    writing to one of two overlapping memory objects while the other is used undefined (NVIDIA's driver
 *    really gives other results), so the aliased pairs are only read;
 *  - a CL_MEM_HOST_NO_ACCESS buffer, whose contents the host may not read (the capture still records them);
 *  - an SVM pointer into the middle of a clSVMAlloc allocation (OpenCL 2.0, when the device has
 *    coarse-grained SVM): the capture records the allocation, the offset and the bytes from there on.
 * usage: memory_forms    (prints PASS when every result is right) */
#define CL_TARGET_OPENCL_VERSION 300
#include "common/sample_util.h"

static const char *kSource = "kernel void add_one(global int *dst, global const int *src) {\n"
                             "  size_t i = get_global_id(0);\n"
                             "  dst[i] = src[i] + 1;\n"
                             "}\n"
                             "kernel void add(global int *dst, global const int *a, global const int *b) {\n"
                             "  size_t i = get_global_id(0);\n"
                             "  dst[i] = a[i] + b[i];\n"
                             "}\n"
                             "kernel void triple(global int *p) {\n"
                             "  size_t i = get_global_id(0);\n"
                             "  p[i] = p[i] * 3;\n"
                             "}\n";

static cl_mem sub(cl_mem parent, size_t origin, size_t size) {
  cl_buffer_region region = {origin, size};
  cl_int err;
  cl_mem m = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  CHECK_ERR(err, "clCreateSubBuffer");
  return m;
}

static void launch(cl_command_queue queue, cl_kernel kernel, cl_mem dst, cl_mem src, int count) {
  size_t n = (size_t)count;
  CHECK_CL(clSetKernelArg(kernel, 0, sizeof dst, &dst));
  CHECK_CL(clSetKernelArg(kernel, 1, sizeof src, &src));
  CHECK_CL(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &n, NULL, 0, NULL, NULL));
}

int main(void) {
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  CHECK_ERR(sample_open(0, &device, &context, &queue), "clCreateCommandQueue");
  cl_int err;
  cl_program program = sample_build(context, device, kSource, NULL);
  cl_kernel add_one = clCreateKernel(program, "add_one", &err);
  CHECK_ERR(err, "clCreateKernel(add_one)");
  cl_kernel add = clCreateKernel(program, "add", &err);
  CHECK_ERR(err, "clCreateKernel(add)");
  cl_kernel triple = clCreateKernel(program, "triple", &err);
  CHECK_ERR(err, "clCreateKernel(triple)");

  /* Sub-buffer origins must be multiples of CL_DEVICE_MEM_BASE_ADDR_ALIGN (in bits): the parent is four
   * quarters of 256 bytes or of that alignment, whichever is larger (PoCL: 128 bytes, NVIDIA: 512). */
  cl_uint alignBits = 0;
  CHECK_CL(clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof alignBits, &alignBits, NULL));
  size_t quarter = alignBits / 8 > 256 ? alignBits / 8 : 256; /* bytes */
  if (quarter > 4096) {
    fprintf(stderr, "memory_forms: sub-buffer alignment of %u bits is too large for this sample\n",
            alignBits);
    return 2;
  }
  const int N = (int)(4 * quarter / sizeof(int)), Q = N / 4;
  int init[4096];
  for (int i = 0; i < N; ++i)
    init[i] = i;
  cl_mem parent =
      clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * sizeof(int), init, &err);
  CHECK_ERR(err, "clCreateBuffer(parent)");
  cl_mem low = sub(parent, 0, 2 * quarter);            /* ints [0, 2Q) */
  cl_mem middle = sub(parent, quarter, 2 * quarter);   /* ints [Q, 3Q): overlaps low */
  cl_mem high = sub(parent, 2 * quarter, 2 * quarter); /* ints [2Q, 4Q): disjoint from low */
  cl_mem sums = clCreateBuffer(context, CL_MEM_WRITE_ONLY, N * sizeof(int), NULL, &err);
  CHECK_ERR(err, "clCreateBuffer(sums)");
  launch(queue, add_one, high, low, 2 * Q); /* launch 0: no alias; ints [2Q, 4Q) become i - 2Q + 1 */
  size_t q = (size_t)Q;
  CHECK_CL(clSetKernelArg(add, 0, sizeof sums, &sums));
  CHECK_CL(clSetKernelArg(add, 1, sizeof middle, &middle)); /* launch 1: a and b overlap */
  CHECK_CL(clSetKernelArg(add, 2, sizeof low, &low));
  CHECK_CL(clEnqueueNDRangeKernel(queue, add, 1, NULL, &q, NULL, 0, NULL, NULL));
  int out[4096];
  CHECK_CL(clEnqueueReadBuffer(queue, sums, CL_TRUE, 0, q * sizeof(int), out, 0, NULL, NULL));
  int bad = 0;
  for (int i = 0; i < Q; ++i) /* middle[i] + low[i] = (Q + i) + i */
    bad += out[i] != Q + 2 * i;
  CHECK_CL(clSetKernelArg(add, 1, sizeof parent, &parent)); /* launch 2: the parent and its sub-buffer */
  CHECK_CL(clSetKernelArg(add, 2, sizeof high, &high));
  CHECK_CL(clEnqueueNDRangeKernel(queue, add, 1, NULL, &q, NULL, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(queue, sums, CL_TRUE, 0, q * sizeof(int), out, 0, NULL, NULL));
  for (int i = 0; i < Q; ++i) /* parent[i] + high[i] = i + (i + 1) */
    bad += out[i] != 2 * i + 1;
  fprintf(stderr, "memory_forms: sub-buffers: %d mismatches\n", bad);

  /* Launch 3: a buffer the host may not read. */
  int pattern[4096];
  for (int i = 0; i < N; ++i)
    pattern[i] = 5000 + i;
  cl_mem hidden = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS | CL_MEM_COPY_HOST_PTR,
                                 N * sizeof(int), pattern, &err);
  CHECK_ERR(err, "clCreateBuffer(CL_MEM_HOST_NO_ACCESS)");
  cl_mem result = clCreateBuffer(context, CL_MEM_WRITE_ONLY, N * sizeof(int), NULL, &err);
  CHECK_ERR(err, "clCreateBuffer(result)");
  launch(queue, add_one, result, hidden, N);
  CHECK_CL(clEnqueueReadBuffer(queue, result, CL_TRUE, 0, N * sizeof(int), out, 0, NULL, NULL));
  int hiddenBad = 0;
  for (int i = 0; i < N; ++i)
    hiddenBad += out[i] != 5000 + i + 1;
  fprintf(stderr, "memory_forms: CL_MEM_HOST_NO_ACCESS: %d mismatches\n", hiddenBad);
  bad += hiddenBad;

  /* Launch 4 (OpenCL 2.0 devices with coarse-grained SVM): a pointer 16 ints into an allocation. */
  cl_device_svm_capabilities svm = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof svm, &svm, NULL) == CL_SUCCESS &&
      (svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
    int *p = clSVMAlloc(context, CL_MEM_READ_WRITE, 64 * sizeof(int), 0);
    if (!p) {
      fprintf(stderr, "memory_forms: clSVMAlloc failed\n");
      return 2;
    }
    CHECK_CL(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_WRITE, p, 64 * sizeof(int), 0, NULL, NULL));
    for (int i = 0; i < 64; ++i)
      p[i] = 100 + i;
    CHECK_CL(clEnqueueSVMUnmap(queue, p, 0, NULL, NULL));
    CHECK_CL(clSetKernelArgSVMPointer(triple, 0, p + 16));
    size_t n = 32;
    CHECK_CL(clEnqueueNDRangeKernel(queue, triple, 1, NULL, &n, NULL, 0, NULL, NULL));
    CHECK_CL(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, p, 64 * sizeof(int), 0, NULL, NULL));
    int svmBad = 0;
    for (int i = 0; i < 64; ++i)
      svmBad += p[i] != (i >= 16 && i < 48 ? 3 * (100 + i) : 100 + i);
    CHECK_CL(clEnqueueSVMUnmap(queue, p, 0, NULL, NULL));
    CHECK_CL(clFinish(queue));
    clSVMFree(context, p);
    fprintf(stderr, "memory_forms: SVM: %d mismatches\n", svmBad);
    bad += svmBad;
  } else {
    fprintf(stderr, "memory_forms: no coarse-grained SVM on this device; skipped\n");
  }

  clReleaseMemObject(result);
  clReleaseMemObject(sums);
  clReleaseMemObject(hidden);
  clReleaseMemObject(high);
  clReleaseMemObject(middle);
  clReleaseMemObject(low);
  clReleaseMemObject(parent);
  clReleaseKernel(triple);
  clReleaseKernel(add);
  clReleaseKernel(add_one);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  if (bad)
    return 1;
  printf("PASS\n");
  return 0;
}
