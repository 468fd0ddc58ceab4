//===- ConstantAddress.cpp - Pointers made from constant integers ---------------===//

#include "ConstantAddress.h"

#include <cstdio>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Operator.h>

namespace clcapture::encode {

std::optional<std::uint64_t> constantAddress(const llvm::Value *pointer) {
  // An instruction (before folding) or a constant expression: both are operators.
  auto *cast = llvm::dyn_cast<llvm::Operator>(pointer);
  if (!cast || cast->getOpcode() != llvm::Instruction::IntToPtr)
    return std::nullopt;
  auto *integer = llvm::dyn_cast<llvm::ConstantInt>(cast->getOperand(0));
  if (!integer || integer->getBitWidth() > 64)
    return std::nullopt;
  return integer->getZExtValue();
}

std::optional<std::uint64_t> nullPageAddress(const llvm::Value *pointer) {
  auto address = constantAddress(pointer);
  if (address && *address < kNullPageBytes)
    return address;
  return std::nullopt;
}

std::string unfollowedPointerText(const llvm::Value *pointer) {
  if (auto address = constantAddress(pointer)) {
    char text[32];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(*address));
    return std::string("the constant address ") + text + ", where the launch has no object,";
  }
  return "a pointer the encoder cannot follow";
}

} // namespace clcapture::encode
