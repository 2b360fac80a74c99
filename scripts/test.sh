#!/usr/bin/env bash
# Runs every test: sets up and builds (scripts/setup.sh), runs the CTest suite
# (unit tests, known answers against @noble/curves, CLI end to end with snarkjs
# verification, GPU tests that skip without a GPU), then each libFuzzer target
# for CUZK_FUZZ_SECONDS (default 30) in a clang build.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
ctest --test-dir "${CUZK_BUILD_DIR:-build}" --output-on-failure -j "$(nproc)"
if [[ -x scripts/run_fuzzers.sh && "${CUZK_FUZZ_SECONDS:-30}" != 0 ]]; then
  CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCUZK_FUZZ=ON -DCUZK_CUDA=OFF -DCUZK_TESTS=OFF -DCUZK_BENCH=OFF >/dev/null
  # The fuzz targets only: the CLI and the gRPC service are not fuzzed here.
  fuzz_targets=()
  for src in fuzz/*.cpp; do fuzz_targets+=("$(basename "$src" .cpp)"); done
  cmake --build build-fuzz -j "$(nproc)" --target "${fuzz_targets[@]}"
  scripts/run_fuzzers.sh build-fuzz "${CUZK_FUZZ_SECONDS:-30}"
fi
echo "test: all passed"
