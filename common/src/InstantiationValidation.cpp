//===- InstantiationValidation.cpp - GPUVerify's format rules on one instantiation -===//
//
// The second of the reader's two passes per record (the first is reader/InstantiationConverter): the
// GPUVerify format's rules on the typed model. The writers run it too, so nothing they write can fail to
// load.
//
//===----------------------------------------------------------------------===//

#include "clcapture/format/InstantiationValidation.h"

#include "clcapture/format/MemFlags.h"
#include "clcapture/format/ScalarCodec.h"
#include "reader/DiagnosticText.h"
#include "reader/FileChecks.h"
#include "reader/Reporter.h"

#include <initializer_list>
#include <string>
#include <variant>
#include <vector>

namespace clcapture::format {

namespace fs = std::filesystem;

bool allowsNonUniformWorkGroups(const Instantiation &inst) {
  const std::string flags = inst.compilerFlags.value_or("");
  bool uniform = flags.find("-cl-uniform-work-group-size") != std::string::npos;
  bool cl2OrLater = false;
  for (const char *std : {"-cl-std=CL2", "-cl-std=CL3", "-cl-std=cl2", "-cl-std=cl3", "-cl-std=CLC++"})
    cl2OrLater = cl2OrLater || flags.find(std) != std::string::npos;
  return cl2OrLater && !uniform;
}

namespace reader {

namespace {

bool isIdentifier(std::string_view s) {
  if (s.empty())
    return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    bool digit = c >= '0' && c <= '9';
    if (!(alpha || (i > 0 && digit)))
      return false;
  }
  return true;
}

void validateDims(const Instantiation &inst, Reporter &r) {
  // (OpenCL 2.0 §5.8: a global size that is not a multiple of the local size gives a smaller last group,
  // unless the program was built with -cl-uniform-work-group-size; see allowsNonUniformWorkGroups.)
  const Dims &g = inst.globalSize;
  if (g.empty() || g.size() > 3) {
    r.error("global_size", "expected 1 to 3 dimensions, got " + std::to_string(g.size()));
    return;
  }
  std::uint64_t product = 1;
  for (std::size_t i = 0; i < g.size(); ++i) {
    if (g[i] == 0) {
      r.error(at("global_size", i), "expected an integer from 1 to " + std::to_string(kMaxU64) + ", got 0");
      return;
    }
    if (product > kMaxU64 / g[i]) {
      r.error("global_size", "the total number of work-items overflows 64 bits");
      return;
    }
    product *= g[i];
  }
  if (inst.localSize) {
    const Dims &l = *inst.localSize;
    if (l.size() != g.size()) {
      r.error("local_size", "has " + std::to_string(l.size()) + " dimensions but global_size has " +
                                std::to_string(g.size()));
    } else {
      for (std::size_t i = 0; i < l.size(); ++i) {
        if (l[i] == 0) {
          r.error(at("local_size", i),
                  "expected an integer from 1 to " + std::to_string(kMaxU64) + ", got 0");
        } else if (l[i] > g[i]) {
          r.error(at("local_size", i),
                  "local size " + std::to_string(l[i]) + " exceeds global size " + std::to_string(g[i]));
        } else if (g[i] % l[i] != 0 && !r.options().allowNonUniformWorkGroups &&
                   !allowsNonUniformWorkGroups(inst)) {
          r.error(at("local_size", i), "global_size[" + std::to_string(i) + "] (" + std::to_string(g[i]) +
                                           ") is not a multiple of local_size[" + std::to_string(i) + "] (" +
                                           std::to_string(l[i]) + ")");
        }
      }
    }
  }
  if (inst.globalOffset) {
    const Dims &o = *inst.globalOffset;
    if (o.size() != g.size()) {
      r.error("global_offset", "has " + std::to_string(o.size()) + " dimensions but global_size has " +
                                   std::to_string(g.size()));
    } else {
      for (std::size_t i = 0; i < o.size(); ++i)
        if (o[i] > kMaxU64 - g[i])
          r.error(at("global_offset", i), "offset " + std::to_string(o[i]) + " plus global size " +
                                              std::to_string(g[i]) + " overflows 64 bits");
    }
  }
}

void validateFlags(const std::vector<std::string> &flags, const std::string &path, Reporter &r) {
  std::uint64_t bits = 0;
  for (std::size_t i = 0; i < flags.size(); ++i) {
    auto bit = memFlagBit(flags[i]);
    if (!bit) {
      r.error(at(path, i), "unknown memory flag " + inQuotes(flags[i]) + " (expected a CL_MEM_* name)");
      continue;
    }
    if (bits & *bit)
      r.error(at(path, i), "flag " + inQuotes(flags[i]) + " is given twice");
    bits |= *bit;
  }
  // OpenCL 3.0 API §5.2.1: these groups are mutually exclusive.
  auto count = [&](std::initializer_list<const char *> names) {
    int n = 0;
    for (const char *name : names)
      if (bits & *memFlagBit(name))
        ++n;
    return n;
  };
  if (count({"CL_MEM_READ_WRITE", "CL_MEM_WRITE_ONLY", "CL_MEM_READ_ONLY"}) > 1)
    r.error(path, "CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY and CL_MEM_READ_ONLY are mutually exclusive");
  if (count({"CL_MEM_HOST_WRITE_ONLY", "CL_MEM_HOST_READ_ONLY", "CL_MEM_HOST_NO_ACCESS"}) > 1)
    r.error(path,
            "CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY and CL_MEM_HOST_NO_ACCESS are mutually exclusive");
  if (count({"CL_MEM_USE_HOST_PTR", "CL_MEM_ALLOC_HOST_PTR"}) > 1)
    r.error(path, "CL_MEM_USE_HOST_PTR and CL_MEM_ALLOC_HOST_PTR are mutually exclusive");
  if (count({"CL_MEM_USE_HOST_PTR", "CL_MEM_COPY_HOST_PTR"}) > 1)
    r.error(path, "CL_MEM_USE_HOST_PTR and CL_MEM_COPY_HOST_PTR are mutually exclusive");
}

void validateArgument(const KernelArgument &arg, const std::string &path, const fs::path *baseDir,
                      Reporter &r, FileChecks *checks) {
  if (const auto *s = std::get_if<ScalarArgument>(&arg)) {
    if (s->value && !isHexValue(*s->value))
      r.error(join(path, "value"), "expected a hex string starting with 0x, got " + inQuotes(*s->value));
    return;
  }
  const auto *a = std::get_if<ArrayArgument>(&arg);
  if (!a)
    return;
  if (a->size && *a->size == 0)
    r.error(join(path, "size"), "expected an integer from 1 to " + std::to_string(kMaxU64) + ", got 0");
  if (a->flags)
    validateFlags(*a->flags, join(path, "flags"), r);
  if (!a->data)
    return;
  if (a->addressSpace == AddressSpace::Local) {
    r.error(join(path, "data"), "a local array has no contents at launch; data must be absent");
    return;
  }
  validateFile(*a->data, join(path, "data"), baseDir, r, checks, a->size);
}

} // namespace

void validateInstantiation(const Instantiation &inst, std::size_t index, std::string_view displayName,
                           const ReadOptions &options, const fs::path *baseDir, DiagnosticList &out,
                           FileChecks *checks) {
  Reporter r(out, std::string(displayName), options);
  r.setInstantiation(index);
  if (inst.language != "OpenCL")
    r.error("language", "expected \"OpenCL\", got " + inQuotes(inst.language));
  validateFile(inst.kernelFile, "kernel_file", baseDir, r, checks);
  validateDims(inst, r);
  if (!isIdentifier(inst.entryPoint))
    r.error("entry_point", "expected a kernel name (an identifier), got " + inQuotes(inst.entryPoint));
  if (inst.kernelArguments)
    for (std::size_t i = 0; i < inst.kernelArguments->size(); ++i)
      validateArgument((*inst.kernelArguments)[i], at("kernel_arguments", i), baseDir, r, checks);
  if (inst.hostApiCalls) {
    for (std::size_t i = 0; i < inst.hostApiCalls->size(); ++i) {
      const HostApiCall &call = (*inst.hostApiCalls)[i];
      std::string path = at("host_api_calls", i);
      if (call.functionName.empty())
        r.error(join(path, "function_name"), "must not be empty");
      if (call.compilationUnit.empty())
        r.error(join(path, "compilation_unit"), "must not be empty");
      if (call.lineNumber == 0)
        r.error(join(path, "line_number"),
                "expected an integer from 1 to " + std::to_string(kMaxU64) + ", got 0");
    }
  }
}

} // namespace reader

void validateInstantiation(const Instantiation &inst, std::size_t index, std::string_view displayName,
                           const ReadOptions &options, const fs::path *baseDir, DiagnosticList &out) {
  reader::validateInstantiation(inst, index, displayName, options, baseDir, out, nullptr);
}

} // namespace clcapture::format
