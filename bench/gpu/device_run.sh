#!/usr/bin/env bash
# Checks, tests and times the GPU NTT on a machine with a GPU, writing logs
# under $OUT (the device tool's output folder; /tmp/gpu_out elsewhere).
#   bench/gpu/device_run.sh BIN_DIR
# BIN_DIR holds gpu_tests and gpu_bench (tests/gpu and bench/gpu linked
# standalone, see bench/gpu/NOTES.md), optionally gpu_bench_alt (a variant
# build to compare, timed on a subset), and any shared libraries they need
# that the machine lacks (libtbb, libbenchmark). Steps are ordered by value
# and each has a time limit, so a run cut short still returns what it
# finished. NCU=1 adds a hardware-counter profile of one pass.
set -u
B=$(cd "$1" && pwd)
OUT=${OUT:-/tmp/gpu_out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$B:${LD_LIBRARY_PATH:-}"
t0=$(date +%s)
stamp() { echo "[device_run] $(( $(date +%s) - t0 ))s: $*"; }

{
  nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,memory.total,driver_version,temperature.gpu,power.draw --format=csv
  uname -r; nproc; head -1 /etc/os-release; ldd --version | head -1
  ldd "$B/gpu_tests" "$B/gpu_bench" | grep -i "not found" || echo "all shared libraries found"
  for p in libtbb-dev libgtest-dev libbenchmark-dev libfmt-dev nlohmann-json3-dev libcli11-dev; do
    dpkg -s "$p" >/dev/null 2>&1 && echo "have $p" || echo "lack $p"
  done
  cmake --version | head -1
} > "$OUT/env.txt" 2>&1
stamp "env"; cat "$OUT/env.txt"

# Registers, shared memory and the instruction mix of the hot kernels.
{
  cuobjdump -res-usage "$B/gpu_bench" 2>&1 | grep -A1 -E "ntt_pass|fr_mul|bit_reverse|quotient" | grep -v "^--"
  for bin in "$B/gpu_bench" "$B/gpu_bench_alt"; do [ -x "$bin" ] || continue; echo "== $bin"
  cuobjdump -sass "$bin" 2>/dev/null | awk '
    /Function :/ { fn = $3; next }
    /^ +\/\*[0-9a-f]+\*\// && (fn ~ /fr_mul/ || fn ~ /ntt_pass_kernelILj1[01]ELj(256|512)ELb0/) {
      op = $2; if (op ~ /^@/) op = $3; sub(/;$/, "", op); cnt[fn " " op]++; tot[fn]++ }
    END { for (k in cnt) print cnt[k], k; for (f in tot) print tot[f], f, "TOTAL" }' | sort -k2,2 -k1,1nr
  done
} > "$OUT/sass.txt" 2>&1
stamp "sass"

set -o pipefail
timeout 170 "$B/gpu_tests" --gtest_filter='gpu*' 2>&1 | tee "$OUT/tests.log" | grep -E "^\[  (FAILED|  OK|PASSED|SKIPPED) |Failure|error|seed" | tail -40
stamp "tests rc=$?"

timeout 150 "$B/gpu_bench" --benchmark_filter=gpu --benchmark_out="$OUT/bench.json" --benchmark_out_format=json \
  --benchmark_counters_tabular=true 2>&1 | tee "$OUT/bench.log"
stamp "bench rc=$?"

if [ -x "$B/gpu_bench_alt" ]; then
  timeout 90 "$B/gpu_bench_alt" --benchmark_filter='BM_gpu_fr_mul|BM_gpu_ntt/2[47]|BM_gpu_ntt_passes/27/1|BM_gpu_compute_h/2[47]' \
    --benchmark_counters_tabular=true 2>&1 | tee "$OUT/bench_alt.log"
  stamp "bench_alt rc=$?"
fi

# Out-of-bounds and shared-memory races on small sizes (one block, every code path).
left=$(( 400 - ($(date +%s) - t0) ))
if [ "$left" -gt 40 ]; then
  timeout $(( left - 10 )) compute-sanitizer --tool memcheck --print-limit 10 "$B/gpu_tests" \
    --gtest_filter='gpu_ntt.small_sizes*:gpu_field.fr_kernel*' 2>&1 | tail -15 | tee "$OUT/sanitizer.log"
  stamp "memcheck rc=$?"
fi
left=$(( 400 - ($(date +%s) - t0) ))
if [ "$left" -gt 40 ]; then
  timeout $(( left - 10 )) compute-sanitizer --tool racecheck --print-limit 10 "$B/gpu_tests" \
    --gtest_filter='gpu_ntt.small_sizes*' 2>&1 | tail -15 | tee -a "$OUT/sanitizer.log"
  stamp "racecheck rc=$?"
fi

# Hardware counters for one DIF pass of 2^27 points (default shape): where the
# issue slots go (Firecracker machines only; clocks left as found).
left=$(( 400 - ($(date +%s) - t0) ))
if [ "${NCU:-0}" = 1 ] && [ "$left" -gt 60 ]; then
  timeout $(( left - 10 )) ncu --clock-control none --kernel-name regex:ntt_pass_kernel --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section ComputeWorkloadAnalysis --section Occupancy --section WarpStateStats \
    --section InstructionStats "$B/gpu_bench" --benchmark_filter='BM_gpu_ntt/27' > "$OUT/ncu.txt" 2>&1
  stamp "ncu rc=$?"; grep -E "Duration|Throughput|Pipe|Issue|Occupancy|Stall|Executed Ipc|Warp Cycles" "$OUT/ncu.txt" | head -40
fi
