//===- OpenClTypes.cpp - OpenCL C type names, their sizes and element types -===//

#include "clcapture/export/OpenClTypes.h"

#include <array>
#include <cctype>
#include <set>
#include <vector>

namespace clcapture::exporter {

namespace {

struct Builtin {
  const char *name;
  const char *element;
  ElementClass elementClass;
  std::size_t size;
};

// OpenCL 1.2 §6.1.1 (half: §6.1.1.1, stored as its 16 raw bits).
constexpr std::array<Builtin, 11> kBuiltins{{
    {"char", "char", ElementClass::Signed, 1},
    {"uchar", "uchar", ElementClass::Unsigned, 1},
    {"short", "short", ElementClass::Signed, 2},
    {"ushort", "ushort", ElementClass::Unsigned, 2},
    {"int", "int", ElementClass::Signed, 4},
    {"uint", "uint", ElementClass::Unsigned, 4},
    {"long", "long", ElementClass::Signed, 8},
    {"ulong", "ulong", ElementClass::Unsigned, 8},
    {"float", "float", ElementClass::Float, 4},
    {"double", "double", ElementClass::Float, 8},
    {"half", "ushort", ElementClass::Half, 2},
}};

const Builtin *builtin(std::string_view name) {
  for (const Builtin &b : kBuiltins)
    if (name == b.name)
      return &b;
  return nullptr;
}

std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  std::string word;
  auto flush = [&] {
    if (!word.empty())
      out.push_back(word);
    word.clear();
  };
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      flush();
    } else if (c == '*') {
      flush();
      out.emplace_back("*");
    } else {
      word += c;
    }
  }
  flush();
  return out;
}

const std::set<std::string> &droppedQualifiers() {
  static const std::set<std::string> q{
      "const",      "volatile",     "restrict",   "__restrict",   "global",    "__global",     "local",
      "__local",    "constant",     "__constant", "private",      "__private", "read_only",    "__read_only",
      "write_only", "__write_only", "read_write", "__read_write", "signed",    "__kernel_exec"};
  return q;
}

} // namespace

std::string ClType::specName() const {
  if (name.rfind("atomic_", 0) == 0 || name == "size_t" || name == "ptrdiff_t" || name == "intptr_t" ||
      name == "uintptr_t")
    return element;
  return name;
}

std::string normalizeTypeName(std::string_view spelled) {
  std::vector<std::string> kept;
  bool isUnsigned = false;
  std::size_t pointers = 0;
  for (const std::string &w : words(spelled)) {
    if (w == "*")
      ++pointers;
    else if (w == "unsigned")
      isUnsigned = true;
    else if (!droppedQualifiers().count(w))
      kept.push_back(w);
  }
  // "long int", "short int", "long long" (not OpenCL, but spelled by some hosts' type names).
  if (kept.size() == 2 && kept[1] == "int" && (kept[0] == "long" || kept[0] == "short" || kept[0] == "char"))
    kept.pop_back();
  std::string base;
  for (std::size_t i = 0; i < kept.size(); ++i)
    base += (i ? " " : "") + kept[i];
  if (isUnsigned) {
    if (base.empty() || base == "int")
      base = "uint";
    else if (base == "char" || base == "short" || base == "long")
      base = "u" + base;
    else
      base = "unsigned " + base;
  }
  return base + std::string(pointers, '*');
}

std::optional<std::string> pointeeOf(const std::string &typeName) {
  std::string t = normalizeTypeName(typeName);
  if (t.empty() || t.back() != '*')
    return std::nullopt;
  t.pop_back();
  return t;
}

std::optional<ClType> lookupClType(std::string_view spelled, std::uint32_t addressBits) {
  std::string name = normalizeTypeName(spelled);
  if (name.empty() || name.back() == '*')
    return std::nullopt;
  std::string base = name;
  if (base.rfind("atomic_", 0) == 0)
    base = base.substr(7);
  // size_t and friends (OpenCL 1.2 §6.1.1): as wide as the device's pointers.
  bool wide = addressBits != 32;
  if (base == "size_t" || base == "uintptr_t")
    base = wide ? "ulong" : "uint";
  else if (base == "ptrdiff_t" || base == "intptr_t")
    base = wide ? "long" : "int";
  unsigned lanes = 1;
  std::size_t digits = base.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(base[digits - 1])))
    --digits;
  if (digits < base.size()) {
    std::string count = base.substr(digits);
    if (count != "2" && count != "3" && count != "4" && count != "8" && count != "16")
      return std::nullopt;
    if (name.rfind("atomic_", 0) == 0)
      return std::nullopt; // no atomic vectors
    lanes = static_cast<unsigned>(std::stoul(count));
    base = base.substr(0, digits);
  }
  const Builtin *b = builtin(base);
  if (!b)
    return std::nullopt;
  return ClType{name, b->element, b->elementClass, b->size, lanes};
}

} // namespace clcapture::exporter
