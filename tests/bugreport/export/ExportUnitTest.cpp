//===- ExportUnitTest.cpp - The export conversions, without the programs --===//

#include "clcapture/export/ElementBytes.h"
#include "clcapture/export/KernelSignature.h"
#include "clcapture/export/OpenClTypes.h"
#include "clcapture/export/SpecExpression.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>

using namespace clcapture::exporter;
using clcapture::format::AddressSpace;
using clcapture::format::Endianness;

TEST_CASE("type names are normalised the OpenCL way", "[export][types]") {
  CHECK(normalizeTypeName("unsigned int") == "uint");
  CHECK(normalizeTypeName("unsigned") == "uint");
  CHECK(normalizeTypeName("const __global float *") == "float*");
  CHECK(normalizeTypeName("long int") == "long");
  CHECK(normalizeTypeName("unsigned char") == "uchar");
  CHECK(normalizeTypeName("struct  Params") == "struct Params");
  CHECK(pointeeOf("float4*") == std::optional<std::string>("float4"));
  CHECK_FALSE(pointeeOf("int").has_value());
}

TEST_CASE("built-in types have OpenCL's sizes", "[export][types]") {
  auto int3 = lookupClType("int3");
  REQUIRE(int3);
  CHECK(int3->size() == 16); // OpenCL 1.2 §6.1.5: 3 lanes take the room of 4
  CHECK(int3->element == "int");
  CHECK(lookupClType("size_t", 32)->size() == 4);
  CHECK(lookupClType("size_t", 64)->specName() == "ulong");
  CHECK(lookupClType("atomic_int")->specName() == "int");
  CHECK(lookupClType("half")->element == "ushort");
  CHECK(lookupClType("double16")->size() == 128);
  CHECK_FALSE(lookupClType("Params").has_value());
  CHECK_FALSE(lookupClType("int5").has_value());
  CHECK_FALSE(lookupClType("float*").has_value());
}

TEST_CASE("the entry's parameters are read from the source", "[export][signature]") {
  const char *source = R"(
    #define REAL float
    typedef unsigned int index_t;
    // kernel void k(int decoy)
    /* kernel void k(float decoy) */
    kernel void other(global int *x) { x[0] = 1; }
    __kernel __attribute__((reqd_work_group_size(64, 1, 1)))
    void k(__global const REAL *restrict in, global float4 *out, __local int *tmp, index_t n,
           const __global int *lut, global int *counts, global int *acc, struct Pair p, int arr[4]) {
      int i = get_global_id(0);
      tmp[i] = lut[i];
      out[i].x = in[i];
      counts[i] = 0;
      counts[i + 1] = tmp[i];
      acc[i] += 1;
      vstore4((float4)(0), 0, (global float *)out);
    }
  )";
  auto sig = parseKernelSignature(source, "k");
  REQUIRE(sig);
  CHECK(sig->hasBody);
  REQUIRE(sig->parameters.size() == 9);
  const auto &p = sig->parameters;
  CHECK(p[0].name == "in");
  CHECK(p[0].type == "float"); // through #define REAL
  CHECK(p[0].pointeeConst);
  CHECK(p[0].addressSpace == AddressSpace::Global);
  CHECK(p[1].type == "float4");
  CHECK_FALSE(p[1].writtenOnly); // also cast and passed to vstore4 through a cast
  CHECK(p[2].addressSpace == AddressSpace::Local);
  CHECK_FALSE(p[2].writtenOnly); // read as well
  CHECK(p[3].type == "uint");    // through the typedef
  CHECK(p[3].pointerDepth == 0);
  CHECK(p[4].pointeeConst);
  CHECK(p[5].writtenOnly);       // only `counts[e] = …`
  CHECK_FALSE(p[6].writtenOnly); // `+=` reads
  CHECK(p[7].type == "struct Pair");
  CHECK(p[7].name == "p");
  CHECK(p[8].pointerDepth == 1);
  CHECK(p[8].name == "arr");
}

TEST_CASE("stores through vstore and members count as stores", "[export][signature]") {
  auto sig =
      parseKernelSignature("kernel void k(global float *a, global float2 *b, global int *c) {"
                           "  vstore2((float2)(1, 2), 0, a); b[0].x = 1; c[get_global_id(0)] = c[0]; }",
                           "k");
  REQUIRE(sig);
  CHECK(sig->parameters[0].writtenOnly);
  CHECK(sig->parameters[1].writtenOnly);
  CHECK_FALSE(sig->parameters[2].writtenOnly);
  CHECK_FALSE(parseKernelSignature("void k(global int *a) {}", "k").has_value()); // not a kernel
  CHECK_FALSE(parseKernelSignature("kernel void k(void) {}", "j").has_value());
  auto none = parseKernelSignature("kernel void k(void) {}", "k");
  REQUIRE(none);
  CHECK(none->parameters.empty());
}

TEST_CASE("spec expressions evaluate like Python 2 over defined names", "[export][expression]") {
  Defines d{{"dataset", 1024}};
  CHECK(evaluateInteger("dataset", d).value == 1024);
  CHECK(evaluateInteger("dataset**2", d).value == 1048576);
  CHECK(evaluateInteger("2 + 3 * 4", d).value == 14);
  CHECK(evaluateInteger("-7 / 2", d).value == -4); // floor division
  CHECK(evaluateInteger("-7 % 3", d).value == 2);  // the divisor's sign
  CHECK(evaluateInteger("7 // 2", d).value == 3);
  CHECK(evaluateInteger("-2**2", d).value == -4); // ** binds tighter than unary minus
  CHECK(evaluateInteger("0x10 + (1)", d).value == 17);
  auto undefined = evaluateInteger("dataset * size_percent", d);
  CHECK_FALSE(undefined.value);
  CHECK(undefined.symbol == std::optional<std::string>("size_percent"));
  auto call = evaluateInteger("partition_round(dataset, size_percent)", d);
  CHECK_FALSE(call.value);
  CHECK(call.symbol == std::optional<std::string>("partition_round"));
  CHECK_FALSE(evaluateInteger("1.5", d).value);
  CHECK_FALSE(evaluateInteger("9223372036854775807 + 1", d).value);
  CHECK_FALSE(evaluateInteger("1 / 0", d).value);

  auto list = evaluateIntegerList("[dataset, 1]", d);
  REQUIRE(list.values);
  CHECK(*list.values == std::vector<std::int64_t>{1024, 1});
  CHECK(evaluateIntegerList("64", d).values ==
        std::optional<std::vector<std::int64_t>>(std::vector<std::int64_t>{64}));
  auto open = evaluateIntegerList("[n, 1]", d);
  CHECK_FALSE(open.values);
  CHECK(open.symbol == std::optional<std::string>("n"));
  CHECK(pythonList({1024, 1}) == "[1024, 1]");
  CHECK(parseDefine("dataset=1024") ==
        std::optional<std::pair<std::string, std::int64_t>>({"dataset", 1024}));
  CHECK_FALSE(parseDefine("1x=2").has_value());
  CHECK_FALSE(parseDefine("x=y").has_value());
}

TEST_CASE("element values are written and read back exactly", "[export][values]") {
  unsigned char bytes[4] = {0x01, 0x02, 0x03, 0x04};
  CHECK(loadUnsigned(bytes, 4, Endianness::Little) == 0x04030201u);
  CHECK(loadUnsigned(bytes, 4, Endianness::Big) == 0x01020304u);
  unsigned char out[2];
  storeUnsigned(0xABCD, 2, Endianness::Big, out);
  CHECK((out[0] == 0xAB && out[1] == 0xCD));
  CHECK(signExtend(0xFE, 1) == -2);

  auto f = *lookupClType("float");
  float third = 1.0f / 3.0f;
  std::uint32_t bits;
  std::memcpy(&bits, &third, sizeof bits);
  auto text = elementText(bits, f);
  REQUIRE(text);
  CHECK(std::strtof(text->c_str(), nullptr) == third);
  CHECK_FALSE(elementText(0x7FC00000, f).has_value()); // NaN has no decimal form
  CHECK(elementText(0xFF, *lookupClType("char")) == std::optional<std::string>("-1"));

  std::string why;
  auto c = *lookupClType("char");
  CHECK(elementBits(NumberValue::integer(-128), c, why) == std::optional<std::uint64_t>(0x80));
  CHECK_FALSE(elementBits(NumberValue::integer(128), c, why).has_value());
  CHECK_FALSE(elementBits(NumberValue::integer(-1), *lookupClType("uint"), why).has_value());
  CHECK(elementBits(NumberValue::realNumber(3.0), *lookupClType("int"), why) ==
        std::optional<std::uint64_t>(3));
  CHECK_FALSE(elementBits(NumberValue::realNumber(3.5), *lookupClType("int"), why).has_value());
  CHECK(elementBits(NumberValue::realNumber(static_cast<double>(third)), f, why) ==
        std::optional<std::uint64_t>(bits));
  CHECK(elementBits(NumberValue::unsignedInteger(std::numeric_limits<std::uint64_t>::max()),
                    *lookupClType("ulong"),
                    why) == std::optional<std::uint64_t>(std::numeric_limits<std::uint64_t>::max()));
  CHECK(elementBits(NumberValue::integer(std::numeric_limits<std::int64_t>::min()), *lookupClType("long"),
                    why) == std::optional<std::uint64_t>(std::uint64_t{1} << 63));
}
