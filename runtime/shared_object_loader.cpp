// Loads ELF shared objects with dlopen; from memory through memfd_create, so no file is
// written anywhere. Registered for ElfImage::Kind::SharedObject.
#include "kernel_binary.h"

#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>


namespace aclcpu {
namespace {

class SharedObjectBinary : public KernelBinary {
 public:
  explicit SharedObjectBinary(void *handle) : handle_(handle) {}
  ~SharedObjectBinary() override { dlclose(handle_); }
  void *lookup(const std::string &name, std::string &error) override {
    dlerror();
    void *address = dlsym(handle_, name.c_str());
    if (address == nullptr) error = "the shared object does not export '" + name + "'";
    return address;
  }

 private:
  void *handle_;
};

class SharedObjectLoader : public BinaryLoader {
 public:
  std::unique_ptr<KernelBinary> load(const uint8_t *data, size_t size, const ElfImage &, bool lazy,
                                     std::string &error) override {
    int fd = memfd_create("aclcpu-kernel", MFD_CLOEXEC);
    if (fd < 0) {
      error = "memfd_create failed";
      return nullptr;
    }
    for (size_t written = 0; written < size;) {
      ssize_t n = write(fd, data + written, size - written);
      if (n <= 0) {
        close(fd);
        error = "could not write the shared object to a memory file";
        return nullptr;
      }
      written += static_cast<size_t>(n);
    }
    std::string path = "/proc/self/fd/" + std::to_string(fd);
    // RTLD_LOCAL: kernels of different binaries never see each other's symbols.
    void *handle = dlopen(path.c_str(), (lazy ? RTLD_LAZY : RTLD_NOW) | RTLD_LOCAL);
    close(fd);
    if (handle == nullptr) {
      const char *message = dlerror();
      error = std::string("dlopen failed: ") + (message ? message : "unknown error");
      return nullptr;
    }
    return std::make_unique<SharedObjectBinary>(handle);
  }
};

// Registered at static initialization, like the JIT's loader for relocatable objects.
SharedObjectLoader sharedObjectLoader;
const bool registered = (registerBinaryLoader(ElfImage::Kind::SharedObject, &sharedObjectLoader), true);

}  // namespace
}  // namespace aclcpu
