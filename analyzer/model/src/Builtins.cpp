//===- Builtins.cpp - OpenCL C built-in functions, as the model sees them -===//

#include "clcapture/model/Builtins.h"

#include "clcapture/frontend/DeclaredByProgram.h"

#include <cstring>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Function.h>
#include <map>

namespace clcapture::model {

std::string builtinBaseName(const std::string &mangled) {
  if (mangled.rfind("_Z", 0) != 0)
    return mangled;
  llvm::ItaniumPartialDemangler demangler;
  if (demangler.partialDemangle(mangled.c_str()))
    return mangled;
  std::size_t size = 0;
  char *base = demangler.getFunctionBaseName(nullptr, &size);
  if (!base)
    return mangled;
  std::string name(base);
  std::free(base);
  return name;
}

namespace {

bool startsWith(const std::string &s, const char *prefix) {
  return s.rfind(prefix, 0) == 0;
}

/// N of vloadN / vstoreN (the digits after the prefix); 0 when there are none.
unsigned widthAfter(const std::string &name, std::size_t at) {
  unsigned n = 0;
  for (; at < name.size() && name[at] >= '0' && name[at] <= '9'; ++at)
    n = n * 10 + static_cast<unsigned>(name[at] - '0');
  return n;
}

/// The size of the pointee of the first pointer parameter in an Itanium-mangled OpenCL C name
/// ("_Z21async_work_group_copyPU3AS3iPU3AS1Kij9ocl_event" → 4 for int); 0 when it cannot be read.
unsigned firstPointeeBytes(const std::string &mangled) {
  std::size_t at = mangled.find('P', 2);
  while (at != std::string::npos && at > 0 && mangled[at - 1] >= '0' && mangled[at - 1] <= '9')
    at = mangled.find('P', at + 1); // a 'P' inside the length-prefixed base name
  if (at == std::string::npos)
    return 0;
  ++at;
  for (;;) {
    if (mangled.compare(at, 2, "U3") == 0 && mangled.compare(at + 2, 2, "AS") == 0)
      at += 5; // U3AS<digit>
    else if (at < mangled.size() && (mangled[at] == 'K' || mangled[at] == 'V'))
      ++at;
    else
      break;
  }
  unsigned lanes = 1;
  if (mangled.compare(at, 2, "Dv") == 0) {
    at += 2;
    lanes = 0;
    while (at < mangled.size() && mangled[at] >= '0' && mangled[at] <= '9')
      lanes = lanes * 10 + static_cast<unsigned>(mangled[at++] - '0');
    if (at >= mangled.size() || mangled[at] != '_')
      return 0;
    ++at;
    if (lanes == 3)
      lanes = 4; // a 3-component vector occupies four
  }
  if (mangled.compare(at, 2, "Dh") == 0)
    return 2 * lanes;
  if (at >= mangled.size())
    return 0;
  switch (mangled[at]) {
  case 'c':
  case 'a':
  case 'h':
    return 1 * lanes;
  case 's':
  case 't':
    return 2 * lanes;
  case 'i':
  case 'j':
  case 'f':
    return 4 * lanes;
  case 'l':
  case 'm':
  case 'd':
    return 8 * lanes;
  default:
    return 0;
  }
}

} // namespace

Builtin classifyBuiltin(const llvm::Function &callee) {
  Builtin b;
  b.name = builtinBaseName(callee.getName().str());
  if (frontend::declaredByProgram(callee)) {
    b.name = callee.getName().str();
    b.declaredByProgram = true;
    return b; // Unsupported: a barrier or a write inside it is unknown
  }
  const std::string &n = b.name;
  static const std::map<std::string, BuiltinKind> kExact = {
      {"get_global_id", BuiltinKind::GlobalId},
      {"get_local_id", BuiltinKind::LocalId},
      {"get_group_id", BuiltinKind::GroupId},
      {"get_global_size", BuiltinKind::GlobalSize},
      {"get_local_size", BuiltinKind::LocalSize},
      {"get_enqueued_local_size", BuiltinKind::EnqueuedLocalSize},
      {"get_num_groups", BuiltinKind::NumGroups},
      {"get_global_offset", BuiltinKind::GlobalOffset},
      {"get_work_dim", BuiltinKind::WorkDim},
      {"get_global_linear_id", BuiltinKind::GlobalLinearId},
      {"get_local_linear_id", BuiltinKind::LocalLinearId},
      {"barrier", BuiltinKind::Barrier},
      {"work_group_barrier", BuiltinKind::Barrier},
      {"mem_fence", BuiltinKind::MemFence},
      {"read_mem_fence", BuiltinKind::MemFence},
      {"write_mem_fence", BuiltinKind::MemFence},
      {"atomic_work_item_fence", BuiltinKind::MemFence},
      {"printf", BuiltinKind::NoEffect},
      {"prefetch", BuiltinKind::NoEffect},
  };
  if (auto it = kExact.find(n); it != kExact.end()) {
    b.kind = it->second;
    return b;
  }
  if (startsWith(n, "atomic_load")) {
    b.kind = BuiltinKind::AtomicLoad;
    return b;
  }
  if (startsWith(n, "atomic_store")) {
    b.kind = BuiltinKind::AtomicStore;
    return b;
  }
  if (startsWith(n, "atomic_init") || startsWith(n, "atomic_flag") ||
      startsWith(n, "atomic_compare_exchange")) {
    b.kind = BuiltinKind::Unsupported; // C11 atomics with an "expected" pointer or non-atomic init
    return b;
  }
  if (startsWith(n, "atomic_") || startsWith(n, "atom_")) {
    b.kind = BuiltinKind::AtomicRmw;
    return b;
  }
  for (const char *prefix : {"vloada_half", "vload_half", "vstorea_half", "vstore_half"}) {
    if (startsWith(n, prefix)) {
      unsigned w = widthAfter(n, std::strlen(prefix));
      b.kind = prefix[1] == 'l' ? BuiltinKind::VectorLoad : BuiltinKind::VectorStore;
      b.vectorWidth = w ? w : 1;
      b.halfPrecision = true;
      // vloada_half3 reads 4 halves per element (aligned form); the offset is scaled by 4 as well.
      if (prefix[6] == 'a' && b.vectorWidth == 3)
        b.vectorWidth = 4;
      return b;
    }
  }
  if (startsWith(n, "vload") || startsWith(n, "vstore")) {
    bool load = startsWith(n, "vload");
    unsigned w = widthAfter(n, load ? 5 : 6);
    if (w) {
      b.kind = load ? BuiltinKind::VectorLoad : BuiltinKind::VectorStore;
      b.vectorWidth = w;
      return b;
    }
  }
  if (n == "async_work_group_copy" || n == "async_work_group_strided_copy") {
    b.elementBytes = firstPointeeBytes(callee.getName().str());
    if (b.elementBytes) {
      b.kind = BuiltinKind::AsyncCopy;
      b.strided = n == "async_work_group_strided_copy";
    }
    return b;
  }
  if (startsWith(n, "read_image") || startsWith(n, "write_image") || startsWith(n, "get_image_")) {
    b.kind = startsWith(n, "read_image")    ? BuiltinKind::ImageRead
             : startsWith(n, "write_image") ? BuiltinKind::ImageWrite
                                            : BuiltinKind::ImageQuery;
    return b;
  }
  if (n == "wait_group_events") {
    b.kind = BuiltinKind::WaitEvents;
    return b;
  }
  for (const char *collective :
       {"work_group_all", "work_group_any", "work_group_broadcast", "work_group_reduce_", "work_group_scan_"})
    if (startsWith(n, collective)) {
      b.kind = BuiltinKind::WorkGroupCollective;
      return b;
    }
  for (const char *unsupported : {"read_pipe", "write_pipe", "reserve_", "commit_", "enqueue_", "work_group_",
                                  "sub_group_", "get_sub_group", "to_global", "to_local", "to_private"}) {
    if (startsWith(n, unsupported))
      return b; // Unsupported
  }
  // OpenCL 1.2 §6.12.2: math functions that also store a result through their last (pointer) argument.
  for (const char *withOutput : {"sincos", "fract", "modf", "frexp", "remquo", "lgamma_r"})
    if (n == withOutput && callee.isDeclaration() && callee.arg_size() >= 2 &&
        callee.getArg(static_cast<unsigned>(callee.arg_size() - 1))->getType()->isPointerTy()) {
      b.kind = BuiltinKind::MathWithOutput;
      return b;
    }
  // Everything else OpenCL C offers without a pointer parameter is pure (math, integer, common, geometric,
  // relational, conversions, as_type). Any other pointer parameter means a write the model does not know.
  for (const llvm::Argument &arg : callee.args())
    if (arg.getType()->isPointerTy())
      return b; // Unsupported
  if (callee.isDeclaration()) {
    b.kind = BuiltinKind::Pure;
    return b;
  }
  return b; // a defined function that survived inlining (recursion): Unsupported
}

} // namespace clcapture::model
