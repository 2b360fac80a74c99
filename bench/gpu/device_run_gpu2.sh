#!/usr/bin/env bash
# One device call for the CUDA prove backend and the GPU setup: runs the
# standalone gpu2_tests / gpu2_bench that build_gpu2_standalone.sh gathered in
# BIN_DIR and writes logs and benchmark JSON under $OUT (7 files).
#   bench/gpu/device_run_gpu2.sh BIN_DIR
set -u
B=$1
OUT=${OUT:-/tmp/gpu_out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
{ nvidia-smi -L; nproc; grep -m1 "model name" /proc/cpuinfo; } > "$OUT/machine.txt" 2>&1
cat "$OUT/machine.txt"
timeout 60 "$B/gpu2_tests" --gtest_filter='engine_gpu*:gpu_setup*' 2>&1 | tee "$OUT/tests.log" | tail -30
for f in BM_setup_gpu/20/ BM_setup_gpu/22/ BM_setup_cpu/20/ BM_setup_cpu/22/; do
  n=$(echo "$f" | tr / _)
  timeout 60 "$B/gpu2_bench" --benchmark_filter="^$f" --benchmark_out="$OUT/$n.json" --benchmark_out_format=json 2>&1 |
    tee -a "$OUT/bench.log" | grep -E "BM_|rror"
done
