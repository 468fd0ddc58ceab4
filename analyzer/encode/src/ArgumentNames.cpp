//===- ArgumentNames.cpp - What the user calls a kernel's arguments ----===//

#include "ArgumentNames.h"

#include <llvm/BinaryFormat/Dwarf.h>
#include <llvm/IR/DebugInfo.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Metadata.h>

namespace clcapture::encode::detail {

std::map<std::uint64_t, std::string> memberNames(llvm::Argument &arg) {
  std::map<std::uint64_t, std::string> names;
  for (llvm::DbgDeclareInst *declare : llvm::FindDbgDeclareUses(&arg)) {
    const llvm::DIType *type = declare->getVariable()->getType();
    while (const auto *derived = llvm::dyn_cast_or_null<llvm::DIDerivedType>(type)) {
      unsigned tag = derived->getTag();
      if (tag != llvm::dwarf::DW_TAG_typedef && tag != llvm::dwarf::DW_TAG_const_type &&
          tag != llvm::dwarf::DW_TAG_volatile_type)
        break;
      type = derived->getBaseType();
    }
    if (const auto *composite = llvm::dyn_cast_or_null<llvm::DICompositeType>(type))
      for (const llvm::DINode *element : composite->getElements())
        if (const auto *member = llvm::dyn_cast<llvm::DIDerivedType>(element);
            member && member->getTag() == llvm::dwarf::DW_TAG_member && !member->getName().empty())
          names.emplace(member->getOffsetInBits() / 8, member->getName().str());
  }
  return names;
}

std::string argumentName(const llvm::Argument &arg, const model::LaunchConfig &launch) {
  if (arg.getArgNo() < launch.arguments.size() && !launch.arguments[arg.getArgNo()].name.empty())
    return launch.arguments[arg.getArgNo()].name;
  if (arg.hasName())
    return arg.getName().str();
  return "arg" + std::to_string(arg.getArgNo());
}

std::string argumentType(const llvm::Function &kernel, unsigned no) {
  const llvm::MDNode *md = kernel.getMetadata("kernel_arg_base_type");
  if (!md || no >= md->getNumOperands())
    return {};
  auto *name = llvm::dyn_cast<llvm::MDString>(md->getOperand(no));
  if (!name)
    return {};
  std::string type = name->getString().str(), lanes;
  const std::string vector = " __attribute__((ext_vector_type(";
  if (auto at = type.find(vector); at != std::string::npos) {
    std::size_t from = at + vector.size(), to = type.find(')', from);
    lanes = to == std::string::npos ? "" : type.substr(from, to - from);
    type = type.substr(0, at);
  }
  if (type.rfind("unsigned ", 0) == 0)
    type = "u" + type.substr(9);
  if (type == "signed char")
    type = "char";
  if (type == "_Bool")
    type = "bool";
  return type + lanes;
}

} // namespace clcapture::encode::detail
