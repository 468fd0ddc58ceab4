//===- CompiledKernel.cpp - A captured kernel as an LLVM module ----------===//

#include "clcapture/frontend/CompiledKernel.h"

#include <cassert>
#include <llvm/Support/raw_ostream.h>

namespace clcapture::frontend {

CompiledKernel::CompiledKernel(std::unique_ptr<llvm::LLVMContext> context,
                               std::unique_ptr<llvm::Module> module, llvm::Function *entry,
                               unsigned addressBits, std::vector<CompilerMessage> messages)
    : m_context(std::move(context)), m_module(std::move(module)), m_entry(entry), m_addressBits(addressBits),
      m_messages(std::move(messages)) {
  assert(m_context && m_module && m_entry && "a compiled kernel has a context, a module and an entry");
  assert(&m_module->getContext() == m_context.get() && "the module lives in the kernel's own context");
  assert(m_entry->getParent() == m_module.get() && "the entry belongs to the module");
}

CompiledKernel::~CompiledKernel() = default;

CompiledKernel &CompiledKernel::operator=(CompiledKernel &&other) noexcept {
  if (this == &other)
    return *this;
  m_module.reset();
  m_context = std::move(other.m_context);
  m_module = std::move(other.m_module);
  m_entry = other.m_entry;
  m_addressBits = other.m_addressBits;
  m_messages = std::move(other.m_messages);
  m_headersRead = std::move(other.m_headersRead);
  return *this;
}

void printModule(const llvm::Module &module, llvm::raw_ostream &out) {
  module.print(out, /*AAW=*/nullptr);
}

std::string printModule(const llvm::Module &module) {
  std::string text;
  llvm::raw_string_ostream out(text);
  printModule(module, out);
  out.flush();
  return text;
}

} // namespace clcapture::frontend
