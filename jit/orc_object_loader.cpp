// Loads relocatable ELF objects (.o kernels, ours or g++'s) with LLVM ORC + JITLink. Each
// binary gets its own JITDylib, removed when the binary is unloaded. Registered with the
// runtime for ElfImage::Kind::Relocatable at static initialization.
#include "kernel_binary.h"
#include "ukernels.h"

#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"

#include <elf.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <vector>

namespace aclcpu {
namespace {

// Errors ORC reports outside a lookup's own result (e.g. the symbol that failed to resolve
// while another was being materialized); appended to the caller's message.
std::mutex reportedMutex;
std::string reportedErrors;

std::string takeReportedErrors() {
  std::lock_guard<std::mutex> lock(reportedMutex);
  std::string errors;
  errors.swap(reportedErrors);
  return errors;
}

// The ukernels generated operator code calls, defined once in a JITDylib of their own that
// every binary links against (searched after its own symbols and the process's).
llvm::Error defineUkernels(llvm::orc::LLJIT &jit, llvm::orc::JITDylib *&ukernels) {
  auto dylib = jit.createJITDylib("aclcpu-ukernels");
  if (!dylib) return dylib.takeError();
  llvm::orc::SymbolMap symbols;
  int count = 0;
  const UkernelSymbol *table = ukernelSymbols(count);
  for (int i = 0; i < count; ++i)
    symbols[jit.mangleAndIntern(table[i].name)] = {llvm::orc::ExecutorAddr::fromPtr(table[i].address),
                                                   llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
  if (llvm::Error err = dylib->define(llvm::orc::absoluteSymbols(std::move(symbols)))) return err;
  ukernels = &*dylib;
  return llvm::Error::success();
}

llvm::orc::JITDylib *ukernelDylib = nullptr;

// One LLJIT for the process, created on first use and never destroyed: binaries still loaded
// at exit must not outlive it.
llvm::orc::LLJIT *processJit(std::string &error) {
  static std::once_flag once;
  static llvm::orc::LLJIT *jit = nullptr;
  static std::string creationError;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    auto created = llvm::orc::LLJITBuilder().create();
    if (!created) {
      creationError = llvm::toString(created.takeError());
      return;
    }
    if (llvm::Error err = defineUkernels(**created, ukernelDylib)) {
      creationError = llvm::toString(std::move(err));
      return;
    }
    jit = created->release();
    jit->getExecutionSession().setErrorReporter([](llvm::Error err) {
      std::string message = llvm::toString(std::move(err));
      std::lock_guard<std::mutex> lock(reportedMutex);
      reportedErrors += (reportedErrors.empty() ? "" : "; ") + message;
    });
  });
  if (jit == nullptr) error = "could not start the JIT: " + creationError;
  return jit;
}

class JitObjectBinary : public KernelBinary {
 public:
  JitObjectBinary(llvm::orc::LLJIT &jit, llvm::orc::JITDylib &dylib) : jit_(jit), dylib_(dylib) {}
  ~JitObjectBinary() override {
    llvm::consumeError(jit_.getExecutionSession().removeJITDylib(dylib_));
  }
  void *lookup(const std::string &name, std::string &error) override {
    takeReportedErrors();
    auto address = jit_.lookup(dylib_, name);
    if (!address) {
      error = llvm::toString(address.takeError());
      std::string reported = takeReportedErrors();
      if (!reported.empty()) error += ": " + reported;
      return nullptr;
    }
    return address->toPtr<void *>();
  }

 private:
  llvm::orc::LLJIT &jit_;
  llvm::orc::JITDylib &dylib_;
};

class JitObjectLoader : public BinaryLoader {
 public:
  std::unique_ptr<KernelBinary> load(const uint8_t *data, size_t size, const ElfImage &image, bool lazy,
                                     std::string &error) override {
    llvm::orc::LLJIT *jit = processJit(error);
    if (jit == nullptr) return nullptr;
    static std::atomic<uint64_t> counter{0};
    auto dylib = jit->createJITDylib("aclcpu-binary-" + std::to_string(++counter));
    if (!dylib) {
      error = llvm::toString(dylib.takeError());
      return nullptr;
    }
    dylib->addToLinkOrder(*ukernelDylib, llvm::orc::JITDylibLookupFlags::MatchExportedSymbolsOnly);
    // Kernels get no unwind tables: nothing may unwind out of an extern "C" kernel, and
    // JITLink's .eh_frame parser does not survive damaged records. Turning .eh_frame and its
    // relocations into SHT_NULL sections makes the linker skip them.
    std::vector<char> bytes(reinterpret_cast<const char *>(data), reinterpret_cast<const char *>(data) + size);
    for (size_t header : image.unwindSectionHeaders) {
      Elf64_Shdr section;
      memcpy(&section, bytes.data() + header, sizeof(section));
      section.sh_type = SHT_NULL;
      section.sh_flags = 0;
      memcpy(bytes.data() + header, &section, sizeof(section));
    }
    auto buffer = llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(bytes.data(), bytes.size()), "kernel.o");
    if (llvm::Error err = jit->addObjectFile(*dylib, std::move(buffer))) {
      error = llvm::toString(std::move(err));
      llvm::consumeError(jit->getExecutionSession().removeJITDylib(*dylib));
      return nullptr;
    }
    auto binary = std::make_unique<JitObjectBinary>(*jit, *dylib);
    // Eager loading links now, so unresolved symbols are a load error, not a launch error.
    if (!lazy) {
      for (const std::string &name : image.functions) {
        if (binary->lookup(name, error) == nullptr) return nullptr;
      }
    }
    return binary;
  }
};

JitObjectLoader jitObjectLoader;
const bool registered = (registerBinaryLoader(ElfImage::Kind::Relocatable, &jitObjectLoader), true);

}  // namespace
}  // namespace aclcpu
