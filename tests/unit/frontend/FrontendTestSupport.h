//===- FrontendTestSupport.h - Helpers for the frontend's tests -*- C++ -*-===//
#pragma once

#include "clcapture/frontend/KernelCompiler.h"
#include "clcapture/frontend/Normalizer.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace clcapture::test {

inline frontend::CompileRequest kernelRequest(std::string source, std::string entry = "k",
                                              std::string flags = "", unsigned addressBits = 64) {
  frontend::CompileRequest request;
  request.captureDir = ".";
  request.kernelFile = "kernels/k.cl";
  request.sourceText = std::move(source);
  request.compilerFlags = std::move(flags);
  request.entryPoint = std::move(entry);
  request.addressBits = addressBits;
  return request;
}

/// Compiles a request that must succeed.
inline frontend::CompiledKernel compileOk(const frontend::CompileRequest &request) {
  auto compiled = frontend::KernelCompiler().compile(request);
  INFO((compiled ? std::string() : compiled.error()));
  REQUIRE(compiled);
  return std::move(*compiled);
}

inline frontend::CompiledKernel compileAndNormalize(const frontend::CompileRequest &request) {
  frontend::CompiledKernel kernel = compileOk(request);
  format::Status status = frontend::Normalizer::normalize(kernel);
  INFO(status.error());
  REQUIRE(status);
  return kernel;
}

/// What a memory access is, as the property tests count it: source line, address space, and read, write,
/// atomic or a call to a named builtin that touches memory (vload/vstore, atomics, async copies).
struct AccessKey {
  unsigned line = 0;
  unsigned addressSpace = 0;
  std::string what;

  bool operator<(const AccessKey &o) const {
    return std::tie(line, addressSpace, what) < std::tie(o.line, o.addressSpace, o.what);
  }
};

inline std::string describe(const AccessKey &key) {
  return "line " + std::to_string(key.line) + " addrspace(" + std::to_string(key.addressSpace) + ") " +
         key.what;
}

/// Static accesses of `function` to memory other than private (address space 0), in bytes per key for loads,
/// stores and memory intrinsics (so that a struct copy split into one load per field counts the same bytes),
/// and in instructions for atomics and builtin calls. Each count is multiplied by `times`.
inline void countAccesses(const llvm::Function &function, unsigned times,
                          std::map<AccessKey, std::uint64_t> &counts) {
  const llvm::DataLayout &layout = function.getParent()->getDataLayout();
  auto bytes = [&](llvm::Type *type) { return layout.getTypeStoreSize(type).getFixedValue(); };
  for (const llvm::BasicBlock &block : function)
    for (const llvm::Instruction &inst : block) {
      unsigned line = inst.getDebugLoc() ? inst.getDebugLoc().getLine() : 0;
      if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst)) {
        if (load->getPointerAddressSpace() != 0)
          counts[{line, load->getPointerAddressSpace(), "read"}] += times * bytes(load->getType());
      } else if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst)) {
        if (store->getPointerAddressSpace() != 0)
          counts[{line, store->getPointerAddressSpace(), "write"}] +=
              times * bytes(store->getValueOperand()->getType());
      } else if (const auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&inst)) {
        counts[{line, rmw->getPointerAddressSpace(), "atomicrmw"}] += times;
      } else if (const auto *cas = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&inst)) {
        counts[{line, cas->getPointerAddressSpace(), "cmpxchg"}] += times;
      } else if (const auto *set = llvm::dyn_cast<llvm::MemIntrinsic>(&inst)) {
        const auto *length = llvm::dyn_cast<llvm::ConstantInt>(set->getLength());
        std::uint64_t size = length ? length->getZExtValue() : 1;
        if (set->getDestAddressSpace() != 0)
          counts[{line, set->getDestAddressSpace(), "write"}] += times * size;
        if (const auto *transfer = llvm::dyn_cast<llvm::MemTransferInst>(set))
          if (transfer->getSourceAddressSpace() != 0)
            counts[{line, transfer->getSourceAddressSpace(), "read"}] += times * size;
      } else if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&inst)) {
        const llvm::Function *callee = call->getCalledFunction();
        if (callee && callee->isDeclaration() && !callee->isIntrinsic() && !call->doesNotAccessMemory())
          counts[{line, 0, "call " + callee->getName().str()}] += times;
      }
    }
}

/// How many times each defined function is inlined into `entry` (the number of call paths from it).
inline std::map<const llvm::Function *, unsigned> inlinedCopies(const llvm::Function &entry) {
  std::map<const llvm::Function *, unsigned> copies;
  std::vector<std::pair<const llvm::Function *, unsigned>> work{{&entry, 1}};
  while (!work.empty()) {
    auto [function, times] = work.back();
    work.pop_back();
    copies[function] += times;
    for (const llvm::BasicBlock &block : *function)
      for (const llvm::Instruction &inst : block)
        if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&inst))
          if (const llvm::Function *callee = call->getCalledFunction(); callee && !callee->isDeclaration())
            work.emplace_back(callee, times);
  }
  return copies;
}

/// The accesses the entry kernel performs, helpers counted once per call path (what inlining must give).
inline std::map<AccessKey, std::uint64_t> accessesFromEntry(const llvm::Function &entry) {
  std::map<AccessKey, std::uint64_t> counts;
  for (const auto &[function, times] : inlinedCopies(entry))
    countAccesses(*function, times, counts);
  return counts;
}

/// Keys whose count in `after` differs from `before` in the direction given, one per line.
inline std::string accessesChanged(const std::map<AccessKey, std::uint64_t> &before,
                                   const std::map<AccessKey, std::uint64_t> &after, bool grown) {
  std::string changed;
  std::map<AccessKey, std::pair<std::uint64_t, std::uint64_t>> both;
  for (const auto &[key, count] : before)
    both[key].first = count;
  for (const auto &[key, count] : after)
    both[key].second = count;
  for (const auto &[key, counts] : both)
    if (grown ? counts.second > counts.first : counts.second < counts.first)
      changed +=
          describe(key) + ": " + std::to_string(counts.first) + " -> " + std::to_string(counts.second) + "\n";
  return changed;
}

} // namespace clcapture::test
