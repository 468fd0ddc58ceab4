//===- ParameterLearning.cpp - A kernel's parameters, learnt without touching the application's build -===//

#include "engine/ParameterLearning.h"

#include "engine/DriverQueries.h"

#include <cstring>
#include <sstream>

namespace clcapture::layer {

std::vector<ValueShape> valueShapes(const KernelInfo &kernel, const HandleMirrors &mirrors) {
  std::vector<ValueShape> shapes;
  for (const ArgValue &value : kernel.args) {
    ValueShape v;
    v.set = value.set;
    v.svm = value.svm;
    v.size = value.size;
    v.nullValue = value.set && !value.svm && value.bytes.empty();
    if (value.bytes.size() == sizeof(cl_mem)) {
      cl_mem mem = nullptr;
      std::memcpy(&mem, value.bytes.data(), sizeof mem);
      v.knownBuffer = mirrors.mems.count(mem) > 0;
    }
    shapes.push_back(v);
  }
  return shapes;
}

bool agreesWithValues(const std::vector<ParamInfo> &params, const std::vector<ValueShape> &values) {
  for (std::size_t i = 0; i < params.size() && i < values.size(); ++i) {
    const ParamInfo &p = params[i];
    const ValueShape &v = values[i];
    if (!v.set)
      continue;
    bool pointer = !p.type.empty() && p.type.back() == '*';
    bool fits = p.qualifier == CL_KERNEL_ARG_ADDRESS_LOCAL ? v.nullValue
                : pointer ? v.svm || v.knownBuffer || v.size == sizeof(cl_mem)
                : p.type.rfind("image", 0) == 0 || p.type == "sampler_t"
                    ? !v.nullValue && !v.svm && v.size == sizeof(void *)
                    : !v.nullValue && !v.svm && !v.knownBuffer;
    if (!fits)
      return false;
  }
  return true;
}

bool answeredAll(const std::vector<ParamInfo> &params) {
  for (const ParamInfo &p : params)
    if (!p.haveQualifier)
      return false;
  return true;
}

std::string privateBuildOptions(const std::string &applicationOptions) {
  // OpenCL 3.0 §5.8.6.8: -create-library and -enable-link-options are linker options only.
  std::istringstream words(applicationOptions);
  std::string word, kept;
  while (words >> word)
    if (word != "-create-library" && word != "-enable-link-options")
      kept += word + " ";
  // -cl-opt-disable: parameters are the front end's facts, and PoCL's build of a large program takes a tenth
  // of the time without optimisation (docs/capture-benchmark.md, "Private builds").
  return kept + "-cl-kernel-arg-info -cl-opt-disable";
}

LearntParameters learnFromPrivateBuild(const cl_icd_dispatch &d, cl_context context, cl_device_id device,
                                       const std::string &source, const std::string &applicationOptions) {
  LearntParameters out;
  if (!d.clCreateProgramWithSource || !d.clBuildProgram || !d.clCreateKernelsInProgram ||
      !d.clReleaseKernel || !d.clReleaseProgram || !d.clGetKernelInfo) {
    out.failure = "the driver lacks an entry point a private build needs";
    return out;
  }
  const char *text = source.c_str();
  std::size_t length = source.size();
  cl_int status = CL_SUCCESS;
  cl_program copy = d.clCreateProgramWithSource(context, 1, &text, &length, &status);
  if (!copy || status != CL_SUCCESS) {
    out.failure = "clCreateProgramWithSource answered " + std::to_string(status);
    return out;
  }
  status =
      d.clBuildProgram(copy, 1, &device, privateBuildOptions(applicationOptions).c_str(), nullptr, nullptr);
  cl_uint count = 0;
  if (status == CL_SUCCESS)
    status = d.clCreateKernelsInProgram(copy, 0, nullptr, &count);
  std::vector<cl_kernel> kernels(count);
  if (status == CL_SUCCESS && count)
    status = d.clCreateKernelsInProgram(copy, count, kernels.data(), nullptr);
  if (status != CL_SUCCESS) {
    out.failure = "the private build with -cl-kernel-arg-info answered " + std::to_string(status);
    kernels.clear();
  }
  for (cl_kernel kernel : kernels) {
    if (!kernel)
      continue;
    char name[1024] = {0};
    if (d.clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof name - 1, name, nullptr) == CL_SUCCESS) {
      std::vector<ParamInfo> params = askParams(d, kernel);
      if (answeredAll(params))
        out.byKernel[name] = std::move(params);
    }
    d.clReleaseKernel(kernel);
  }
  d.clReleaseProgram(copy);
  if (out.failure.empty() && out.byKernel.empty() && count)
    out.failure = "the driver answers clGetKernelArgInfo for no kernel even with -cl-kernel-arg-info";
  return out;
}

} // namespace clcapture::layer
