#!/usr/bin/env bash
# The short device run (when little device time is left): GPU prover tests,
# compiled PoRep synthesis at 2 KiB / 512 MiB / 32 GiB, and one pipelined
# engine run. BIN_DIR from bench/prepare_device.sh; results under $OUT.
#   bench/run_device_quick.sh BIN_DIR
set -u
B=$(cd "$1" && pwd)
OUT=${OUT:-/tmp/cuzk_device_out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$B:${LD_LIBRARY_PATH:-}"
mkdir -p /work && [ -e /work/main ] || ln -s "$PWD" /work/main
t0=$(date +%s)
step() {
  local name=$1 secs=$2; shift 2
  echo "[quick] $(( $(date +%s) - t0 ))s start $name"
  timeout "$secs" "$@" > "$OUT/$name.txt" 2>&1
  echo "[quick] $(( $(date +%s) - t0 ))s end $name rc=$?"
}
{ nvidia-smi --query-gpu=name,memory.total --format=csv; nproc; } > "$OUT/env.txt" 2>&1
step gpu_tests 40 "$B/cuzk_tests" --gtest_brief=1 --gtest_filter='gpu_prover.*:engine_gpu.*:prover_checks.*'
step porep_compiled 75 "$B/cuzk_bench" --benchmark_filter='bm_porep_compiled/(2KiB|512MiB|32GiB)'
step engine_2p22 60 "$B/cuzk" bench --kind hash-chain --size 4194304 --proofs 16 --concurrency 8 --timeline \
  --timeline-out "$OUT/timeline_2p22_c8.json"
tail -n 12 "$OUT"/*.txt
