#!/usr/bin/env bash
# Sets up, builds and runs the demos: the single-operator flow (examples/single_op_demo.cpp:
# GEMM and Cast compiled with aclopCompile, run through handles on a stream, checked, GFLOP/s)
# and the runtime flow (examples/runtime_demo.c: streams, events, copies, a callback).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"${ACLCPU_JOBS:-2}" --target single_op_demo runtime_demo
./build/examples/single_op_demo
./build/examples/runtime_demo
