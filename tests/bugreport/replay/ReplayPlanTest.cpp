// clcapture-replay without a device: planning a launch from a capture (aliasing, sub-buffers, what is
// missing), scalar sizes, which buffers the kernel may write, and the comparison of replayed bytes.
#include "TestSupport.h"
#include "clcapture/replay/BufferComparison.h"
#include "clcapture/replay/LaunchPlan.h"

#include <catch2/catch.hpp>
#include <cstring>

using namespace clcapture::replay;
namespace fmt = clcapture::format;
using clcapture::test::TempDir;

namespace {

fmt::ArrayArgument buffer(std::uint64_t size, std::optional<std::string> data,
                          std::vector<std::string> flags = {"CL_MEM_READ_WRITE"}) {
  return fmt::ArrayArgument{size, fmt::AddressSpace::Global, flags, std::move(data)};
}

fmt::ArgumentFacts memFacts(std::uint32_t index, std::uint64_t id, std::uint64_t flags = 1) {
  fmt::ArgumentFacts af;
  af.index = index;
  af.kind = fmt::ArgumentKind::Buffer;
  af.name = "a" + std::to_string(index);
  af.typeName = "int*";
  af.addressQualifier = "global";
  af.memObject = id;
  af.memFlags = flags;
  return af;
}

fmt::Instantiation instantiation(std::vector<fmt::KernelArgument> args) {
  fmt::Instantiation inst;
  inst.endianness = fmt::Endianness::Little;
  inst.kernelFile = "kernels/k.cl";
  inst.globalSize = {16};
  inst.entryPoint = "k";
  inst.kernelArguments = std::move(args);
  return inst;
}

void writeBytes(const TempDir &dir, const std::string &name, std::vector<std::uint8_t> bytes) {
  clcapture::test::writeFile(dir / name, std::string(bytes.begin(), bytes.end()));
}

std::vector<std::uint8_t> filled(std::size_t n, std::uint8_t v) {
  return std::vector<std::uint8_t>(n, v);
}

std::vector<std::uint8_t> floats(std::initializer_list<float> values) {
  std::vector<std::uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.begin(), bytes.size());
  return bytes;
}

} // namespace

TEST_CASE("plan: two arguments of one memory object are one cl_mem", "[replay][plan]") {
  TempDir dir;
  writeBytes(dir, "data/a.bin", filled(64, 7));
  auto inst = instantiation({buffer(64, "data/a.bin"), buffer(64, "data/a.bin")});
  fmt::LaunchFacts facts;
  facts.arguments = {memFacts(0, 5), memFacts(1, 5)};
  auto plan = planLaunch(inst, &facts, 0, dir.path());
  REQUIRE(plan.ok());
  REQUIRE(plan->memory.size() == 1);
  CHECK(plan->args[0].memory == 0);
  CHECK(plan->args[1].memory == 0);
  CHECK(plan->memory[0].initial == filled(64, 7));
}

TEST_CASE("plan: sub-buffers of one parent become sub-buffers of one rebuilt parent", "[replay][plan]") {
  TempDir dir;
  writeBytes(dir, "data/low.bin", filled(256, 1));
  writeBytes(dir, "data/mid.bin", filled(256, 1));
  auto inst = instantiation({buffer(256, "data/mid.bin"), buffer(256, "data/low.bin")});
  fmt::LaunchFacts facts;
  facts.arguments = {memFacts(0, 2), memFacts(1, 1)};
  facts.arguments[0].subBuffer = fmt::SubBufferFacts{0, 640}; // [640, 896)
  facts.arguments[1].subBuffer = fmt::SubBufferFacts{0, 512}; // [512, 768): overlaps
  auto plan = planLaunch(inst, &facts, 0, dir.path());
  REQUIRE(plan.ok());
  REQUIRE(plan->memory.size() == 3);
  // The parent holds the two ranges only, shifted so that the lowest origin is 0.
  CHECK(plan->memory[0].size == 384);
  CHECK(!plan->memory[0].parent);
  CHECK(plan->memory[1].parent == std::optional<std::size_t>(0));
  CHECK(plan->memory[1].origin == 128);
  CHECK(plan->memory[2].origin == 0);
  CHECK(plan->args[0].memory == 1);
  CHECK(plan->args[1].memory == 2);
}

TEST_CASE("plan: the parent passed beside its sub-buffer keeps the real origins", "[replay][plan]") {
  TempDir dir;
  std::vector<std::uint8_t> parent(1024);
  for (std::size_t i = 0; i < parent.size(); ++i)
    parent[i] = static_cast<std::uint8_t>(i);
  writeBytes(dir, "data/parent.bin", parent);
  writeBytes(dir, "data/high.bin", std::vector<std::uint8_t>(parent.begin() + 512, parent.end()));
  auto inst = instantiation({buffer(1024, "data/parent.bin"), buffer(512, "data/high.bin")});
  fmt::LaunchFacts facts;
  facts.arguments = {memFacts(0, 0), memFacts(1, 3)};
  facts.arguments[1].subBuffer = fmt::SubBufferFacts{0, 512};
  auto plan = planLaunch(inst, &facts, 0, dir.path());
  REQUIRE(plan.ok());
  REQUIRE(plan->memory.size() == 2);
  CHECK(plan->memory[0].size == 1024);
  CHECK(plan->memory[0].initial == parent);
  CHECK(plan->memory[1].origin == 512);
  CHECK(plan->args[0].memory == 0);
  CHECK(plan->args[1].memory == 1);
}

TEST_CASE("plan: a sub-buffer alone is a buffer of its own", "[replay][plan]") {
  TempDir dir;
  writeBytes(dir, "data/s.bin", filled(32, 3));
  auto inst = instantiation({buffer(32, "data/s.bin")});
  fmt::LaunchFacts facts;
  facts.arguments = {memFacts(0, 4)};
  facts.arguments[0].subBuffer = fmt::SubBufferFacts{1, 100};
  auto plan = planLaunch(inst, &facts, 0, dir.path());
  REQUIRE(plan.ok());
  REQUIRE(plan->memory.size() == 1);
  CHECK(plan->memory[0].size == 32);
}

TEST_CASE("plan: a buffer without bytes that the kernel may read is not replayed", "[replay][plan]") {
  TempDir dir;
  auto inst = instantiation({buffer(64, std::nullopt)});
  fmt::LaunchFacts facts;
  facts.arguments = {memFacts(0, 0)};
  facts.arguments[0].dataSkipped = "larger than the per-buffer cap (CLCAPTURE_DATA=16)";
  auto plan = planLaunch(inst, &facts, 0, dir.path());
  REQUIRE(!plan.ok());
  CHECK(plan.error() == "argument 0 (a0): the capture has no bytes for it (larger than the per-buffer cap "
                        "(CLCAPTURE_DATA=16)) and the kernel may read them");
}

TEST_CASE("plan: a write-only buffer without bytes starts zeroed, and says so", "[replay][plan]") {
  TempDir dir;
  auto inst = instantiation({buffer(64, std::nullopt, {"CL_MEM_WRITE_ONLY"})});
  fmt::LaunchFacts facts;
  facts.arguments = {memFacts(0, 0, 2)};
  facts.arguments[0].dataSkipped = "metadata-only mode (CLCAPTURE_DATA=none)";
  auto plan = planLaunch(inst, &facts, 0, dir.path());
  REQUIRE(plan.ok());
  CHECK(plan->memory[0].initial == filled(64, 0));
  REQUIRE(plan->notes.size() == 1);
  CHECK(plan->notes[0].find("started zeroed") != std::string::npos);
}

TEST_CASE("plan: SVM, images and samplers are reported, never guessed", "[replay][plan]") {
  TempDir dir;
  fmt::LaunchFacts facts;
  facts.arguments = {memFacts(0, 0)};
  facts.arguments[0].kind = fmt::ArgumentKind::Svm;
  auto svm = planLaunch(instantiation({buffer(64, std::nullopt)}), &facts, 0, dir.path());
  REQUIRE(!svm.ok());
  CHECK(svm.error().find("an SVM pointer") != std::string::npos);
  auto image = planLaunch(instantiation({fmt::ImageArgument{}}), nullptr, 0, dir.path());
  REQUIRE(!image.ok());
  CHECK(image.error().find("an image") != std::string::npos);
  auto sampler = planLaunch(instantiation({fmt::SamplerArgument{}}), nullptr, 0, dir.path());
  REQUIRE(!sampler.ok());
  CHECK(sampler.error().find("a sampler") != std::string::npos);
  fmt::LaunchFacts il;
  il.programOrigin = fmt::ProgramOrigin::Il;
  il.notCapturedReason = "program built from IL";
  CHECK(notReplayableReason(il) == "program built from IL");
  il.notCapturedReason.reset();
  CHECK(notReplayableReason(il) == "program built from il, without its source");
}

TEST_CASE("plan: __local sizes, NULL buffers and scalars", "[replay][plan]") {
  TempDir dir;
  auto inst =
      instantiation({fmt::ArrayArgument{256, fmt::AddressSpace::Local, std::nullopt, std::nullopt},
                     fmt::ArrayArgument{std::nullopt, fmt::AddressSpace::Global, std::nullopt, std::nullopt},
                     fmt::ScalarArgument{"0x00000007"}});
  fmt::LaunchFacts facts;
  facts.arguments.resize(3);
  facts.arguments[0].index = 0;
  facts.arguments[0].kind = fmt::ArgumentKind::LocalMemory;
  facts.arguments[1].index = 1;
  facts.arguments[1].kind = fmt::ArgumentKind::NullBuffer;
  facts.arguments[2].index = 2;
  facts.arguments[2].kind = fmt::ArgumentKind::Scalar;
  auto plan = planLaunch(inst, &facts, 0, dir.path());
  REQUIRE(plan.ok());
  CHECK(plan->args[0].role == ArgRole::Local);
  CHECK(plan->args[0].size == 256);
  CHECK(plan->args[1].role == ArgRole::Null);
  CHECK(plan->args[2].role == ArgRole::Scalar);
  CHECK(plan->memory.empty());
}

TEST_CASE("scalars: sizes from the type, bytes in the capture's byte order", "[replay][scalar]") {
  CHECK(scalarTypeBytes("int", 64) == 4u);
  CHECK(scalarTypeBytes("unsigned int", 64) == 4u);
  CHECK(scalarTypeBytes("float3", 64) == 16u);
  CHECK(scalarTypeBytes("uchar16", 64) == 16u);
  CHECK(scalarTypeBytes("size_t", 32) == 4u);
  CHECK(!scalarTypeBytes("struct params", 64));
  auto little = scalarBytes("0x1", std::string("int"), 64, fmt::Endianness::Little);
  REQUIRE(little.ok());
  CHECK(*little == std::vector<std::uint8_t>{1, 0, 0, 0});
  auto big = scalarBytes("0x00000001", std::string("int"), 64, fmt::Endianness::Big);
  REQUIRE(big.ok());
  CHECK(*big == std::vector<std::uint8_t>{0, 0, 0, 1});
  // A struct: as many bytes as the layer wrote digits (docs/contract.md §3's example).
  auto pair = scalarBytes("0x0000000400000002", std::nullopt, 64, fmt::Endianness::Little);
  REQUIRE(pair.ok());
  CHECK(*pair == std::vector<std::uint8_t>{2, 0, 0, 0, 4, 0, 0, 0});
  CHECK(!scalarBytes("0x123456789", std::string("int"), 64, fmt::Endianness::Little).ok());
}

TEST_CASE("written buffers: global pointers to non-const data", "[replay][plan]") {
  ArgPlan arg;
  arg.role = ArgRole::Memory;
  arg.addressQualifier = "global";
  CHECK(mayWrite(arg, {}));
  ArgQualifiers constant;
  constant.isConst = true;
  CHECK(!mayWrite(arg, constant));
  ArgQualifiers constantSpace;
  constantSpace.addressQualifier = "constant";
  CHECK(!mayWrite(arg, constantSpace));
  arg.role = ArgRole::Local;
  CHECK(!mayWrite(arg, {}));
}

TEST_CASE("comparison: element types from pointer type names", "[replay][compare]") {
  ElementType f4 = elementTypeOf("float4*");
  CHECK(f4.kind == ValueKind::Float);
  CHECK(f4.unitBytes == 4);
  CHECK(f4.elementBytes == 16);
  CHECK(elementTypeOf("const uint *").kind == ValueKind::Integer);
  CHECK(elementTypeOf("double3*").elementBytes == 32);
  CHECK(elementTypeOf("half*").unitBytes == 2);
  CHECK(elementTypeOf("struct pair*").kind == ValueKind::Bytes);
}

TEST_CASE("comparison: ulp distances, zeros and NaNs", "[replay][compare]") {
  const std::uint64_t one = 0x3F800000, next = 0x3F800001, minusZero = 0x80000000, nan1 = 0x7FC00000,
                      nan2 = 0x7FC00001;
  CHECK(ulpDistance(one, one, 4) == 0u);
  CHECK(ulpDistance(one, next, 4) == 1u);
  CHECK(ulpDistance(0, minusZero, 4) == 1u);
  CHECK(ulpDistance(nan1, nan2, 4) == 0u);
  CHECK(!ulpDistance(nan1, one, 4));
  CHECK(ulpDistance(0x00000001, 0x80000001, 4) == 2u); // the smallest denormals either side of zero
  CHECK(ulpDistance(0x3C00, 0x3C02, 2) == 2u);         // half 1.0 and two steps up
}

TEST_CASE("comparison: floats within --ulp, integers bit for bit", "[replay][compare]") {
  ElementType f = elementTypeOf("float*");
  auto replayed = floats({1.0f, 2.0f, 3.0f});
  auto captured = replayed;
  captured[4] ^= 1; // 2.0f one ulp up
  Comparison exact = compareBuffers(replayed, captured, f, 0, fmt::Endianness::Little);
  CHECK(!exact.same);
  CHECK(exact.differing == 1);
  REQUIRE(exact.first.size() == 1);
  CHECK(exact.first[0].offset == 4);
  CHECK(exact.first[0].element == std::optional<std::uint64_t>(1));
  CHECK(exact.first[0].replayed == "0x40000000");
  CHECK(exact.first[0].captured == "0x40000001");
  CHECK(compareBuffers(replayed, captured, f, 1, fmt::Endianness::Little).same);
  // The same bytes read as integers: bit for bit, whatever --ulp says.
  CHECK(!compareBuffers(replayed, captured, elementTypeOf("int*"), 5, fmt::Endianness::Little).same);
  Comparison size = compareBuffers(replayed, floats({1.0f, 2.0f}), f, 0, fmt::Endianness::Little);
  CHECK(!size.same);
  CHECK(size.sizeMismatch == std::optional<std::string>("replayed 12 bytes, captured 8"));
  CHECK(describe(exact, f) == "1 of 3 float values differ, first at byte 4 (element 1): 0x40000000 replayed, "
                              "0x40000001 captured");
}
