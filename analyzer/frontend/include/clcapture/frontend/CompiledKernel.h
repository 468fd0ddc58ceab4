//===- CompiledKernel.h - A captured kernel as an LLVM module ---*- C++ -*-===//
//
// The result of compiling one instantiation's program: the module, the LLVMContext that owns it (one context
// per compilation, so that instantiations can be analysed on several threads), the entry kernel, and the
// messages worth showing (Clang's warnings, notes on ignored compiler flags).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/frontend/CompilerMessage.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace clcapture::frontend {

class CompiledKernel {
public:
  CompiledKernel(std::unique_ptr<llvm::LLVMContext> context, std::unique_ptr<llvm::Module> module,
                 llvm::Function *entry, unsigned addressBits, std::vector<CompilerMessage> messages);
  CompiledKernel(CompiledKernel &&) = default;
  /// Releases this kernel's module before its context (the default member-wise order would not).
  CompiledKernel &operator=(CompiledKernel &&other) noexcept;
  ~CompiledKernel();

  llvm::LLVMContext &context() { return *m_context; }
  llvm::Module &module() { return *m_module; }
  const llvm::Module &module() const { return *m_module; }
  /// The entry kernel (calling convention spir_kernel), named as the instantiation's entry_point.
  llvm::Function &entry() { return *m_entry; }
  const llvm::Function &entry() const { return *m_entry; }
  /// Width of the device's pointers (32: target spir, 64: spir64); size_t has this width.
  unsigned addressBits() const { return m_addressBits; }
  /// Warnings and notes, in the order they arose (errors make the compilation fail instead).
  const std::vector<CompilerMessage> &messages() const { return m_messages; }
  /// The files the program `#include`d, as the compiler opened them (relative to the capture folder unless
  /// the program named them absolutely), sorted; Clang's own headers and the kernel file are not listed.
  const std::vector<std::string> &headersRead() const { return m_headersRead; }
  void setHeadersRead(std::vector<std::string> files) { m_headersRead = std::move(files); }

private:
  // Declared before the module: members die in reverse order and the module must go before its context.
  std::unique_ptr<llvm::LLVMContext> m_context;
  std::unique_ptr<llvm::Module> m_module;
  llvm::Function *m_entry;
  unsigned m_addressBits;
  std::vector<CompilerMessage> m_messages;
  std::vector<std::string> m_headersRead;
};

/// The module as textual LLVM IR (what `--dump-ir` writes); deterministic for a given input.
void printModule(const llvm::Module &module, llvm::raw_ostream &out);
std::string printModule(const llvm::Module &module);

} // namespace clcapture::frontend
