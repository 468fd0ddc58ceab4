/* An application that reads an image past its edge: a 2D image of 30 × 20 RGBA float pixels, a kernel
 * launched over 32 × 20 work-items (the width rounded up to the work-group size) that copies each pixel
 * through a sampler argument the host created with CL_ADDRESS_NONE, and a write guarded by the width but
 * a read that is not. Work-items x = 30, 31 read outside the image, which OpenCL 1.2 §6.12.14.1 leaves
 * undefined for that addressing mode. The layer records the image's extents (clGetImageInfo) and the
 * sampler's properties (clGetSamplerInfo), and clcapture-verify names the pixel (docs/memory-safety.md).
 * With --clamp the sampler clamps to the edge and the launch is safe. */
#include "common/sample_util.h"

#include <string.h>

static const char *kSource =
    "kernel void copy(read_only image2d_t src, sampler_t s, global float4 *out, int width) {\n"
    "  int x = (int)get_global_id(0), y = (int)get_global_id(1);\n"
    "  float4 v = read_imagef(src, s, (int2)(x, y));\n"
    "  if (x < width)\n"
    "    out[y * width + x] = v;\n"
    "}\n";

int main(int argc, char **argv) {
  enum { W = 30, H = 20 };
  int clamp = argc > 1 && strcmp(argv[1], "--clamp") == 0;
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  cl_int err = sample_open(0, &device, &context, &queue);
  CHECK_ERR(err, "clCreateCommandQueue");
  cl_bool images = CL_FALSE;
  CHECK_CL(clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
  if (!images) {
    printf("image_edge: the device has no image support; nothing to do\n");
    return 0;
  }
  cl_program program = sample_build(context, device, kSource, "-cl-std=CL1.2");
  cl_kernel kernel = clCreateKernel(program, "copy", &err);
  CHECK_ERR(err, "clCreateKernel");
  static cl_float pixels[W * H * 4], output[W * H * 4];
  for (int i = 0; i < W * H * 4; ++i)
    pixels[i] = (cl_float)i;
  cl_image_format format = {CL_RGBA, CL_FLOAT};
  cl_image_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = W;
  desc.image_height = H;
  cl_mem src = clCreateImage(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &format, &desc, pixels, &err);
  CHECK_ERR(err, "clCreateImage");
  cl_mem out = clCreateBuffer(context, CL_MEM_WRITE_ONLY, sizeof output, NULL, &err);
  CHECK_ERR(err, "clCreateBuffer(out)");
  cl_sampler sampler = clCreateSampler(context, CL_FALSE, clamp ? CL_ADDRESS_CLAMP_TO_EDGE : CL_ADDRESS_NONE,
                                       CL_FILTER_NEAREST, &err);
  CHECK_ERR(err, "clCreateSampler");
  cl_int width = W;
  CHECK_CL(clSetKernelArg(kernel, 0, sizeof(cl_mem), &src));
  CHECK_CL(clSetKernelArg(kernel, 1, sizeof(cl_sampler), &sampler));
  CHECK_CL(clSetKernelArg(kernel, 2, sizeof(cl_mem), &out));
  CHECK_CL(clSetKernelArg(kernel, 3, sizeof width, &width));
  size_t local[2] = {16, 4}, global[2] = {(W + 15) / 16 * 16, H};
  CHECK_CL(clEnqueueNDRangeKernel(queue, kernel, 2, NULL, global, local, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof output, output, 0, NULL, NULL));
  int bad = 0;
  for (int i = 0; i < W * H * 4; ++i)
    bad += output[i] != pixels[i];
  printf("image_edge: %d mismatches\n", bad);
  clReleaseSampler(sampler);
  clReleaseMemObject(src);
  clReleaseMemObject(out);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return bad ? 1 : 0;
}
