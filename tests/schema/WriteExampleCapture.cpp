// Writes a capture folder through the library's incremental writer, with every kind of argument and sidecar
// fact, so that the schema tests can validate what the writer really produces.
//   write_example_capture OUTDIR
#include "clcapture/format/CaptureReader.h"
#include "clcapture/format/CaptureRecorder.h"
#include "clcapture/format/MemFlags.h"
#include "clcapture/format/ScalarCodec.h"

#include <cstdio>
#include <filesystem>
#include <vector>

using namespace clcapture::format;

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
    return 1;
  }
  std::filesystem::remove_all(argv[1]);
  SidecarHeader header;
  header.clcaptureVersion = CLCAPTURE_VERSION;
  header.process = {"/usr/bin/example", 1, "2026-11-22T00:00:00Z"};
  auto rec = CaptureRecorder::create(argv[1], header);
  if (!rec) {
    std::fprintf(stderr, "%s\n", rec.error().c_str());
    return 1;
  }
  std::vector<float> input(64);
  for (std::size_t i = 0; i < input.size(); ++i)
    input[i] = static_cast<float>(i);
  auto data = (*rec)->putData(input.data(), input.size() * sizeof(float));
  auto kernel = (*rec)->putKernelSource("scale", "kernel void scale(global float *o, global const float *i,"
                                                 " local float *t, int2 p, float f, read_only image2d_t img,"
                                                 " sampler_t s) {}");
  if (!data || !kernel) {
    std::fprintf(stderr, "cannot write blobs\n");
    return 1;
  }
  struct {
    int a = 2, b = 4;
  } pair;
  float factor = 3.14159265f;
  for (unsigned launch = 0; launch < 3; ++launch) {
    Instantiation inst;
    inst.endianness = Endianness::Little;
    inst.kernelFile = *kernel;
    inst.globalSize = launch == 1 ? Dims{256} : Dims{16, 4};
    if (launch == 0)
      inst.localSize = Dims{16, 1};
    // Values GPUVerify's loader rejects, which go to the sidecar: an offset with a 0 (launches 1 and 2), a
    // local size that does not divide the global size and an array of 0 bytes (launch 1).
    if (launch == 1)
      inst.localSize = Dims{96};
    inst.globalOffset = launch == 2 ? Dims{0, 2} : (launch == 1 ? Dims{0} : Dims{0, 0});
    inst.compilerFlags = "-cl-std=CL1.2";
    inst.entryPoint = "scale";
    inst.kernelArguments = std::vector<KernelArgument>{
        ArrayArgument{launch == 1 ? 0u : 256u, AddressSpace::Global, memFlagNames(1u << 1), std::nullopt},
        ArrayArgument{256, AddressSpace::Global, memFlagNames((1u << 2) | (1u << 5)), *data},
        ArrayArgument{64, AddressSpace::Local, std::nullopt, std::nullopt},
        ScalarArgument{encodeScalar(&pair, sizeof pair, Endianness::Little)},
        ScalarArgument{encodeScalar(&factor, sizeof factor, Endianness::Little)},
        ImageArgument{},
        SamplerArgument{}};
    inst.hostApiCalls = std::vector<HostApiCall>{{"clEnqueueNDRangeKernel", "example.c", 10 + launch}};
    LaunchFacts facts;
    facts.launch = launch;
    facts.enqueueFunction = "clEnqueueNDRangeKernel";
    facts.kernelName = "scale";
    facts.device = {"cpu", "PoCL", "OpenCL 3.0 PoCL", "3.1", 64, Endianness::Little, false};
    facts.arguments = {
        ArgumentFacts{0, ArgumentKind::Buffer, std::string("o"), std::string("float*"), std::string("global"),
                      0, 2, SubBufferFacts{1, 0}, std::nullopt, std::string("written by the kernel only")},
        ArgumentFacts{1, ArgumentKind::Buffer, std::string("i"), std::string("float*"), std::string("global"),
                      1, 36, std::nullopt, std::nullopt, std::nullopt},
        ArgumentFacts{2, ArgumentKind::LocalMemory, std::string("t"), std::nullopt, std::string("local"),
                      std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt},
        ArgumentFacts{3, ArgumentKind::Scalar, std::string("p"), std::string("int2"), std::nullopt,
                      std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt},
        ArgumentFacts{4, ArgumentKind::Svm, std::string("f"), std::nullopt, std::nullopt, std::nullopt,
                      std::nullopt, std::nullopt, SvmFacts{0, 8}, std::nullopt},
        ArgumentFacts{5, ArgumentKind::Image, std::string("img"), std::nullopt, std::nullopt, std::nullopt,
                      std::nullopt, std::nullopt, std::nullopt, std::nullopt},
        ArgumentFacts{6, ArgumentKind::Sampler, std::string("s"), std::nullopt, std::nullopt, std::nullopt,
                      std::nullopt, std::nullopt, std::nullopt, std::nullopt}};
    facts.aliases = {{0, 1}};
    facts.hostCalls = {HostCallFacts{"clSetKernelArg", 3, "/usr/bin/example", 0x11a0, std::string("main"),
                                     std::nullopt, std::nullopt},
                       HostCallFacts{"clEnqueueNDRangeKernel", std::nullopt, "/usr/bin/example", 0x11f0,
                                     std::string("main"), std::string("example.c"), 10 + launch}};
    auto index = (*rec)->append(inst, facts);
    if (!index) {
      std::fprintf(stderr, "%s\n", index.error().c_str());
      return 1;
    }
  }
  LaunchFacts il;
  il.launch = 3;
  il.enqueueFunction = "clEnqueueTask";
  il.kernelName = "from_il";
  il.programOrigin = ProgramOrigin::Il;
  il.device = {"cpu", "PoCL", "OpenCL 3.0 PoCL", "3.1", 64, Endianness::Little, false};
  if (!(*rec)->appendNotCaptured(il, "program built from IL has no source")) {
    std::fprintf(stderr, "cannot append\n");
    return 1;
  }
  // The written folder must also pass the reader with file checks.
  Capture c = loadCapture(std::filesystem::path(argv[1]) / "captures.json");
  for (const auto &d : c.diagnostics)
    std::fprintf(stderr, "%s\n", d.str().c_str());
  if (c.hasErrors() || c.captures.instantiations.size() != 3)
    return 1;
  // The reader puts the sidecar's exact values back.
  const auto &back = c.captures.instantiations;
  if (back[2].globalOffset != Dims{0, 2} || back[1].localSize != Dims{96} ||
      std::get<ArrayArgument>(back[1].kernelArguments->at(0)).size != 0u) {
    std::fprintf(stderr, "the exact offset, local size or array size did not come back from the sidecar\n");
    return 1;
  }
  std::printf("wrote %s with 3 instantiations and 4 launches\n", argv[1]);
  return 0;
}
