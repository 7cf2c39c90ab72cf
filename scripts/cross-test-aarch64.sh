#!/usr/bin/env bash
# Builds aclcpu for AArch64 on an x86-64 Debian 12 machine and runs its tests under qemu-aarch64:
# the library, the JIT's generated code and loaded g++ kernels all run as AArch64 code.
# Usage: scripts/cross-test-aarch64.sh [ctest arguments...]
#
# It installs g++-aarch64-linux-gnu and qemu-user, adds arm64 to dpkg's architectures (for
# `apt-get download`), and unpacks the arm64 LLVM, MLIR and GoogleTest packages with their
# dependencies under ACLCPU_ARM64_ROOT (default /opt/aclcpu-arm64): Debian's llvm-22-dev and
# libmlir-22-dev cannot be installed for two architectures at once. The build goes to
# build-aarch64 (cmake/aarch64-linux-gnu.toolchain.cmake).
set -euo pipefail
cd "$(dirname "$0")/.."
root=${ACLCPU_ARM64_ROOT:-/opt/aclcpu-arm64}
jobs=${ACLCPU_JOBS:-2}
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive

bash scripts/install-deps.sh
if ! command -v aarch64-linux-gnu-g++ > /dev/null || ! command -v qemu-aarch64 > /dev/null; then
  "${sudo_cmd[@]}" apt-get update -q
  "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends g++-aarch64-linux-gnu qemu-user
fi

# The arm64 packages: what the target links and what qemu runs it with (libc's loader included);
# the interpreters among the dependencies are left out.
wanted=(libmlir-22-dev llvm-22-dev mlir-22-tools llvm-22-tools libgtest-dev libgmock-dev)
stamp="$root/.aclcpu-packages"
if [ "$(cat "$stamp" 2>/dev/null)" != "${wanted[*]}" ]; then
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    "${sudo_cmd[@]}" dpkg --add-architecture arm64
  fi
  "${sudo_cmd[@]}" apt-get update -q
  mapfile -t packages < <(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
      --no-replaces --no-enhances --no-pre-depends "${wanted[@]/%/:arm64}" |
    grep -E '^[a-z0-9].*:arm64$' | grep -vE '^(dpkg|install-info|tar|python3|libpython3)' | sort -u)
  debs=$(mktemp -d)
  (cd "$debs" && apt-get download "${packages[@]}" nlohmann-json3-dev libeigen3-dev)
  "${sudo_cmd[@]}" mkdir -p "$root"
  for deb in "$debs"/*.deb; do "${sudo_cmd[@]}" dpkg-deb -x "$deb" "$root"; done
  rm -rf "$debs"
  echo "${wanted[*]}" | "${sudo_cmd[@]}" tee "$stamp" > /dev/null
fi

cmake -S . -B build-aarch64 -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.toolchain.cmake -DACLCPU_ARM64_ROOT="$root" \
  -DACLCPU_BUILD_BENCHMARKS=OFF -DACLCPU_BUILD_PYTHON=OFF
cmake --build build-aarch64 -j"$jobs"
# Left out under emulation: qemu-user ignores madvise, so no mapping shows the huge-page advice;
# install_sample builds an application with the build machine's compiler.
ctest --test-dir build-aarch64 -j"$jobs" --output-on-failure --timeout 1500 \
  -E 'LargeBlocksOfTheHugePagePoliciesAreAdvisedForHugePages|install_sample' "$@"
