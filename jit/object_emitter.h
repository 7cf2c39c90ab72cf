// LLVM IR module -> optimized (-O3) ELF object for the host CPU.
#pragma once

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Module.h"

#include <string>

namespace aclcpu {

// Optimizes `module` in place and emits it; false with `error` set on failure.
bool emitHostObject(llvm::Module &module, llvm::SmallVectorImpl<char> &object, std::string &error);

}  // namespace aclcpu
