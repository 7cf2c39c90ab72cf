#!/usr/bin/env bash
# Sets up, builds and runs the demo application (examples/runtime_demo.c).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"${ACLCPU_JOBS:-2}" --target runtime_demo
./build/examples/runtime_demo
