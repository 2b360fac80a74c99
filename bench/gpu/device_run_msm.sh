#!/usr/bin/env bash
# GPU MSM on the device machine: tests, then the benchmarks, each step
# time-limited so a run cut short still returns what finished; logs under
# $OUT. BIN_DIR as for device_run.sh (gpu_tests, gpu_bench from
# build_standalone.sh, plus libtbb / libbenchmark).
#   bench/gpu/device_run_msm.sh BIN_DIR [benchmark filter]
set -u
B=$(cd "$1" && pwd)
FILTER=${2:-BM_gpu_msm}
OUT=${OUT:-/tmp/gpu_out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$B:${LD_LIBRARY_PATH:-}"
t0=$(date +%s)
stamp() { echo "[msm_run] $(( $(date +%s) - t0 ))s: $*"; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total,driver_version --format=csv > "$OUT/env.txt" 2>&1
cuobjdump -res-usage "$B/gpu_bench" 2>&1 | grep -A1 -E "msm_kernels" | grep -v "^--" | sed 's/_ZN4cuzk3gpu11msm_kernels//' >> "$OUT/env.txt"
stamp env
set -o pipefail
timeout "${TEST_S:-150}" "$B/gpu_tests" --gtest_filter='gpu_msm*' 2>&1 | tee "$OUT/msm_tests.log" | \
  grep -E "^\[  (FAILED|  OK|PASSED|SKIPPED) |Failure|error|Expected|Which|seed" | head -60
stamp "tests rc=$?"
if [ -x "$B/gpu_prover_tests" ]; then
  timeout "${PROVER_S:-60}" "$B/gpu_prover_tests" --gtest_filter='gpu_prover*' 2>&1 | tee "$OUT/prover_tests.log" | \
    grep -E "^\[  (FAILED|  OK|PASSED|SKIPPED) |Failure|error|Expected|Which|seed" | head -20
  stamp "prover tests rc=$?"
fi
timeout "${BENCH_S:-300}" "$B/gpu_bench" --benchmark_filter="$FILTER" --benchmark_counters_tabular=true \
  --benchmark_out="$OUT/msm_bench.json" --benchmark_out_format=json 2>&1 | tee "$OUT/msm_bench.log" | grep -v "^\*\*\*"
stamp "bench rc=$?"
