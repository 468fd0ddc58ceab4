//===- ConstantAddress.h - Pointers made from constant integers -----------------===//
//
// `inttoptr (i64 5 to ptr)`: Clang's folding of NULL plus a constant (`char *p = NULL; p[5]`), or a
// constant the host passed as an integer and the kernel cast to a pointer. No object of an OpenCL launch has
// an address the kernel can know as a constant (docs/semantics.md row 37j).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <llvm/IR/Value.h>
#include <optional>
#include <string>

namespace clcapture::encode {

/// The bytes from address 0 that no memory object occupies: the first page.
constexpr std::uint64_t kNullPageBytes = 4096;

/// The integer a pointer is made from, when it is a constant.
std::optional<std::uint64_t> constantAddress(const llvm::Value *pointer);

/// The constant address, when it lies in the first page (an offset from NULL).
std::optional<std::uint64_t> nullPageAddress(const llvm::Value *pointer);

/// What an access through `pointer` goes through when the encoder cannot follow it: "the constant address
/// 0x2000, where the launch has no object", or "a pointer the encoder cannot follow".
std::string unfollowedPointerText(const llvm::Value *pointer);

} // namespace clcapture::encode
