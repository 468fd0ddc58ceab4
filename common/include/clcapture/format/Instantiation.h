//===- Instantiation.h - GPUVerify's kernel instantiation, typed -*- C++ -*-===//
//
// One record of captures.json, with every field of GPUVerify's JSON format
// (GPUVerify's JSON kernel-instantiation format, docs/contract.md §3). Optional fields are std::optional so
// that "absent" (unconstrained during verification) stays distinct from any value.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace clcapture::format {

enum class Endianness { Little, Big };
/// Private is a report's word only (a finding in a private array): no capture names it, and
/// parseAddressSpace does not read it.
enum class AddressSpace { Global, Local, Constant, Private };

const char *toString(Endianness e);
const char *toString(AddressSpace a);
std::optional<Endianness> parseEndianness(const std::string &s);
std::optional<AddressSpace> parseAddressSpace(const std::string &s);

/// NDRange sizes, one entry per dimension (1 to 3).
using Dims = std::vector<std::uint64_t>;

/// `{"type": "scalar", "value": "0x…"}`: the argument's bytes read as one integer in the device's byte order.
struct ScalarArgument {
  std::optional<std::string> value;
};

/// `{"type": "array", …}`: a buffer argument. `data` names a file relative to the JSON file.
struct ArrayArgument {
  std::optional<std::uint64_t> size; ///< bytes
  std::optional<AddressSpace> addressSpace;
  std::optional<std::vector<std::string>> flags; ///< CL_MEM_* names
  std::optional<std::string> data;
};

struct ImageArgument {};
struct SamplerArgument {};

using KernelArgument = std::variant<ScalarArgument, ArrayArgument, ImageArgument, SamplerArgument>;

struct HostApiCall {
  std::string functionName;
  std::string compilationUnit;
  std::uint64_t lineNumber = 0;
};

struct Instantiation {
  std::string language = "OpenCL";
  std::optional<Endianness> endianness;
  std::string kernelFile;
  std::optional<Dims> localSize; ///< absent: NULL local size (any legal work-group size)
  Dims globalSize;
  std::optional<Dims>
      globalOffset; ///< absent: zero in every dimension (in captures.json, only > 0: GpuVerifyForm.h)
  std::optional<std::string> compilerFlags;
  std::string entryPoint;
  std::optional<std::vector<KernelArgument>> kernelArguments; ///< absent: arguments unconstrained
  std::optional<std::vector<HostApiCall>> hostApiCalls;
};

bool operator==(const ScalarArgument &a, const ScalarArgument &b);
bool operator==(const ArrayArgument &a, const ArrayArgument &b);
bool operator==(const ImageArgument &, const ImageArgument &);
bool operator==(const SamplerArgument &, const SamplerArgument &);
bool operator==(const HostApiCall &a, const HostApiCall &b);
bool operator==(const Instantiation &a, const Instantiation &b);
inline bool operator!=(const Instantiation &a, const Instantiation &b) {
  return !(a == b);
}

} // namespace clcapture::format
