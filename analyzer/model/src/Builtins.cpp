//===- Builtins.cpp - OpenCL C built-in functions, as the model sees them -===//

#include "clcapture/model/Builtins.h"

#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Function.h>

#include <cstring>
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

bool startsWith(const std::string &s, const char *prefix) { return s.rfind(prefix, 0) == 0; }

/// N of vloadN / vstoreN (the digits after the prefix); 0 when there are none.
unsigned widthAfter(const std::string &name, std::size_t at) {
  unsigned n = 0;
  for (; at < name.size() && name[at] >= '0' && name[at] <= '9'; ++at)
    n = n * 10 + static_cast<unsigned>(name[at] - '0');
  return n;
}

} // namespace

Builtin classifyBuiltin(const llvm::Function &callee) {
  Builtin b;
  b.name = builtinBaseName(callee.getName().str());
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
  if (startsWith(n, "atomic_init") || startsWith(n, "atomic_flag") || startsWith(n, "atomic_compare_exchange")) {
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
  for (const char *unsupported : {"read_image", "write_image", "get_image", "async_work_group", "wait_group_events",
                                   "read_pipe", "write_pipe", "reserve_", "commit_", "enqueue_", "work_group_",
                                   "sub_group_", "get_sub_group", "to_global", "to_local", "to_private"}) {
    if (startsWith(n, unsupported))
      return b; // Unsupported
  }
  // Everything else OpenCL C offers without a pointer parameter is pure (math, integer, common, geometric,
  // relational, conversions, as_type). A pointer parameter (modf, fract, sincos, frexp, remquo, lgamma_r)
  // means a write the model does not track.
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
