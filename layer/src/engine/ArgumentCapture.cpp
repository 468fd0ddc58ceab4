//===- ArgumentCapture.cpp - A launch's arguments, as captures.json and the sidecar say them -===//

#include "engine/ArgumentCapture.h"

#include "clcapture/format/MemFlags.h"
#include "clcapture/format/ScalarCodec.h"

#include <cstring>

namespace clcapture::layer {

CapturedArguments captureArguments(const KernelInfo &kernel, HandleMirrors &mirrors, std::uint64_t queue,
                                   std::uint64_t thread, format::Endianness endianness, DataBudget &budget,
                                   const std::optional<std::string> &noNewBytes) {
  CapturedArguments out;
  const cl_uint numArgs = static_cast<cl_uint>(kernel.params->size());
  static const ArgValue kUnset;
  std::vector<MemoryRange> ranges;
  for (cl_uint i = 0; i < numArgs; ++i) {
    const ArgValue &value = i < kernel.args.size() ? kernel.args[i] : kUnset;
    const ParamInfo &param = (*kernel.params)[i];
    const std::string &type = param.type;
    const bool haveQualifier = param.haveQualifier;
    const cl_kernel_arg_address_qualifier qualifier = param.qualifier;
    format::ArgumentFacts af;
    af.index = i;
    if (!param.name.empty())
      af.name = param.name;
    if (!type.empty())
      af.typeName = type;
    cl_mem mem = nullptr;
    if (value.bytes.size() == sizeof(cl_mem))
      std::memcpy(&mem, value.bytes.data(), sizeof mem);
    auto memIt = mem ? mirrors.mems.find(mem) : mirrors.mems.end();
    // Without arg info: a NULL value with a size is a __local argument, a known cl_mem a buffer.
    bool isLocal =
        haveQualifier ? qualifier == CL_KERNEL_ARG_ADDRESS_LOCAL : (value.set && value.bytes.empty());
    bool isBuffer = haveQualifier ? (qualifier == CL_KERNEL_ARG_ADDRESS_GLOBAL ||
                                     qualifier == CL_KERNEL_ARG_ADDRESS_CONSTANT)
                                  : memIt != mirrors.mems.end();
    bool isImage = type.rfind("image", 0) == 0;
    if (value.svm) {
      // An SVM pointer (OpenCL 2.0 §5.9.2): the allocation it points into, from the pointer to its end.
      af.kind = format::ArgumentKind::Svm;
      af.addressQualifier =
          haveQualifier && qualifier == CL_KERNEL_ARG_ADDRESS_CONSTANT ? "constant" : "global";
      auto space =
          af.addressQualifier == "constant" ? format::AddressSpace::Constant : format::AddressSpace::Global;
      std::uint64_t offset = 0;
      const SvmInfo *svm = value.svmPointer ? mirrors.svmHolding(value.svmPointer, offset) : nullptr;
      if (!svm) {
        af.kind = value.svmPointer ? format::ArgumentKind::Svm : format::ArgumentKind::NullBuffer;
        af.dataSkipped = value.svmPointer ? "an SVM pointer clcapture did not see allocated (clSVMAlloc)"
                                          : "NULL SVM pointer";
        out.arguments.push_back(format::ArrayArgument{std::nullopt, space, std::nullopt, std::nullopt});
      } else {
        std::uint64_t size = svm->size - offset;
        af.svm = format::SvmFacts{svm->id, offset};
        af.memFlags = svm->flags;
        ranges.push_back(MemoryRange{true, svm->id, offset, svm->size, i});
        out.arguments.push_back(
            format::ArrayArgument{size, space, format::memFlagNames(svm->flags), std::nullopt});
        ReadPlan plan{ReadPlan::From::Svm, i, nullptr, value.svmPointer, static_cast<std::size_t>(size)};
        if (noNewBytes)
          af.dataSkipped = *noNewBytes;
        else if (auto skipped = budget.take(size))
          af.dataSkipped = *skipped;
        else
          out.reads.push_back(plan);
        if (space == format::AddressSpace::Global && !param.isConst && !(svm->flags & CL_MEM_READ_ONLY))
          out.written.push_back(plan);
      }
    } else if (isLocal) {
      af.kind = format::ArgumentKind::LocalMemory;
      af.addressQualifier = "local";
      out.arguments.push_back(
          format::ArrayArgument{value.size ? std::optional<std::uint64_t>(value.size) : std::nullopt,
                                format::AddressSpace::Local, std::nullopt, std::nullopt});
    } else if (isImage) {
      af.kind = format::ArgumentKind::Image;
      out.arguments.push_back(format::ImageArgument{});
    } else if (type == "sampler_t") {
      af.kind = format::ArgumentKind::Sampler;
      out.arguments.push_back(format::SamplerArgument{});
    } else if (isBuffer) {
      bool constant = haveQualifier && qualifier == CL_KERNEL_ARG_ADDRESS_CONSTANT;
      af.addressQualifier = constant ? "constant" : "global";
      auto space = constant ? format::AddressSpace::Constant : format::AddressSpace::Global;
      if (memIt == mirrors.mems.end()) {
        af.kind = mem ? format::ArgumentKind::Unknown : format::ArgumentKind::NullBuffer;
        out.arguments.push_back(format::ArrayArgument{std::nullopt, space, std::nullopt, std::nullopt});
      } else {
        MemInfo &m = memIt->second;
        af.kind = format::ArgumentKind::Buffer;
        af.memObject = m.id;
        af.memFlags = m.flags;
        if (m.parent) {
          af.subBuffer = format::SubBufferFacts{*m.parent, m.origin};
          ranges.push_back(MemoryRange{false, *m.parent, m.origin, m.origin + m.size, i});
        } else {
          ranges.push_back(MemoryRange{false, m.id, 0, m.size, i});
        }
        out.arguments.push_back(
            format::ArrayArgument{m.size, space, format::memFlagNames(m.flags), std::nullopt});
        // The host may not read a CL_MEM_HOST_NO_ACCESS buffer: the device copies it to a staging buffer.
        ReadPlan plan{(m.flags & CL_MEM_HOST_NO_ACCESS) ? ReadPlan::From::StagedBuffer
                                                        : ReadPlan::From::Buffer,
                      i, mem, nullptr, m.size};
        // Bytes an earlier completed read took, with no writer enqueued since (HandleMirrors::written), are
        // recorded again instead of read again.
        const SharedBlob *last = m.lastRead.get();
        bool unchanged = mirrors.reuseAllowed && m.reusable && last && m.lastReadWrites == *m.writes &&
                         !last->failed.load() &&
                         (last->done.load(std::memory_order_acquire) ||
                          (m.lastReadQueue == queue && m.lastReadThread == thread));
        if (unchanged) {
          if (auto refused = budget.refusal(m.size))
            af.dataSkipped = *refused;
          else
            out.reused.emplace_back(i, m.lastRead);
        } else if (noNewBytes) {
          af.dataSkipped = *noNewBytes;
        } else if (auto skipped = budget.take(m.size)) {
          af.dataSkipped = *skipped;
        } else {
          plan.blob = std::make_shared<SharedBlob>();
          out.reads.push_back(plan);
          if (m.reusable) {
            m.lastRead = plan.blob;
            m.lastReadWrites = *m.writes;
            m.lastReadQueue = queue;
            m.lastReadThread = thread;
          }
        }
        if (!constant && !param.isConst && !(m.flags & CL_MEM_READ_ONLY)) {
          plan.blob.reset(); // the bytes after the launch go elsewhere
          out.written.push_back(plan);
        }
      }
    } else {
      af.kind = format::ArgumentKind::Scalar;
      format::ScalarArgument scalar;
      if (value.set && !value.bytes.empty())
        scalar.value = format::encodeScalar(value.bytes, endianness);
      out.arguments.push_back(scalar);
    }
    out.facts.push_back(af);
  }
  out.aliases = aliasGroups(ranges);
  return out;
}

} // namespace clcapture::layer
