#!/usr/bin/env bash
# One device call: GPU tests, then the CPU and GPU benchmark suites on the
# GPU machine (16 cores), each step time-limited so a cut-short run still
# returns what finished. BIN_DIR holds cuzk_tests and cuzk_bench built here
# with -DCUZK_NATIVE=OFF plus the shared libraries that machine lacks.
#   bench/run_device.sh BIN_DIR        (results under $OUT)
set -u
B=$(cd "$1" && pwd)
OUT=${OUT:-/tmp/cuzk_device_out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$B:${LD_LIBRARY_PATH:-}"
# Test binaries read tests/kat through the source path compiled into them.
mkdir -p /work && [ -e /work/main ] || ln -s "$PWD" /work/main
t0=$(date +%s)
step() {  # name seconds command...
  local name=$1 secs=$2; shift 2
  echo "[run_device] $(( $(date +%s) - t0 ))s start $name"
  timeout "$secs" "$@" > "$OUT/$name.txt" 2>&1
  echo "[run_device] $(( $(date +%s) - t0 ))s end $name rc=$?"
}
{ nvidia-smi --query-gpu=name,clocks.max.sm,memory.total,driver_version --format=csv; nproc; lscpu | grep -E "Model name|^CPU\(s\)"; } > "$OUT/env.txt" 2>&1
step tests 150 "$B/cuzk_tests" --gtest_brief=1
step bench_gpu 90 "$B/cuzk_bench" --benchmark_filter='gpu' --benchmark_min_time=0.2
step bench_ff_ec 60 "$B/cuzk_bench" --benchmark_filter='^(ff_|g1_|g2_|fp12|miller|multi|final|pairing|g2_prepare)' --benchmark_min_time=0.2
step bench_ntt_msm 120 "$B/cuzk_bench" --benchmark_filter='^(bm_ntt|bm_compute_h|msm_g1/|msm_g2|msm_g1_filecoin|witness_hash)' --benchmark_min_time=0.2
step bench_prove 150 "$B/cuzk_bench" --benchmark_filter='bm_prove|bm_verify'
tail -n 3 "$OUT"/*.txt
