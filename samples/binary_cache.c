/* A program-binary cache, the way hashcat, PyOpenCL and OpenCV keep one: the first run builds the kernel from
 * source, reads its binary back (CL_PROGRAM_BINARY_SIZES, then CL_PROGRAM_BINARIES) and saves it to a cache
 * file; later runs load that file with clCreateProgramWithBinary and never show the source to OpenCL again.
 *   binary_cache CACHE_FILE
 * Either way the kernel is launched twice (bias 1, then 2) on 256 integers with -DFACTOR=3, and the result is
 * checked. The first line of output says where the program came from. */
#include "common/sample_util.h"

static const char *kSource = "kernel void scale(global int *data, int bias) {\n"
                             "  size_t i = get_global_id(0);\n"
                             "  data[i] = data[i] * FACTOR + bias;\n"
                             "}\n";
static const char *kOptions = "-DFACTOR=3";

/* The whole cache file, or NULL when there is none. */
static unsigned char *read_cache(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  unsigned char *bytes = NULL;
  if (fseek(f, 0, SEEK_END) == 0) {
    long length = ftell(f);
    if (length > 0 && fseek(f, 0, SEEK_SET) == 0) {
      bytes = malloc((size_t)length);
      if (bytes && fread(bytes, 1, (size_t)length, f) != (size_t)length) {
        free(bytes);
        bytes = NULL;
      }
      *size = (size_t)length;
    }
  }
  fclose(f);
  if (!bytes) {
    fprintf(stderr, "%s: cannot read the cache file\n", path);
    exit(2);
  }
  return bytes;
}

/* Reads the built program's binary the way caches do (sizes first, then the bytes) and saves it. */
static void write_cache(const char *path, cl_program program) {
  size_t size = 0;
  CHECK_CL(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
  if (size == 0) {
    fprintf(stderr, "the driver has no binary for the program\n");
    exit(2);
  }
  unsigned char *binary = malloc(size);
  unsigned char *binaries[1] = {binary};
  CHECK_CL(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof binaries, binaries, NULL));
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(binary, 1, size, f) != size || fclose(f) != 0) {
    fprintf(stderr, "%s: cannot write the cache file\n", path);
    exit(2);
  }
  free(binary);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s CACHE_FILE\n", argv[0]);
    return 2;
  }
  const char *cache = argv[1];
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  cl_int err = sample_open(0, &device, &context, &queue);
  CHECK_ERR(err, "clCreateCommandQueue");

  size_t size = 0;
  unsigned char *binary = read_cache(cache, &size);
  cl_program program;
  if (binary) {
    printf("binary_cache: program loaded from the cache %s\n", cache);
    const unsigned char *binaries[1] = {binary};
    cl_int status = CL_SUCCESS;
    program = clCreateProgramWithBinary(context, 1, &device, &size, binaries, &status, &err);
    CHECK_ERR(err, "clCreateProgramWithBinary");
    CHECK_ERR(status, "clCreateProgramWithBinary (binary status)");
    CHECK_CL(clBuildProgram(program, 1, &device, kOptions, NULL, NULL));
    free(binary);
  } else {
    printf("binary_cache: program built from source, saved to the cache %s\n", cache);
    program = sample_build(context, device, kSource, kOptions);
    write_cache(cache, program);
  }
  cl_kernel kernel = clCreateKernel(program, "scale", &err);
  CHECK_ERR(err, "clCreateKernel");

  enum { N = 256 };
  int data[N];
  for (int i = 0; i < N; ++i)
    data[i] = i;
  cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof data, data, &err);
  CHECK_ERR(err, "clCreateBuffer");
  size_t global = N, local = 64;
  CHECK_CL(clSetKernelArg(kernel, 0, sizeof(cl_mem), &buffer));
  for (int bias = 1; bias <= 2; ++bias) {
    CHECK_CL(clSetKernelArg(kernel, 1, sizeof bias, &bias));
    CHECK_CL(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL));
  }
  CHECK_CL(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL));
  int ok = 1;
  for (int i = 0; i < N; ++i)
    ok &= data[i] == (i * 3 + 1) * 3 + 2;

  clReleaseMemObject(buffer);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
