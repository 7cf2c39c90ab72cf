#!/usr/bin/env bash
# Plays the user of an installed aclcpu: installs the build into a temporary toolkit folder,
# sources its set_env.sh, and builds and runs tests/install/sample as Ascend's single-op samples
# are run: atc compiles op_models/ from the JSON file, gen_data.py writes inputs, the program
# runs, verify_result.py checks result_files/ against NumPy.
# Usage: run_sample.sh <build-dir>
set -euo pipefail
build=$(cd "$1" && pwd)
sample=$(cd "$(dirname "$0")/sample" && pwd)
work=$(mktemp -d /tmp/aclcpu-install-XXXXXX)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/Ascend/ascend-toolkit/latest" > "$work/install.log"
# A fresh shell environment, as a user's would be: only what set_env.sh sets.
unset ASCEND_TOOLKIT_HOME DDK_PATH NPU_HOST_LIB LD_LIBRARY_PATH
source "$work/Ascend/ascend-toolkit/latest/set_env.sh"
[ "$(command -v atc)" = "$ASCEND_TOOLKIT_HOME/bin/atc" ] || { echo "atc is not on PATH"; exit 1; }
for header in "$DDK_PATH/runtime/include/acl/acl.h" "$ASCEND_TOOLKIT_HOME/include/acl/acl.h" \
              "$ASCEND_TOOLKIT_HOME/compiler/include/acl/acl.h" "$ASCEND_TOOLKIT_HOME/include/aclcpu/kernel.h"; do
  [ -f "$header" ] || { echo "missing $header"; exit 1; }
done
for library in ascendcl acl_cblas acl_op_compiler; do
  for folder in "$NPU_HOST_LIB" "$ASCEND_TOOLKIT_HOME/runtime/lib64" "$ASCEND_TOOLKIT_HOME/compiler/lib64/stub"; do
    [ -f "$folder/lib$library.so" ] || { echo "missing $folder/lib$library.so"; exit 1; }
  done
done

cp -r "$sample" "$work/sample"
cd "$work/sample"
atc --singleop=test_data/config/ops.json --output=op_models --soc_version=Ascend310
ls op_models/0_GEMM_1_2_16_16_1_2_16_16_1_2_16_16_1_2_1_2_1_2_16_16.om > /dev/null
/usr/bin/python3 scripts/gen_data.py
mkdir -p build/intermediates/host
cd build/intermediates/host
cmake ../../.. -DCMAKE_BUILD_TYPE=Release > cmake.log
make > make.log
cd ../../..
./build/intermediates/host/execute_ops
/usr/bin/python3 scripts/verify_result.py

# find_package(aclcpu) resolves too (CMAKE_PREFIX_PATH comes from set_env.sh).
mkdir -p "$work/package" && cd "$work/package"
cat > CMakeLists.txt <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(find_aclcpu CXX)
find_package(aclcpu REQUIRED)
add_executable(version version.cpp)
target_link_libraries(version aclcpu::ascendcl)
CMAKE
cat > version.cpp <<'CPP'
#include "acl/acl.h"
#include <cstdio>
int main() {
  uint32_t devices = 0;
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtGetDeviceCount(&devices) != ACL_SUCCESS || aclFinalize() != ACL_SUCCESS)
    return 1;
  printf("aclcpu via find_package: %u device(s)\n", devices);
  return 0;
}
CPP
cmake -S . -B build > cmake.log
cmake --build build > build.log
./build/version
echo "install sample PASSED"
