// SignatureReader: kernel parameters read from the captured source where the preprocessing is certain, and
// nothing where it is not (each uncertain case below must leave the kernel out, for a private build).
#include "engine/SignatureReader.h"

#include <catch2/catch.hpp>

using namespace clcapture::layer;

namespace {

std::string describe(const std::vector<ParamInfo> &params) {
  std::string out;
  for (const ParamInfo &p : params) {
    const char *space = p.qualifier == CL_KERNEL_ARG_ADDRESS_GLOBAL     ? "global"
                        : p.qualifier == CL_KERNEL_ARG_ADDRESS_LOCAL    ? "local"
                        : p.qualifier == CL_KERNEL_ARG_ADDRESS_CONSTANT ? "constant"
                                                                        : "private";
    out += (out.empty() ? "" : ", ") + p.name + ":" + p.type + ":" + space + (p.isConst ? ":const" : "");
  }
  return out;
}

std::string read(const std::string &source, const std::string &name, const std::string &options = "") {
  auto found = readKernelSignatures(source, options);
  auto it = found.find(name);
  return it == found.end() ? "UNCERTAIN" : describe(it->second);
}

} // namespace

TEST_CASE("plain signatures: address spaces, pointee constness, type spellings") {
  const char *source = "kernel void k(global const int *a, constant float4 *b, local int *l, const int n,\n"
                       "              global int *const p, unsigned int u, __global unsigned char* c) {}\n"
                       "__kernel void empty(void) {}\n";
  CHECK(read(source, "k") == "a:int*:global:const, b:float4*:constant:const, l:int*:local, n:int:private, "
                             "p:int*:global, u:uint:private, c:uchar*:global");
  CHECK(read(source, "empty").empty());
}

TEST_CASE("images, samplers, structs, attributes, comments and line splices") {
  const char *source =
      "typedef struct { int a; } pair_t;\n"
      "__kernel __attribute__((reqd_work_group_size(8, 1, 1))) void\n"
      "f(read_only image2d_t in, /* the output */ write_only image2d_t out, sampler_t s, \\\n"
      "  pair_t p, // trailing\n"
      "  global struct node *n) {}\n";
  CHECK(read(source, "f") == "in:image2d_t:global, out:image2d_t:global, s:sampler_t:private, "
                             "p:pair_t:private, n:struct node*:global");
}

TEST_CASE("object-like macros from the options and the source are expanded") {
  const char *source = "#define KERNEL __kernel\n#define GLOBAL __global\n#define RESTRICT restrict\n"
                       "KERNEL void f(GLOBAL const T* RESTRICT x, GLOBAL T *y) {}\n";
  CHECK(read(source, "f", "-D T=float") == "x:float*:global:const, y:float*:global");
  CHECK(read(source, "f", "-DT=uchar") == "x:uchar*:global:const, y:uchar*:global");
}

TEST_CASE("conditions decided by the options and the source are followed") {
  const char *source = "#if PRECISION == 64\n#define real double\n#elif PRECISION == 32\n#define real float\n"
                       "#else\n#define real half\n#endif\n"
                       "kernel void f(global real *x\n#ifdef WITH_Y\n, global real *y\n#endif\n) {}\n";
  CHECK(read(source, "f", "-DPRECISION=32") == "x:float*:global");
  CHECK(read(source, "f", "-D PRECISION=64 -D WITH_Y") == "x:double*:global, y:double*:global");
  CHECK(read(source, "f", "-DPRECISION=64 -DWITH_Y -UWITH_Y") == "x:double*:global");
  // An identifier nobody defined is 0 in #if (C's rule): the #else branch.
  CHECK(read(source, "f") == "x:half*:global");
}

TEST_CASE("what the driver may predefine leaves the kernel uncertain") {
  // A macro defined under a condition on an extension or version macro, used in the signature.
  CHECK(read("#ifdef cl_khr_fp64\n#define real double\n#else\n#define real float\n#endif\n"
             "kernel void f(global real *x) {}\n",
             "f") == "UNCERTAIN");
  CHECK(read("#if __OPENCL_VERSION__ >= 200\n#define AS global\n#else\n#define AS constant\n#endif\n"
             "kernel void f(AS int *x) {}\n",
             "f") == "UNCERTAIN");
  // The signature itself inside such a condition.
  CHECK(read("#ifdef cl_khr_fp64\nkernel void f(global double *x) {}\n#endif\n", "f") == "UNCERTAIN");
  // A condition that does not touch the signature leaves it certain.
  CHECK(read("#ifdef cl_khr_fp64\n#define HAVE_DOUBLE 1\n#endif\nkernel void f(global int *x) {}\n", "f") ==
        "x:int*:global");
}

TEST_CASE("function-like macros, second definitions, leftover includes and odd declarations are uncertain") {
  CHECK(read("#define ARGS(t) global t *x, int n\nkernel void f(ARGS(int)) {}\n", "f") == "UNCERTAIN");
  CHECK(read("#define PARAMS global int *x\nkernel void f(PARAMS) {}\n", "f") == "x:int*:global");
  CHECK(read("#if defined(FOO) || defined(cl_khr_fp64)\nkernel void f(global int *x) {}\n#else\n"
             "kernel void f(global float *x) {}\n#endif\n",
             "f") == "UNCERTAIN");
  CHECK(read("#include \"missing.h\"\nkernel void f(global int *x) {}\n", "f") == "UNCERTAIN");
  CHECK(read("kernel void f(int *x) {}\n", "f") == "UNCERTAIN");          // a pointer without a space
  CHECK(read("kernel void f(global int x[4]) {}\n", "f") == "UNCERTAIN"); // an array
  CHECK(read("kernel void f(global int *x);\n", "f") == "UNCERTAIN");     // a declaration only
  CHECK(read("kernel void f(global int *x) {}\nkernel void f(global int *x) {}\n", "f") == "UNCERTAIN");
}
