#!/usr/bin/env bash
# Builds what a device run needs here (the GPU machine has no compilers or
# -dev packages) and gathers it in one folder to carry: cuzk, cuzk_tests and
# cuzk_bench built without -march=native (that machine's CPU differs), stripped,
# plus every shared library they load except the C runtime and the CUDA driver.
#   bench/prepare_device.sh [BIN_DIR=.devbin] [BUILD_DIR=build-dev]
# then call the device with carry [BIN_DIR] and run bench/run_device.sh BIN_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.devbin}
build=${2:-build-dev}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_NATIVE=OFF -DCUZK_BENCH=ON -DCUZK_TESTS=ON >/dev/null
cmake --build "$build" -j "$(nproc)" --target cuzk cuzk_tests cuzk_bench
rm -rf "$bin" && mkdir -p "$bin"
# The tests read tests/kat and fixtures through the source path compiled into
# them (CUZK_SOURCE_DIR): run_device.sh links it to the device's copy.
pwd > "$bin/source_dir"
for exe in cuzk cuzk_tests cuzk_bench; do
  strip -o "$bin/$exe" "$build/$exe"
done
# The C runtime comes from the device machine's own system; libcuda is its driver.
skip='^(libc|libm|libdl|librt|libpthread|ld-linux-x86-64|libgcc_s|libcuda)\.so'
for exe in cuzk cuzk_tests cuzk_bench; do
  ldd "$build/$exe" | awk '$3 ~ /^\// {print $3}'
done | sort -u | while read -r lib; do
  name=$(basename "$lib")
  [[ $name =~ $skip ]] || cp -L "$lib" "$bin/$name"
done
du -sh "$bin"
