//===- SignatureReaderCheck.cpp - What SignatureReader is certain of, against the driver's own answer -===//
//
// usage: signature_reader_check [--options OPTIONS] FILE.cl...   (OPTIONS apply to every file; a file may
// name its own on a first line `// clcapture-build-options: ...`)
//
// Builds each file on the first OpenCL device with -cl-kernel-arg-info and compares, for every kernel that
// SignatureReader reads with certainty, each parameter's name, type name, address qualifier and constness
// with clGetKernelArgInfo's. Prints one line per disagreement and the counts; exits 1 on any disagreement
// (a certain answer that is wrong would make the capture record wrong facts), 0 otherwise. Files that do not
// build are counted and skipped. One difference is allowed: PoCL's OpenCL C header renames builtins by macro
// (`#define step _cl_step`), so a parameter named like a builtin is `_cl_step` to PoCL and `step` as written.
//
//===----------------------------------------------------------------------===//
#include "engine/DriverQueries.h"
#include "engine/SignatureReader.h"

#include <CL/cl.h>
#include <CL/cl_icd.h>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using clcapture::layer::ParamInfo;

namespace {

std::string spaceName(cl_kernel_arg_address_qualifier q) {
  switch (q) {
  case CL_KERNEL_ARG_ADDRESS_GLOBAL:
    return "global";
  case CL_KERNEL_ARG_ADDRESS_LOCAL:
    return "local";
  case CL_KERNEL_ARG_ADDRESS_CONSTANT:
    return "constant";
  default:
    return "private";
  }
}

std::string describe(const ParamInfo &p) {
  return p.name + " : " + p.type + " (" + spaceName(p.qualifier) + (p.isConst ? ", const" : "") + ")";
}

} // namespace

int main(int argc, char **argv) {
  std::string common;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--options" && i + 1 < argc)
      common = argv[++i];
    else
      files.push_back(a);
  }
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  if (clGetPlatformIDs(1, &platform, nullptr) != CL_SUCCESS ||
      clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) != CL_SUCCESS) {
    std::fprintf(stderr, "no OpenCL device\n");
    return 2;
  }
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, nullptr);
  // The driver's dispatch table: every object starts with it (docs/drivers-and-loaders.md).
  const cl_icd_dispatch &d = **reinterpret_cast<cl_icd_dispatch **>(device);
  int certainKernels = 0, uncertainKernels = 0, unbuilt = 0, disagreements = 0;
  for (const std::string &file : files) {
    std::ifstream in(file);
    std::stringstream buffer;
    buffer << in.rdbuf();
    std::string source = buffer.str();
    std::string options = common;
    const std::string marker = "// clcapture-build-options:";
    if (source.rfind(marker, 0) == 0)
      options += " " + source.substr(marker.size(), source.find('\n') - marker.size());
    const char *text = source.c_str();
    cl_int status = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(context, 1, &text, nullptr, &status);
    if (clBuildProgram(program, 1, &device, (options + " -cl-kernel-arg-info").c_str(), nullptr, nullptr) !=
        CL_SUCCESS) {
      ++unbuilt;
      clReleaseProgram(program);
      continue;
    }
    cl_uint count = 0;
    clCreateKernelsInProgram(program, 0, nullptr, &count);
    std::vector<cl_kernel> kernels(count);
    clCreateKernelsInProgram(program, count, kernels.data(), nullptr);
    auto read = clcapture::layer::readKernelSignatures(source, options);
    for (cl_kernel kernel : kernels) {
      char name[1024] = {0};
      clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof name - 1, name, nullptr);
      std::vector<ParamInfo> driver = clcapture::layer::askParams(d, kernel);
      auto it = read.find(name);
      if (it == read.end()) {
        ++uncertainKernels;
      } else {
        ++certainKernels;
        const std::vector<ParamInfo> &mine = it->second;
        bool same = mine.size() == driver.size();
        for (std::size_t i = 0; same && i < mine.size(); ++i)
          same = (mine[i].name == driver[i].name || "_cl_" + mine[i].name == driver[i].name) &&
                 mine[i].type == driver[i].type && mine[i].qualifier == driver[i].qualifier &&
                 mine[i].isConst == driver[i].isConst;
        if (!same) {
          ++disagreements;
          std::printf("DISAGREE %s: kernel %s\n", file.c_str(), name);
          for (std::size_t i = 0; i < std::max(mine.size(), driver.size()); ++i)
            std::printf("  %zu: read %s | driver %s\n", i, i < mine.size() ? describe(mine[i]).c_str() : "-",
                        i < driver.size() ? describe(driver[i]).c_str() : "-");
        }
      }
      clReleaseKernel(kernel);
    }
    clReleaseProgram(program);
  }
  std::printf("%zu files (%d did not build): %d kernels read with certainty, %d left to a private build, "
              "%d disagreements\n",
              files.size(), unbuilt, certainKernels, uncertainKernels, disagreements);
  return disagreements ? 1 : 0;
}
