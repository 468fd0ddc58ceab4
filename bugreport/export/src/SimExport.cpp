//===- SimExport.cpp - One instantiation as an Oclgrind simulator file ----===//
//
// The rules are those of tests/kernels/oclgrind_crosscheck.py (which writes .sim files from corpus
// headers), for a capture: sizes padded to three dimensions with 1, scalars as typed values, local memory
// as a size, buffers as their captured values. Each refusal below names what the .sim format lacks.
//
//===----------------------------------------------------------------------===//

#include "clcapture/export/SimExport.h"

#include "clcapture/export/ElementBytes.h"
#include "clcapture/format/MemFlags.h"
#include "clcapture/format/ScalarCodec.h"

#include <algorithm>
#include <cstdio>
#include <variant>

namespace clcapture::exporter {

namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kReadOnly = 1u << 2;  // CL_MEM_READ_ONLY
constexpr std::uint64_t kWriteOnly = 1u << 1; // CL_MEM_WRITE_ONLY
constexpr std::size_t kValuesPerLine = 16;

std::string dims3(const format::Dims &d) {
  std::string s;
  for (std::size_t i = 0; i < 3; ++i)
    s += (i ? " " : "") + std::to_string(i < d.size() ? d[i] : 1);
  return s;
}

std::string showDims(const format::Dims &d) {
  std::string s = "[";
  for (std::size_t i = 0; i < d.size(); ++i)
    s += (i ? ", " : "") + std::to_string(d[i]);
  return s + "]";
}

ClType uchar() {
  return *lookupClType("uchar");
}

/// Appends `header` (completed with the element type and `hex`, then `tail` and '>') and the values of
/// `bytes` (little-endian), on the header's line when `sameLine`, kValuesPerLine to a line: in `preferred`'s
/// elements when they divide the bytes and each reads back exactly; else, for floats, the raw words of the
/// same width in hex (a NaN keeps its bits); else bytes. Writes straight into `out`, as a buffer may be
/// large.
void appendArgument(std::string &out, const std::string &header, const std::string &tail, bool sameLine,
                    const std::string &bytes, const std::optional<ClType> &preferred) {
  const auto *p = reinterpret_cast<const unsigned char *>(bytes.data());
  std::size_t start = out.size();
  auto attempt = [&](const ClType &element, bool hex) {
    std::size_t size = element.elementSize;
    if (size == 0 || bytes.size() % size != 0)
      return false;
    out += header + element.element + (hex ? " hex" : "") + tail + ">";
    out += sameLine ? ' ' : '\n';
    out.reserve(out.size() + bytes.size() / size * (hex ? 11 : 8));
    std::size_t count = bytes.size() / size;
    for (std::size_t i = 0; i < count; ++i) {
      std::uint64_t bits = loadUnsigned(p + i * size, size, format::Endianness::Little);
      if (hex) {
        char buffer[24];
        std::snprintf(buffer, sizeof buffer, "0x%llX", static_cast<unsigned long long>(bits));
        out += buffer;
      } else if (auto text = elementText(bits, element)) {
        out += *text;
      } else {
        out.resize(start);
        return false;
      }
      out += (i + 1) % kValuesPerLine == 0 || i + 1 == count ? '\n' : ' ';
    }
    return true;
  };
  if (preferred) {
    ClType element = *lookupClType(preferred->element);
    if (attempt(element, false))
      return;
    if (element.elementClass == ElementClass::Float &&
        attempt(*lookupClType(element.elementSize == 4 ? "uint" : "ulong"), true))
      return;
  }
  attempt(uchar(), false);
}

/// Why the launch as a whole cannot be a .sim, or nullopt.
std::optional<std::string> launchProblem(const LaunchView &view) {
  const format::Instantiation &inst = *view.instantiation;
  if (view.endianness == format::Endianness::Big)
    return std::string("the launch ran on a big-endian device; Oclgrind simulates a little-endian one");
  if (!inst.localSize)
    return std::string("no local size (the application passed NULL); a .sim needs a work-group size");
  if (inst.globalOffset && std::any_of(inst.globalOffset->begin(), inst.globalOffset->end(),
                                       [](std::uint64_t o) { return o != 0; }))
    return "global offset " + showDims(*inst.globalOffset) + "; oclgrind-kernel always runs with offset 0";
  for (std::size_t i = 0; i < inst.globalSize.size() && i < inst.localSize->size(); ++i)
    if ((*inst.localSize)[i] == 0 || inst.globalSize[i] % (*inst.localSize)[i] != 0)
      return "non-uniform work-groups (local size " + showDims(*inst.localSize) +
             " does not divide global size " + showDims(inst.globalSize) +
             "); a .sim runs whole work-groups only";
  if (!inst.kernelArguments)
    return std::string("the arguments were not captured");
  if (view.facts && !view.facts->aliases.empty()) {
    const auto &group = view.facts->aliases.front();
    std::string members;
    for (std::size_t k = 0; k < group.size(); ++k)
      members += (k == 0 ? "" : k + 1 == group.size() ? " and " : ", ") + std::to_string(group[k]);
    return "arguments " + members +
           " refer to the same memory (aliasing); a .sim gives every buffer argument its own memory";
  }
  return std::nullopt;
}

/// Why argument `v` cannot be written, or nullopt.
std::optional<std::string> argumentProblem(const ArgumentView &v) {
  if (v.role == ArgumentRole::Image)
    return v.label() + " is an image; a .sim has no images";
  if (v.role == ArgumentRole::Sampler)
    return v.label() + " is a sampler; a .sim has no samplers";
  if (v.facts && (v.facts->kind == format::ArgumentKind::Svm || v.facts->svm))
    return v.label() + " is an SVM pointer; a .sim has no shared virtual memory";
  if (v.facts && v.facts->kind == format::ArgumentKind::Pipe)
    return v.label() + " is a pipe; a .sim has no pipes";
  if (v.facts && v.facts->subBuffer)
    return v.label() + " is a sub-buffer (origin " + std::to_string(v.facts->subBuffer->origin) +
           " of memory object " + std::to_string(v.facts->subBuffer->parent) +
           "); a .sim gives every buffer argument memory of its own";
  return std::nullopt;
}

std::string typeComment(const ArgumentView &v) {
  std::string t = v.declaredType.empty() ? "?" : v.declaredType;
  switch (v.role) {
  case ArgumentRole::Scalar:
    return t;
  case ArgumentRole::Local:
    return "local " + t + "*";
  default: {
    const format::ArrayArgument *a = v.array();
    std::string space = a && a->addressSpace ? format::toString(*a->addressSpace) : "global";
    return space + " " + t + "*";
  }
  }
}

} // namespace

format::Expected<SimFile> simulationFile(const LaunchView &view, const fs::path &folder, std::size_t index,
                                         const std::string &kernelName) {
  if (auto problem = launchProblem(view))
    return format::fail(*problem);
  const format::Instantiation &inst = *view.instantiation;
  SimFile sim;
  std::string &out = sim.text;
  std::string simName = std::to_string(index) + "-" + inst.entryPoint + ".sim";
  out += "# clcapture export --sim: instantiation " + std::to_string(index) + " (kernel " + inst.entryPoint +
         (view.facts ? ", launch " + std::to_string(view.facts->launch) : std::string()) + ")\n";
  out += "# run in this folder: oclgrind-kernel " + simName + "\n";
  if (inst.compilerFlags && inst.compilerFlags->find_first_not_of(" \t\r\n") != std::string::npos) {
    // A .sim has no build options; oclgrind-kernel takes them on its command line.
    std::string flags = *inst.compilerFlags;
    std::replace(flags.begin(), flags.end(), '\n', ' ');
    out += "# the program was built with \"" + flags + "\": oclgrind-kernel --build-options '" + flags +
           "' " + simName + "\n";
    sim.notes.push_back("built with \"" + flags + "\": run oclgrind-kernel --build-options '" + flags + "' " +
                        simName);
  }
  out += kernelName + "\n" + inst.entryPoint + "\n" + dims3(inst.globalSize) + "\n" + dims3(*inst.localSize) +
         "\n";

  for (const ArgumentView &v : view.arguments) {
    if (auto problem = argumentProblem(v))
      return format::fail(*problem);
    if (const format::ScalarArgument *s = v.scalar()) {
      if (!s->value)
        return format::fail(v.label() + ": the scalar's value was not captured; a .sim needs every value");
      std::size_t size = v.type ? v.type->size() : format::scalarDigitBytes(*s->value);
      auto bytes = format::decodeScalar(*s->value, size, format::Endianness::Little);
      if (!bytes)
        return format::fail(v.label() + ": " + bytes.error());
      // A scalar's values follow its header on the same line.
      appendArgument(out,
                     "\n# " + v.label() + ": " + typeComment(v) + "\n<size=" + std::to_string(size) + " ", "",
                     true, std::string(bytes->begin(), bytes->end()), v.type);
      continue;
    }
    const format::ArrayArgument &a = *v.array();
    if (v.role == ArgumentRole::Local) {
      if (!a.size)
        return format::fail(v.label() + ": the size of the local memory was not captured");
      out += "\n# " + v.label() + ": " + typeComment(v) + ", " + std::to_string(*a.size) +
             " bytes\n<size=" + std::to_string(*a.size) + " uchar>\n";
      continue;
    }
    if (v.facts && v.facts->kind == format::ArgumentKind::NullBuffer) {
      out += "\n# " + v.label() + ": NULL\n<null>\n";
      continue;
    }
    if (!a.size)
      return format::fail(v.label() + ": the buffer's size was not captured; a .sim needs it");
    if (*a.size == 0)
      return format::fail(v.label() + ": a 0-byte buffer; oclgrind-kernel cannot allocate one");
    std::string flags;
    bool global = a.addressSpace != format::AddressSpace::Constant;
    if (global && v.flags && (*v.flags & kReadOnly))
      flags += " ro";
    else if (global && v.flags && (*v.flags & kWriteOnly))
      flags += " wo";
    std::string dump = v.use == BufferUse::Input ? "" : " dump";
    std::string comment =
        "\n# " + v.label() + ": " + typeComment(v) + ", " + std::to_string(*a.size) + " bytes";
    if (!a.data) {
      // The contents were not captured: Oclgrind leaves the buffer uninitialised (its --uninitialized
      // check then reports what reads it), where a fill would invent values.
      ClType element =
          v.type && *a.size % v.type->elementSize == 0 ? *lookupClType(v.type->element) : uchar();
      out += comment + ", contents not captured\n<size=" + std::to_string(*a.size) + " " + element.element +
             " noinit" + flags + dump + ">\n";
      continue;
    }
    auto bytes = readFileBytes(folder / *a.data);
    if (!bytes)
      return format::fail(v.label() + ": " + bytes.error());
    if (bytes->size() != *a.size)
      return format::fail(v.label() + ": " + *a.data + " has " + std::to_string(bytes->size()) +
                          " bytes, the buffer " + std::to_string(*a.size));
    appendArgument(out, comment + ", captured contents\n<size=" + std::to_string(*a.size) + " ", flags + dump,
                   false, *bytes, v.type);
  }
  return sim;
}

} // namespace clcapture::exporter
