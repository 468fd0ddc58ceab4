//===- LaunchPlan.cpp - What a captured launch needs on a device ----------===//

#include "clcapture/replay/LaunchPlan.h"

#include "clcapture/format/CaptureBlobs.h"
#include "clcapture/format/MemFlags.h"
#include "clcapture/format/ScalarCodec.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <type_traits>
#include <utility>

namespace clcapture::replay {

namespace fs = std::filesystem;
namespace fmt = clcapture::format;

namespace {

// cl_mem_flags bits (OpenCL 1.2 §5.2.1), as common/'s MemFlags.h knows them.
constexpr std::uint64_t kReadWrite = 1u << 0;
constexpr std::uint64_t kWriteOnly = 1u << 1;
constexpr std::uint64_t kReadOnly = 1u << 2;
constexpr std::uint64_t kUseHostPtr = 1u << 3;
constexpr std::uint64_t kAllocHostPtr = 1u << 4;
constexpr std::uint64_t kAccessBits = kReadWrite | kWriteOnly | kReadOnly;

/// One global or constant memory argument, before arguments are grouped into memory objects.
struct Member {
  std::uint32_t arg = 0;
  std::string label; ///< "argument 2 (dst)"
  /// Arguments with one root live in one buffer: the parent's id for a sub-buffer, else the object's id;
  /// an argument without a sidecar id is a root of its own.
  std::pair<int, std::uint64_t> root;
  std::pair<int, std::uint64_t> object; ///< arguments with one object are the same cl_mem
  bool isSubBuffer = false;
  std::uint64_t origin = 0;
  std::uint64_t size = 0;
  std::uint64_t flags = 0;
  std::optional<std::string> data;
  std::optional<std::string> dataSkipped;
};

std::string labelOf(std::uint32_t index, const std::string &name) {
  return "argument " + std::to_string(index) + " (" + name + ")";
}

const fmt::ArgumentFacts *argumentFacts(const fmt::LaunchFacts *facts, std::size_t index) {
  if (!facts)
    return nullptr;
  for (const fmt::ArgumentFacts &af : facts->arguments)
    if (af.index == index)
      return &af;
  return nullptr;
}

/// Why an argument of this kind cannot be recreated from the capture, or nullopt when it can.
std::optional<std::string> unsupportedKind(fmt::ArgumentKind kind) {
  switch (kind) {
  case fmt::ArgumentKind::Svm:
    return std::string("an SVM pointer (clSetKernelArgSVMPointer); replay does not rebuild SVM allocations");
  case fmt::ArgumentKind::Image:
    return std::string("an image; the capture holds neither its format nor its contents");
  case fmt::ArgumentKind::Sampler:
    return std::string("a sampler; the capture does not record its addressing, filter and coordinate modes");
  case fmt::ArgumentKind::Pipe:
    return std::string("a pipe; the capture holds no packets");
  case fmt::ArgumentKind::Unknown:
    return std::string("a memory object clcapture did not see created; the capture has no size or bytes");
  default:
    return std::nullopt;
  }
}

std::uint64_t flagsOf(const fmt::ArrayArgument &array, const fmt::ArgumentFacts *af) {
  if (af && af->memFlags)
    return *af->memFlags;
  std::uint64_t flags = 0;
  if (array.flags)
    for (const std::string &name : *array.flags)
      if (auto bit = fmt::memFlagBit(name))
        flags |= *bit;
  return flags;
}

/// Kernel access flags only: host-pointer and host-access flags describe the application's memory, which a
/// replay does not have (its buffers start as a copy, CL_MEM_COPY_HOST_PTR, and are read back by the host).
std::uint64_t accessFlags(std::uint64_t flags) {
  std::uint64_t access = flags & kAccessBits;
  return access ? access : kReadWrite;
}

fmt::Expected<std::vector<std::uint8_t>> readBlob(const fs::path &folder, const std::string &relative,
                                                  std::uint64_t size, const std::string &label) {
  // A loose file or a record of the capture's packs (CaptureBlobs.h).
  auto blob = fmt::CaptureBlobs::of(folder).read(relative);
  if (!blob)
    return fmt::fail(label + ": cannot open " + relative);
  std::vector<std::uint8_t> bytes(blob->begin(), blob->end());
  if (bytes.size() != size)
    return fmt::fail(label + ": " + relative + " holds " + std::to_string(bytes.size()) +
                     " bytes, the argument " + std::to_string(size));
  return bytes;
}

/// A buffer without captured bytes may start zeroed only when the kernel cannot read what was there.
bool writtenOnly(const Member &m) {
  return (m.flags & kWriteOnly) != 0 ||
         (m.dataSkipped && m.dataSkipped->find("written by the kernel only") != std::string::npos);
}

/// Groups the memory arguments into cl_mem objects: one per distinct object, one parent buffer per set of
/// sub-buffers that share a parent (OpenCL 1.2 §5.2.1: overlapping sub-buffers alias), with the captured
/// bytes of each member copied into its range of the parent.
fmt::Status planMemory(LaunchPlan &plan, const std::vector<Member> &members, const fs::path &folder) {
  std::vector<std::pair<int, std::uint64_t>> roots;
  for (const Member &m : members)
    if (std::find(roots.begin(), roots.end(), m.root) == roots.end())
      roots.push_back(m.root);
  for (const auto &root : roots) {
    // The distinct objects of this root, in argument order, and the arguments of each.
    std::vector<const Member *> objects;
    std::map<std::pair<int, std::uint64_t>, std::vector<const Member *>> argsOf;
    for (const Member &m : members) {
      if (m.root != root)
        continue;
      auto &list = argsOf[m.object];
      if (list.empty())
        objects.push_back(&m);
      list.push_back(&m);
    }
    const Member *parentArg = nullptr; // the parent buffer itself passed as an argument
    for (const Member *o : objects)
      if (!o->isSubBuffer && objects.size() > 1)
        parentArg = o;
    std::uint64_t base = 0, end = 0;
    if (objects.size() > 1 && !parentArg) {
      // Only sub-buffers: the parent needs to hold their ranges only. Shifting them all by the lowest
      // origin keeps their distances (what decides the aliasing) and may satisfy the device's alignment.
      base = objects.front()->origin;
      for (const Member *o : objects)
        base = std::min(base, o->origin);
    }
    for (const Member *o : objects)
      end = std::max(end, (objects.size() > 1 ? o->origin - std::min(o->origin, base) : 0) + o->size);
    std::size_t top = plan.memory.size();
    MemorySpec spec;
    spec.size = end;
    spec.flags = objects.size() == 1 ? accessFlags(objects.front()->flags)
                 : parentArg         ? accessFlags(parentArg->flags)
                                     : kReadWrite;
    spec.initial.assign(end, 0);
    plan.memory.push_back(std::move(spec));
    // The parent's own bytes first, then each sub-buffer's over its range (captured at the same moment,
    // so where they overlap they agree).
    std::vector<const Member *> order(objects);
    std::stable_sort(order.begin(), order.end(),
                     [](const Member *a, const Member *b) { return !a->isSubBuffer && b->isSubBuffer; });
    for (const Member *o : order) {
      std::uint64_t offset = objects.size() > 1 ? o->origin - base : 0;
      if (o->data) {
        auto bytes = readBlob(folder, *o->data, o->size, o->label);
        if (!bytes)
          return fmt::fail(bytes.error());
        std::copy(bytes->begin(), bytes->end(),
                  plan.memory[top].initial.begin() + static_cast<std::ptrdiff_t>(offset));
      } else if (writtenOnly(*o)) {
        plan.notes.push_back(o->label + ": no bytes captured" +
                             (o->dataSkipped ? " (" + *o->dataSkipped + ")" : "") +
                             "; started zeroed, as the kernel only writes it");
      } else {
        return fmt::fail(o->label + ": the capture has no bytes for it (" +
                         (o->dataSkipped ? *o->dataSkipped : std::string("no data")) +
                         ") and the kernel may read them");
      }
      if ((o->flags & (kUseHostPtr | kAllocHostPtr)) != 0)
        plan.notes.push_back(o->label + ": the application's " +
                             ((o->flags & kUseHostPtr) ? "CL_MEM_USE_HOST_PTR" : "CL_MEM_ALLOC_HOST_PTR") +
                             " buffer replayed as a copy of its captured bytes (CL_MEM_COPY_HOST_PTR)");
      std::size_t index = top;
      if (objects.size() > 1 && o != parentArg) {
        MemorySpec sub;
        sub.size = o->size;
        sub.parent = top;
        sub.origin = offset;
        plan.memory.push_back(std::move(sub));
        index = plan.memory.size() - 1;
      }
      for (const Member *m : argsOf[o->object]) {
        ArgPlan &arg = plan.args[m->arg];
        arg.memory = index;
        arg.size = m->size;
      }
    }
  }
  return {};
}

std::string trim(std::string_view s) {
  std::size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos)
    return {};
  std::size_t e = s.find_last_not_of(" \t");
  return std::string(s.substr(b, e - b + 1));
}

} // namespace

std::string notReplayableReason(const fmt::LaunchFacts &facts) {
  if (facts.notCapturedReason)
    return *facts.notCapturedReason; // the layer's own words, e.g. "program built from IL"
  if (facts.programOrigin == fmt::ProgramOrigin::Il || facts.programOrigin == fmt::ProgramOrigin::Binary ||
      facts.programOrigin == fmt::ProgramOrigin::BuiltIn)
    return std::string("program built from ") + fmt::toString(facts.programOrigin) + ", without its source";
  return "no instantiation in captures.json";
}

fmt::Expected<LaunchPlan> planLaunch(const fmt::Instantiation &inst, const fmt::LaunchFacts *facts,
                                     std::size_t index, const fs::path &folder) {
  LaunchPlan plan;
  plan.index = index;
  plan.entryPoint = inst.entryPoint;
  if (facts) {
    plan.launch = facts->launch;
    if (facts->programOrigin == fmt::ProgramOrigin::Il ||
        facts->programOrigin == fmt::ProgramOrigin::Binary ||
        facts->programOrigin == fmt::ProgramOrigin::BuiltIn)
      return fmt::fail(notReplayableReason(*facts));
    plan.task = facts->enqueueFunction == "clEnqueueTask";
    plan.endianness = facts->device.endianness;
  }
  if (inst.endianness)
    plan.endianness = *inst.endianness;
  plan.kernelFile = folder / inst.kernelFile;
  plan.buildOptions = inst.compilerFlags.value_or("");
  plan.globalSize = inst.globalSize;
  plan.localSize = inst.localSize;
  plan.globalOffset = inst.globalOffset;
  if (!inst.kernelArguments)
    return fmt::fail("the capture has no argument values (kernel_arguments absent)");

  std::vector<Member> members;
  const auto &arguments = *inst.kernelArguments;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const fmt::ArgumentFacts *af = argumentFacts(facts, i);
    ArgPlan arg;
    arg.index = static_cast<std::uint32_t>(i);
    arg.name = af && af->name ? *af->name : "arg" + std::to_string(i);
    if (af) {
      arg.typeName = af->typeName;
      arg.addressQualifier = af->addressQualifier;
      arg.dataAfter = af->dataAfter;
      arg.dataAfterSkipped = af->dataAfterSkipped;
    }
    std::string label = labelOf(arg.index, arg.name);
    if (af)
      if (auto why = unsupportedKind(af->kind))
        return fmt::fail(label + ": " + *why);
    if (std::holds_alternative<fmt::ImageArgument>(arguments[i]))
      return fmt::fail(label + ": " + *unsupportedKind(fmt::ArgumentKind::Image));
    if (std::holds_alternative<fmt::SamplerArgument>(arguments[i]))
      return fmt::fail(label + ": " + *unsupportedKind(fmt::ArgumentKind::Sampler));
    if (const auto *scalar = std::get_if<fmt::ScalarArgument>(&arguments[i])) {
      if (!scalar->value)
        return fmt::fail(label + ": its value was not captured");
      arg.role = ArgRole::Scalar;
      arg.value = *scalar->value;
      plan.args.push_back(std::move(arg));
      continue;
    }
    const auto &array = std::get<fmt::ArrayArgument>(arguments[i]);
    if (!arg.addressQualifier && array.addressSpace)
      arg.addressQualifier = fmt::toString(*array.addressSpace);
    std::optional<std::uint64_t> size = array.size;
    if (!size && af && af->size)
      size = af->size;
    bool local = (af && af->kind == fmt::ArgumentKind::LocalMemory) ||
                 (!af && array.addressSpace == fmt::AddressSpace::Local);
    if (local) {
      if (!size || *size == 0)
        return fmt::fail(label + ": the size of this __local argument was not captured");
      arg.role = ArgRole::Local;
      arg.size = *size;
      plan.args.push_back(std::move(arg));
      continue;
    }
    if (af && af->kind == fmt::ArgumentKind::NullBuffer) {
      arg.role = ArgRole::Null;
      plan.notes.push_back(label + ": NULL, as captured");
      plan.args.push_back(std::move(arg));
      continue;
    }
    if (!size)
      return fmt::fail(label + ": the buffer's size was not captured");
    if (*size == 0)
      return fmt::fail(label + ": a buffer of 0 bytes, which OpenCL cannot create");
    Member m;
    m.arg = arg.index;
    m.label = label;
    m.size = *size;
    m.flags = flagsOf(array, af);
    m.data = array.data;
    if (af)
      m.dataSkipped = af->dataSkipped;
    if (af && af->subBuffer) {
      m.isSubBuffer = true;
      m.root = {0, af->subBuffer->parent};
      m.origin = af->subBuffer->origin;
    } else if (af && af->memObject) {
      m.root = {0, *af->memObject};
    } else {
      m.root = {1, i};
    }
    m.object = af && af->memObject ? std::pair<int, std::uint64_t>{0, *af->memObject}
                                   : std::pair<int, std::uint64_t>{1, i};
    arg.role = ArgRole::Memory;
    plan.args.push_back(std::move(arg));
    members.push_back(std::move(m));
  }
  if (!facts && members.size() > 1)
    plan.notes.push_back(
        "no sidecar: every buffer argument replayed as a memory object of its own (no aliasing)");
  if (auto planned = planMemory(plan, members, folder); !planned)
    return fmt::fail(planned.error());
  return plan;
}

std::optional<std::uint64_t> scalarTypeBytes(std::string_view typeName, std::uint32_t addressBits) {
  std::string name = trim(typeName);
  for (const char *qualifier : {"const ", "volatile ", "__private ", "private "})
    while (name.rfind(qualifier, 0) == 0)
      name = trim(std::string_view(name).substr(std::char_traits<char>::length(qualifier)));
  if (name.rfind("unsigned ", 0) == 0) {
    std::string rest = trim(std::string_view(name).substr(9));
    name = rest == "int"     ? "uint"
           : rest == "char"  ? "uchar"
           : rest == "short" ? "ushort"
           : rest == "long"  ? "ulong"
                             : "";
  } else if (name == "unsigned") {
    name = "uint";
  }
  std::size_t digits = name.size();
  while (digits > 0 && name[digits - 1] >= '0' && name[digits - 1] <= '9')
    --digits;
  std::string base = name.substr(0, digits);
  std::uint64_t lanes = 1;
  if (digits < name.size()) {
    lanes = std::stoull(name.substr(digits));
    if (lanes != 2 && lanes != 3 && lanes != 4 && lanes != 8 && lanes != 16)
      return std::nullopt;
    if (lanes == 3) // OpenCL 1.2 §6.1.5: a 3-component vector takes the size of a 4-component one
      lanes = 4;
  }
  static const std::map<std::string, std::uint64_t> kBytes = {
      {"char", 1}, {"uchar", 1}, {"bool", 1},  {"short", 2}, {"ushort", 2}, {"half", 2},
      {"int", 4},  {"uint", 4},  {"float", 4}, {"long", 8},  {"ulong", 8},  {"double", 8}};
  auto it = kBytes.find(base);
  if (it != kBytes.end())
    return it->second * lanes;
  if (lanes == 1 && (base == "size_t" || base == "ptrdiff_t" || base == "intptr_t" || base == "uintptr_t"))
    return addressBits / 8;
  return std::nullopt;
}

fmt::Expected<std::vector<std::uint8_t>> scalarBytes(const std::string &value,
                                                     const std::optional<std::string> &typeName,
                                                     std::uint32_t addressBits, fmt::Endianness order) {
  std::optional<std::uint64_t> size = typeName ? scalarTypeBytes(*typeName, addressBits) : std::nullopt;
  auto bytes = fmt::decodeScalar(value, size ? *size : fmt::scalarDigitBytes(value), order);
  if (!bytes)
    return fmt::fail("value " + value + (typeName ? " of type " + *typeName : std::string()) + ": " +
                     bytes.error());
  return bytes;
}

bool mayWrite(const ArgPlan &arg, const ArgQualifiers &driver) {
  if (arg.role != ArgRole::Memory)
    return false;
  std::optional<std::string> address =
      driver.addressQualifier ? driver.addressQualifier : arg.addressQualifier;
  if (address && *address != "global")
    return false; // constant memory is read-only (OpenCL 1.2 §6.5.3)
  return !driver.isConst.value_or(false);
}

} // namespace clcapture::replay
