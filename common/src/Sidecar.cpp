//===- Sidecar.cpp - captures.meta.json model ----------------------------===//

#include "clcapture/format/Sidecar.h"

#include <array>
#include <tuple>
#include <utility>

namespace clcapture::format {
namespace {

constexpr std::array<std::pair<ArgumentKind, const char *>, 9> kArgumentKinds{{
    {ArgumentKind::Scalar, "scalar"},
    {ArgumentKind::Buffer, "buffer"},
    {ArgumentKind::LocalMemory, "local"},
    {ArgumentKind::Image, "image"},
    {ArgumentKind::Sampler, "sampler"},
    {ArgumentKind::NullBuffer, "null-buffer"},
    {ArgumentKind::Svm, "svm"},
    {ArgumentKind::Pipe, "pipe"},
    {ArgumentKind::Unknown, "unknown"},
}};

constexpr std::array<std::pair<ProgramOrigin, const char *>, 6> kProgramOrigins{{
    {ProgramOrigin::Source, "source"},
    {ProgramOrigin::Il, "il"},
    {ProgramOrigin::Binary, "binary"},
    {ProgramOrigin::BuiltIn, "built-in"},
    {ProgramOrigin::Linked, "linked"},
    {ProgramOrigin::BinarySourceRecovered, "binary (source recovered)"},
}};

constexpr std::array<std::pair<SamplerAddressing, const char *>, 5> kSamplerAddressings{{
    {SamplerAddressing::None, "none"},
    {SamplerAddressing::ClampToEdge, "clamp-to-edge"},
    {SamplerAddressing::Clamp, "clamp"},
    {SamplerAddressing::Repeat, "repeat"},
    {SamplerAddressing::MirroredRepeat, "mirrored-repeat"},
}};

constexpr std::array<std::pair<SamplerFilter, const char *>, 2> kSamplerFilters{{
    {SamplerFilter::Nearest, "nearest"},
    {SamplerFilter::Linear, "linear"},
}};

template <typename Enum, std::size_t N>
const char *nameOf(const std::array<std::pair<Enum, const char *>, N> &table, Enum e) {
  for (const auto &[value, name] : table)
    if (value == e)
      return name;
  return "unknown";
}

template <typename Enum, std::size_t N>
std::optional<Enum> valueOf(const std::array<std::pair<Enum, const char *>, N> &table, const std::string &s) {
  for (const auto &[value, name] : table)
    if (s == name)
      return value;
  return std::nullopt;
}

} // namespace

const char *toString(ArgumentKind k) {
  return nameOf(kArgumentKinds, k);
}
std::optional<ArgumentKind> parseArgumentKind(const std::string &s) {
  return valueOf(kArgumentKinds, s);
}
const char *toString(ProgramOrigin o) {
  return nameOf(kProgramOrigins, o);
}
std::optional<ProgramOrigin> parseProgramOrigin(const std::string &s) {
  return valueOf(kProgramOrigins, s);
}

bool operator==(const DeviceFacts &a, const DeviceFacts &b) {
  return std::tie(a.name, a.vendor, a.version, a.driverVersion, a.addressBits, a.endianness,
                  a.nonUniformWorkGroups) == std::tie(b.name, b.vendor, b.version, b.driverVersion,
                                                      b.addressBits, b.endianness, b.nonUniformWorkGroups);
}

const char *toString(SamplerAddressing a) {
  return nameOf(kSamplerAddressings, a);
}

std::optional<SamplerAddressing> parseSamplerAddressing(const std::string &s) {
  return valueOf(kSamplerAddressings, s);
}

const char *toString(SamplerFilter f) {
  return nameOf(kSamplerFilters, f);
}

std::optional<SamplerFilter> parseSamplerFilter(const std::string &s) {
  return valueOf(kSamplerFilters, s);
}

static bool sameSubBuffer(const std::optional<SubBufferFacts> &a, const std::optional<SubBufferFacts> &b) {
  if (a.has_value() != b.has_value())
    return false;
  return !a || (a->parent == b->parent && a->origin == b->origin);
}

static bool sameSvm(const std::optional<SvmFacts> &a, const std::optional<SvmFacts> &b) {
  if (a.has_value() != b.has_value())
    return false;
  return !a || (a->allocation == b->allocation && a->offset == b->offset);
}

static bool sameImage(const std::optional<ImageFacts> &a, const std::optional<ImageFacts> &b) {
  if (a.has_value() != b.has_value())
    return false;
  return !a || std::tie(a->type, a->width, a->height, a->depth, a->arraySize) ==
                   std::tie(b->type, b->width, b->height, b->depth, b->arraySize);
}

static bool sameSampler(const std::optional<SamplerFacts> &a, const std::optional<SamplerFacts> &b) {
  if (a.has_value() != b.has_value())
    return false;
  return !a || std::tie(a->normalizedCoords, a->addressing, a->filter) ==
                   std::tie(b->normalizedCoords, b->addressing, b->filter);
}

bool operator==(const ArgumentFacts &a, const ArgumentFacts &b) {
  return std::tie(a.index, a.kind, a.name, a.typeName, a.addressQualifier, a.memObject, a.memFlags,
                  a.dataSkipped, a.size, a.dataAfter, a.dataAfterSkipped) ==
             std::tie(b.index, b.kind, b.name, b.typeName, b.addressQualifier, b.memObject, b.memFlags,
                      b.dataSkipped, b.size, b.dataAfter, b.dataAfterSkipped) &&
         sameSubBuffer(a.subBuffer, b.subBuffer) && sameSvm(a.svm, b.svm) && sameImage(a.image, b.image) &&
         sameSampler(a.sampler, b.sampler);
}

bool operator==(const HostCallFacts &a, const HostCallFacts &b) {
  return std::tie(a.functionName, a.argument, a.module, a.moduleOffset, a.caller, a.compilationUnit,
                  a.lineNumber) == std::tie(b.functionName, b.argument, b.module, b.moduleOffset, b.caller,
                                            b.compilationUnit, b.lineNumber);
}

bool operator==(const LaunchFacts &a, const LaunchFacts &b) {
  return std::tie(a.launch, a.instantiation, a.notCapturedReason, a.enqueueFunction, a.kernelName, a.thread,
                  a.queue, a.program, a.programOrigin, a.buildOptions, a.device, a.arguments, a.aliases,
                  a.hostCalls, a.globalOffset, a.localSize) ==
         std::tie(b.launch, b.instantiation, b.notCapturedReason, b.enqueueFunction, b.kernelName, b.thread,
                  b.queue, b.program, b.programOrigin, b.buildOptions, b.device, b.arguments, b.aliases,
                  b.hostCalls, b.globalOffset, b.localSize);
}

bool operator==(const SidecarHeader &a, const SidecarHeader &b) {
  return std::tie(a.formatVersion, a.clcaptureVersion, a.process.executable, a.process.pid,
                  a.process.parentPid, a.process.startedAt, a.process.commandLine, a.process.loader,
                  a.process.frontEnd) == std::tie(b.formatVersion, b.clcaptureVersion, b.process.executable,
                                                  b.process.pid, b.process.parentPid, b.process.startedAt,
                                                  b.process.commandLine, b.process.loader,
                                                  b.process.frontEnd);
}

} // namespace clcapture::format
