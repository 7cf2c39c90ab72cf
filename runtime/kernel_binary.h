// Loaded kernel binaries and the loaders that produce them. Loaders sit behind one interface
// keyed by the ELF kind: shared objects are loaded here with dlopen; relocatable objects (.o)
// by a JIT loader that jit/ registers (the runtime itself never links LLVM).
#pragma once

#include "acl/acl_rt.h"
#include "aclcpu/kernel.h"
#include "elf_image.h"

#include <memory>
#include <string>

namespace aclcpu {

class KernelBinary {
 public:
  virtual ~KernelBinary() = default;
  // The address of an exported symbol, or nullptr (with `error` set) if it is not there.
  virtual void *lookup(const std::string &name, std::string &error) = 0;
};

class BinaryLoader {
 public:
  virtual ~BinaryLoader() = default;
  // Loads a validated image. `lazy` defers linking until the first lookup when the format
  // allows it. Returns nullptr and sets `error` on failure.
  virtual std::unique_ptr<KernelBinary> load(const uint8_t *data, size_t size, const ElfImage &image, bool lazy,
                                             std::string &error) = 0;
};

// Installs the loader for one ELF kind (called once, at static initialization, by jit/).
void registerBinaryLoader(ElfImage::Kind kind, BinaryLoader *loader);
BinaryLoader *binaryLoaderFor(ElfImage::Kind kind);

}  // namespace aclcpu
