# Cross-compiles aclcpu for AArch64 Linux on an x86-64 Debian host (scripts/cross-test-aarch64.sh).
# Debian's g++-aarch64-linux-gnu compiles; the arm64 LLVM, MLIR and GoogleTest packages are
# unpacked under ACLCPU_ARM64_ROOT (their -dev packages cannot be installed beside the host's);
# qemu-aarch64 runs the tests.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

if(NOT DEFINED ACLCPU_ARM64_ROOT)
  set(ACLCPU_ARM64_ROOT /opt/aclcpu-arm64)
endif()
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES ACLCPU_ARM64_ROOT)
set(CMAKE_FIND_ROOT_PATH ${ACLCPU_ARM64_ROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

# libLLVM's own dependencies (libffi, libz3, libxml2, ...) live only in the unpacked root.
foreach(dir lib/aarch64-linux-gnu usr/lib/aarch64-linux-gnu usr/lib/llvm-22/lib)
  string(APPEND CMAKE_EXE_LINKER_FLAGS_INIT " -Wl,-rpath-link,${ACLCPU_ARM64_ROOT}/${dir}")
  string(APPEND CMAKE_SHARED_LINKER_FLAGS_INIT " -Wl,-rpath-link,${ACLCPU_ARM64_ROOT}/${dir}")
endforeach()

set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64;-L;${ACLCPU_ARM64_ROOT})
