#!/usr/bin/env bash
# Installs every Debian package aclcpu needs to build, test and benchmark.
# A no-op (no apt-get at all) when everything is already installed.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache git pkg-config
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22 libclang-rt-22-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libeigen3-dev libopenblas-dev libdnnl-dev nlohmann-json3-dev
  python3-dev pybind11-dev python3-numpy python3-pytest
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [ "$status" = "installed" ] || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -q
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
