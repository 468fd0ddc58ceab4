//===- Instantiation.cpp - GPUVerify's kernel instantiation, typed -------===//

#include "clcapture/format/Instantiation.h"

#include <tuple>

namespace clcapture::format {

const char *toString(Endianness e) {
  return e == Endianness::Little ? "little" : "big";
}

const char *toString(AddressSpace a) {
  switch (a) {
  case AddressSpace::Global:
    return "global";
  case AddressSpace::Local:
    return "local";
  case AddressSpace::Constant:
    return "constant";
  case AddressSpace::Private:
    return "private";
  }
  return "global";
}

std::optional<Endianness> parseEndianness(const std::string &s) {
  if (s == "little")
    return Endianness::Little;
  if (s == "big")
    return Endianness::Big;
  return std::nullopt;
}

std::optional<AddressSpace> parseAddressSpace(const std::string &s) {
  if (s == "global")
    return AddressSpace::Global;
  if (s == "local")
    return AddressSpace::Local;
  if (s == "constant")
    return AddressSpace::Constant;
  return std::nullopt;
}

bool operator==(const ScalarArgument &a, const ScalarArgument &b) {
  return a.value == b.value;
}
bool operator==(const ArrayArgument &a, const ArrayArgument &b) {
  return std::tie(a.size, a.addressSpace, a.flags, a.data) ==
         std::tie(b.size, b.addressSpace, b.flags, b.data);
}
bool operator==(const ImageArgument &, const ImageArgument &) {
  return true;
}
bool operator==(const SamplerArgument &, const SamplerArgument &) {
  return true;
}
bool operator==(const HostApiCall &a, const HostApiCall &b) {
  return std::tie(a.functionName, a.compilationUnit, a.lineNumber) ==
         std::tie(b.functionName, b.compilationUnit, b.lineNumber);
}
bool operator==(const Instantiation &a, const Instantiation &b) {
  return std::tie(a.language, a.endianness, a.kernelFile, a.localSize, a.globalSize, a.globalOffset,
                  a.compilerFlags, a.entryPoint, a.kernelArguments, a.hostApiCalls) ==
         std::tie(b.language, b.endianness, b.kernelFile, b.localSize, b.globalSize, b.globalOffset,
                  b.compilerFlags, b.entryPoint, b.kernelArguments, b.hostApiCalls);
}

} // namespace clcapture::format
