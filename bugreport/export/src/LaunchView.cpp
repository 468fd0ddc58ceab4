//===- LaunchView.cpp - One instantiation, argument by argument, for the exports -===//

#include "clcapture/export/LaunchView.h"

#include "clcapture/format/CaptureBlobs.h"
#include "clcapture/format/MemFlags.h"

#include <fstream>
#include <sstream>
#include <variant>

namespace clcapture::exporter {

namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kReadOnly = 1u << 2;  // CL_MEM_READ_ONLY (cl.h)
constexpr std::uint64_t kWriteOnly = 1u << 1; // CL_MEM_WRITE_ONLY

std::optional<std::uint64_t> flagBits(const format::ArrayArgument &a, const format::ArgumentFacts *facts) {
  if (a.flags) {
    std::uint64_t bits = 0;
    for (const std::string &name : *a.flags)
      bits |= format::memFlagBit(name).value_or(0);
    return bits;
  }
  if (facts && facts->memFlags)
    return facts->memFlags;
  return std::nullopt;
}

/// The classification rule (bugreport/README.md, export/), first match wins.
void classify(ArgumentView &v) {
  const format::ArrayArgument *a = v.array();
  if (a && a->addressSpace == format::AddressSpace::Constant) {
    v.use = BufferUse::Input;
    v.useReason = "__constant memory";
  } else if (v.parameter && v.parameter->pointeeConst) {
    v.use = BufferUse::Input;
    v.useReason = "const-qualified pointee";
  } else if (v.flags && (*v.flags & kReadOnly)) {
    v.use = BufferUse::Input;
    v.useReason = "CL_MEM_READ_ONLY";
  } else if (v.flags && (*v.flags & kWriteOnly)) {
    v.use = BufferUse::Output;
    v.useReason = "CL_MEM_WRITE_ONLY";
  } else if (v.parameter && v.parameter->writtenOnly) {
    v.use = BufferUse::Output;
    v.useReason = "only stored to in the kernel";
  } else {
    v.use = BufferUse::InOut;
    v.useReason = "read-write";
  }
}

} // namespace

const format::ScalarArgument *ArgumentView::scalar() const {
  return argument ? std::get_if<format::ScalarArgument>(argument) : nullptr;
}

const format::ArrayArgument *ArgumentView::array() const {
  return argument ? std::get_if<format::ArrayArgument>(argument) : nullptr;
}

std::string ArgumentView::label() const {
  return "argument " + std::to_string(index) + (name ? " (" + *name + ")" : "");
}

format::Expected<std::string> readFileBytes(const fs::path &path) {
  // A capture's data/<hash>.bin may be a record of its packs (CaptureBlobs.h) rather than a file.
  std::error_code ec;
  if (!fs::exists(path, ec) && format::captureFileSize(path))
    return format::readCaptureFile(path);
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return format::fail(path.string() + ": cannot be read");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad())
    return format::fail(path.string() + ": read error");
  return bytes.str();
}

format::Expected<LaunchView> viewLaunch(const fs::path &folder, const format::Instantiation &inst,
                                        const format::LaunchFacts *facts) {
  LaunchView view;
  view.instantiation = &inst;
  view.facts = facts;
  view.kernelPath = folder / inst.kernelFile;
  auto source = readFileBytes(view.kernelPath);
  if (!source)
    return format::fail("the kernel source " + source.error());
  view.source = std::move(*source);
  view.signature = parseKernelSignature(view.source, inst.entryPoint);
  if (facts) {
    view.addressBits = facts->device.addressBits;
    view.endianness = facts->device.endianness;
  }
  if (inst.endianness)
    view.endianness = *inst.endianness;
  if (!inst.kernelArguments)
    return view;

  const auto &args = *inst.kernelArguments;
  for (std::size_t i = 0; i < args.size(); ++i) {
    ArgumentView v;
    v.index = i;
    v.argument = &args[i];
    if (facts)
      for (const format::ArgumentFacts &f : facts->arguments)
        if (f.index == i)
          v.facts = &f;
    // The declaration speaks only when it has as many parameters as the launch has arguments (a parameter
    // list built by macros is not read).
    if (view.signature && view.signature->parameters.size() == args.size())
      v.parameter = &view.signature->parameters[i];
    if (v.facts && v.facts->name)
      v.name = v.facts->name;
    else if (v.parameter && !v.parameter->name.empty())
      v.name = v.parameter->name;

    if (std::holds_alternative<format::ScalarArgument>(args[i]))
      v.role = ArgumentRole::Scalar;
    else if (const auto *a = std::get_if<format::ArrayArgument>(&args[i]))
      v.role = a->addressSpace == format::AddressSpace::Local ? ArgumentRole::Local : ArgumentRole::Buffer;
    else if (std::holds_alternative<format::ImageArgument>(args[i]))
      v.role = ArgumentRole::Image;
    else
      v.role = ArgumentRole::Sampler;

    // The driver's CL_KERNEL_ARG_TYPE_NAME (macros expanded) first, then the declaration's.
    bool pointer = v.role == ArgumentRole::Buffer || v.role == ArgumentRole::Local;
    if (v.facts && v.facts->typeName) {
      if (pointer)
        v.declaredType = pointeeOf(*v.facts->typeName).value_or("");
      else
        v.declaredType = normalizeTypeName(*v.facts->typeName);
    }
    if (v.declaredType.empty() && v.parameter && (v.parameter->pointerDepth > 0) == pointer &&
        v.parameter->pointerDepth <= 1)
      v.declaredType = v.parameter->type;
    if (!v.declaredType.empty())
      v.type = lookupClType(v.declaredType, view.addressBits);

    if (const format::ArrayArgument *a = v.array()) {
      v.flags = flagBits(*a, v.facts);
      if (v.role == ArgumentRole::Buffer)
        classify(v);
    }
    view.arguments.push_back(std::move(v));
  }
  return view;
}

} // namespace clcapture::exporter
