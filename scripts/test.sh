#!/usr/bin/env bash
# Sets up, builds and runs every test: the full build with CTest, then the runtime tests again
# under AddressSanitizer+UndefinedBehaviorSanitizer and under ThreadSanitizer.
# Usage: scripts/test.sh [--no-sanitizers]
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${ACLCPU_JOBS:-2}

bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$jobs"
ctest --test-dir build -j"$jobs" --output-on-failure

[ "${1:-}" = "--no-sanitizers" ] && exit 0

# Sanitizer builds rebuild only what they test: the runtime (ASan+UBSan and TSan) and the JIT
# (ASan+UBSan; LLVM itself is not instrumented, so TSan would only see half of every lock).
runtime_targets=(runtime_api_tests runtime_internal_tests kernel_binary_tests c_api_consumer runtime_demo)
for sanitizer in address thread; do
  dir=build-$sanitizer
  # model_store_tests: concurrent compiles of the operator model store (both sanitizers).
  targets=("${runtime_targets[@]}" model_store_tests)
  labels='runtime|threads'
  # ASan+UBSan also runs the operator conformance suite: the ukernels' packing, in-place reads
  # and prefetches index raw buffers, and only these tests drive them through every path.
  if [ "$sanitizer" = address ]; then
    targets+=(jit_tests conformance_tests)
    labels='runtime|jit|conformance'
  fi
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DACLCPU_SANITIZER=$sanitizer \
    -DACLCPU_BUILD_BENCHMARKS=OFF
  cmake --build "$dir" -j"$jobs" --target "${targets[@]}"
  # halt_on_error: a report fails the test instead of scrolling by.
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/tests/tsan.supp \
    ctest --test-dir "$dir" -j"$jobs" -L "$labels" --output-on-failure
done
