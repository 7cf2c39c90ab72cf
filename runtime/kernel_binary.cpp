// The table of binary loaders, one per ELF kind.
#include "kernel_binary.h"

#include <map>
#include <mutex>

namespace aclcpu {
namespace {

std::mutex &loaderMutex() {
  static std::mutex mutex;
  return mutex;
}

std::map<ElfImage::Kind, BinaryLoader *> &loaders() {
  static std::map<ElfImage::Kind, BinaryLoader *> table;
  return table;
}

}  // namespace

void registerBinaryLoader(ElfImage::Kind kind, BinaryLoader *loader) {
  std::lock_guard<std::mutex> lock(loaderMutex());
  loaders()[kind] = loader;
}

BinaryLoader *binaryLoaderFor(ElfImage::Kind kind) {
  std::lock_guard<std::mutex> lock(loaderMutex());
  auto it = loaders().find(kind);
  return it == loaders().end() ? nullptr : it->second;
}

}  // namespace aclcpu
