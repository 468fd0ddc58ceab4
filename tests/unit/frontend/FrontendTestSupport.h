//===- FrontendTestSupport.h - Helpers for the frontend's tests -*- C++ -*-===//
#pragma once

#include "clcapture/frontend/KernelCompiler.h"
#include "clcapture/frontend/Normalizer.h"

#include <catch2/catch.hpp>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

#include <map>
#include <string>
#include <tuple>

namespace clcapture::test {

inline frontend::CompileRequest kernelRequest(std::string source, std::string entry = "k", std::string flags = "",
                                              unsigned addressBits = 64) {
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

/// What a memory access is, as the property tests count them: source line, address space, read or write.
/// Calls to OpenCL builtins that touch memory (atomics, vload/vstore, async copies) count by callee instead.
struct AccessKey {
  unsigned line = 0;
  unsigned addressSpace = 0;
  std::string what; ///< "load", "store", "atomicrmw", "cmpxchg", "memcpy", or "call <callee>"

  bool operator<(const AccessKey &o) const {
    return std::tie(line, addressSpace, what) < std::tie(o.line, o.addressSpace, o.what);
  }
};

inline std::string describe(const AccessKey &key) {
  return "line " + std::to_string(key.line) + " addrspace(" + std::to_string(key.addressSpace) + ") " + key.what;
}

/// The static memory accesses of `function` outside private memory (address space 0), counted by key.
inline std::map<AccessKey, unsigned> countAccesses(const llvm::Function &function) {
  std::map<AccessKey, unsigned> counts;
  for (const llvm::Instruction &inst : llvm::instructions(function)) {
    unsigned line = inst.getDebugLoc() ? inst.getDebugLoc().getLine() : 0;
    if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst)) {
      if (load->getPointerAddressSpace() != 0)
        ++counts[{line, load->getPointerAddressSpace(), "load"}];
    } else if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst)) {
      if (store->getPointerAddressSpace() != 0)
        ++counts[{line, store->getPointerAddressSpace(), "store"}];
    } else if (const auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&inst)) {
      ++counts[{line, rmw->getPointerAddressSpace(), "atomicrmw"}];
    } else if (const auto *cas = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&inst)) {
      ++counts[{line, cas->getPointerAddressSpace(), "cmpxchg"}];
    } else if (const auto *transfer = llvm::dyn_cast<llvm::MemIntrinsic>(&inst)) {
      ++counts[{line, transfer->getDestAddressSpace(), "memintrinsic"}];
    } else if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&inst)) {
      const llvm::Function *callee = call->getCalledFunction();
      if (callee && callee->isDeclaration() && !callee->isIntrinsic() && !call->doesNotAccessMemory())
        ++counts[{line, 0, "call " + callee->getName().str()}];
    }
  }
  return counts;
}

/// Every access of `before` whose count grew in `after`, or that `after` has and `before` has not.
inline std::string accessesAdded(const std::map<AccessKey, unsigned> &before,
                                 const std::map<AccessKey, unsigned> &after) {
  std::string added;
  for (const auto &[key, count] : after) {
    auto it = before.find(key);
    unsigned was = it == before.end() ? 0 : it->second;
    if (count > was)
      added += describe(key) + ": " + std::to_string(was) + " -> " + std::to_string(count) + "\n";
  }
  return added;
}

} // namespace clcapture::test
