//===- GpuVerifyForm.cpp - What captures.json may say so GPUVerify loads it -===//
//
// Each rule below names the check of GPUVerify's loader (GPUVerifyScript/json_loader.py) it keeps.
//
//===----------------------------------------------------------------------===//

#include "clcapture/format/GpuVerifyForm.h"

#include "clcapture/format/ScalarCodec.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <limits>
#include <variant>

namespace clcapture::format {

namespace {

constexpr std::uint64_t kMaxU64 = std::numeric_limits<std::uint64_t>::max();

bool allZero(const Dims &d) {
  return std::all_of(d.begin(), d.end(), [](std::uint64_t v) { return v == 0; });
}

bool allGpuVerifyPositive(const Dims &d) {
  return std::all_of(d.begin(), d.end(), isGpuVerifyPositive);
}

std::string show(const Dims &d) {
  std::string s = "[";
  for (std::size_t i = 0; i < d.size(); ++i)
    s += (i ? ", " : "") + std::to_string(d[i]);
  return s + "]";
}

/// The loader reads `local_size` only when every component divides the global size (util.get_num_groups),
/// and each is a number > 0 (__check_array_of_positive_numbers). A local size of another dimension count
/// or with a 0 is wrong for every reader, so it is not this rule's to drop.
bool isNonUniformLocalSize(const Dims &local, const Dims &global) {
  if (local.size() != global.size() || std::find(local.begin(), local.end(), std::uint64_t{0}) != local.end())
    return false;
  for (std::size_t i = 0; i < local.size(); ++i)
    if (global[i] % local[i] != 0 || !isGpuVerifyPositive(local[i]))
      return true;
  return false;
}

/// The whitespace Python's str.split() splits ASCII text on.
bool isSplitSpace(char c) {
  return c == ' ' || (c >= '\t' && c <= '\r') || (c >= '\x1c' && c <= '\x1f');
}

/// The loader splits compiler_flags on whitespace and reads `-D X`, `-DX`, `-I X`, `-IX`; a `-D` or `-I`
/// that is the last word has no argument and rejects the file (__extract_defines_and_includes). Returns
/// the flags without that last word (and the space before it); other flags unchanged.
std::string withoutDanglingOption(const std::string &flags) {
  std::vector<std::pair<std::size_t, std::size_t>> words; // [begin, end)
  for (std::size_t i = 0; i < flags.size();) {
    while (i < flags.size() && isSplitSpace(flags[i]))
      ++i;
    std::size_t begin = i;
    while (i < flags.size() && !isSplitSpace(flags[i]))
      ++i;
    if (i > begin)
      words.emplace_back(begin, i);
  }
  for (std::size_t w = 0; w < words.size(); ++w) {
    std::string_view word(flags.data() + words[w].first, words[w].second - words[w].first);
    if (word != "-D" && word != "-I")
      continue;
    if (w + 1 < words.size()) {
      ++w; // its argument
      continue;
    }
    std::size_t end = words[w].first;
    while (end > 0 && isSplitSpace(flags[end - 1]))
      --end;
    return flags.substr(0, end);
  }
  return flags;
}

/// `0x` and upper-case digits (docs/contract.md §3); the loader wants the lower-case prefix
/// (util.is_hex_string).
std::string canonicalHex(const std::string &value) {
  std::string out = "0x";
  out.reserve(value.size());
  for (std::size_t i = 2; i < value.size(); ++i)
    out += static_cast<char>(std::toupper(static_cast<unsigned char>(value[i])));
  return out;
}

bool keptByLoader(const HostApiCall &call) {
  // __check_host_api_call: both strings present, line_number a number > 0. Empty names say nothing.
  return !call.functionName.empty() && !call.compilationUnit.empty() && isGpuVerifyPositive(call.lineNumber);
}

const ArrayArgument *arrayAt(const Instantiation &inst, std::size_t i) {
  if (!inst.kernelArguments || i >= inst.kernelArguments->size())
    return nullptr;
  return std::get_if<ArrayArgument>(&(*inst.kernelArguments)[i]);
}

} // namespace

Instantiation gpuverifyForm(const Instantiation &exact) {
  Instantiation form = exact;
  // __check_array_of_positive_numbers("global_offset"): every component > 0. All zeros (the same as no
  // offset) is dropped whatever its dimension count, as before.
  if (form.globalOffset &&
      (allZero(*form.globalOffset) ||
       (form.globalOffset->size() == form.globalSize.size() && !allGpuVerifyPositive(*form.globalOffset))))
    form.globalOffset.reset();
  if (form.localSize && isNonUniformLocalSize(*form.localSize, form.globalSize))
    form.localSize.reset();
  if (form.compilerFlags)
    form.compilerFlags = withoutDanglingOption(*form.compilerFlags);
  if (form.kernelArguments) {
    for (KernelArgument &arg : *form.kernelArguments) {
      if (auto *scalar = std::get_if<ScalarArgument>(&arg)) {
        if (scalar->value && isHexValue(*scalar->value))
          scalar->value = canonicalHex(*scalar->value);
      } else if (auto *array = std::get_if<ArrayArgument>(&arg)) {
        // __check_array_argument: size a number > 0.
        if (array->size && !isGpuVerifyPositive(*array->size))
          array->size.reset();
      }
    }
  }
  if (form.hostApiCalls && !form.hostApiCalls->empty()) {
    std::vector<HostApiCall> kept;
    std::copy_if(form.hostApiCalls->begin(), form.hostApiCalls->end(), std::back_inserter(kept),
                 keptByLoader);
    // The sidecar's host_calls list every call, also these.
    if (kept.empty())
      form.hostApiCalls.reset();
    else
      form.hostApiCalls = std::move(kept);
  }
  return form;
}

std::optional<std::string> gpuverifyFormProblem(const Instantiation &exact) {
  for (std::size_t i = 0; i < exact.globalSize.size(); ++i)
    if (exact.globalSize[i] > kGpuVerifyMaxNumber)
      return "global_size[" + std::to_string(i) + "] is " + std::to_string(exact.globalSize[i]) +
             ", more than GPUVerify's loader reads (" + std::to_string(kGpuVerifyMaxNumber) + ")";
  return std::nullopt;
}

void keepExactFacts(const Instantiation &exact, const Instantiation &form, LaunchFacts &facts) {
  facts.globalOffset = exact.globalOffset;
  facts.localSize = exact.localSize && !form.localSize ? exact.localSize : std::nullopt;
  for (ArgumentFacts &a : facts.arguments)
    a.size.reset();
  if (!exact.kernelArguments)
    return;
  for (std::size_t i = 0; i < exact.kernelArguments->size(); ++i) {
    const ArrayArgument *had = arrayAt(exact, i);
    const ArrayArgument *wrote = arrayAt(form, i);
    if (!had || !had->size || (wrote && wrote->size))
      continue;
    while (facts.arguments.size() <= i) {
      ArgumentFacts unknown;
      unknown.index = static_cast<std::uint32_t>(facts.arguments.size());
      facts.arguments.push_back(unknown);
    }
    facts.arguments[i].size = had->size;
  }
}

void keepExactFacts(const Instantiation &exact, LaunchFacts &facts) {
  keepExactFacts(exact, gpuverifyForm(exact), facts);
}

std::vector<ExactFactProblem> restoreExactFacts(Instantiation &inst, const LaunchFacts &facts) {
  std::vector<ExactFactProblem> problems;
  const Dims &global = inst.globalSize;
  auto sameDimensions = [&](const Dims &d, const char *key) {
    if (d.size() == global.size())
      return true;
    problems.push_back({key, "has " + std::to_string(d.size()) +
                                 " dimensions but captures.json's global_size has " +
                                 std::to_string(global.size())});
    return false;
  };
  auto agrees = [&](const std::optional<Dims> &written, const Dims &exact, const char *key) {
    if (!written || *written == exact)
      return true;
    problems.push_back({key, "is " + show(exact) + " but captures.json's " + key + " is " + show(*written)});
    return false;
  };
  if (facts.globalOffset && sameDimensions(*facts.globalOffset, "global_offset") &&
      agrees(inst.globalOffset, *facts.globalOffset, "global_offset")) {
    const Dims &offset = *facts.globalOffset;
    bool fits = true;
    for (std::size_t i = 0; i < offset.size(); ++i)
      if (offset[i] > kMaxU64 - global[i]) {
        problems.push_back({"global_offset[" + std::to_string(i) + "]",
                            "offset " + std::to_string(offset[i]) + " plus global size " +
                                std::to_string(global[i]) + " overflows 64 bits"});
        fits = false;
      }
    if (fits)
      inst.globalOffset = offset;
  }
  if (facts.localSize && sameDimensions(*facts.localSize, "local_size") &&
      agrees(inst.localSize, *facts.localSize, "local_size"))
    inst.localSize = facts.localSize;
  for (std::size_t k = 0; k < facts.arguments.size(); ++k) {
    const ArgumentFacts &a = facts.arguments[k];
    if (!a.size)
      continue;
    std::string key = "arguments[" + std::to_string(k) + "].size";
    ArrayArgument *array = nullptr;
    if (inst.kernelArguments && a.index < inst.kernelArguments->size())
      array = std::get_if<ArrayArgument>(&(*inst.kernelArguments)[a.index]);
    if (!array) {
      problems.push_back({key, "argument " + std::to_string(a.index) + " is not an array in captures.json"});
    } else if (array->size && *array->size != *a.size) {
      problems.push_back({key, "is " + std::to_string(*a.size) + " but captures.json's size of argument " +
                                   std::to_string(a.index) + " is " + std::to_string(*array->size)});
    } else {
      array->size = a.size;
    }
  }
  // A repeat's host_api_calls are left out of captures.json (SidecarRepeats.h): the sidecar's calls with a
  // file and line are them, as GPUVerify's loader keeps them.
  if (!inst.hostApiCalls) {
    std::vector<HostApiCall> calls;
    for (const HostCallFacts &c : facts.hostCalls)
      if (c.compilationUnit && c.lineNumber) {
        HostApiCall call{c.functionName, *c.compilationUnit, *c.lineNumber};
        if (keptByLoader(call))
          calls.push_back(std::move(call));
      }
    if (!calls.empty())
      inst.hostApiCalls = std::move(calls);
  }
  return problems;
}

} // namespace clcapture::format
