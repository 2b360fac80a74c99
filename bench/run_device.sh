#!/usr/bin/env bash
# One device call: GPU tests and benchmarks on the GPU machine (16 cores),
# each step time-limited so a cut-short run still returns what finished.
# BIN_DIR holds cuzk, cuzk_tests and cuzk_bench built here by
# bench/prepare_device.sh (no -march=native) plus the libraries that machine lacks.
#   bench/run_device.sh BIN_DIR [GROUP...]     (results under $OUT)
# Groups (default: all): tests gpu cpu porep engine; `sweep` (with engine) adds the budget sweep;
# `gputests` (GPU, prover and engine-on-GPU tests only), `msm` (GPU MSM with stage times) and
# `porep32` (32 GiB PoRep C2 through the engine: GPU setup on the spot, then PROOFS32 proofs),
# `inturn32` (prove_start of a 32 GiB PoRep partition, steps in turn, compact witness against eager a, b, c),
# `porep32file` (the same from a parameter file loaded query by query, under BUDGET32, default 16GiB) and
# `post32` (32 GiB WindowPoSt, 2349 sectors, then WinningPoSt idle and under 32 GiB PoRep load;
# POST32_SECS per bench step; WPOST32_PROOFS, WPOST32_J in flight, WINNING32_PROOFS) and `snap8` (an 8 MiB SnapDeals update, 4 partitions of 10 M rows:
# GPU setup, gen-vanilla, prove --kind snap (the CLI's CPU prover), verify, then the engine on the GPU
# with `bench --kind snap`) and `snap32` (a 32 GiB SnapDeals update through the engine: GPU setup on
# the spot, then SNAP32_PROOFS updates of 16 partitions) are extra, and so is `forms` (the field forms
# compared in one binary: G1 over Fp below 2p, G2's four Fp2 forms, whole MSMs and probes), and `ncu`
# (Nsight Compute on one launch of each arithmetic probe: pipe utilisation, instruction mix, warp stalls;
# issue 19 item 2 asks where the FP64 Fr product's predicted gain went).
set -u
B=$(cd "$1" && pwd); shift
groups=${*:-tests gpu cpu porep engine}
OUT=${OUT:-/tmp/cuzk_device_out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$B:${LD_LIBRARY_PATH:-}"
# Test binaries read tests/kat through the source path compiled into them:
# /work/main, or the folder prepare_device.sh built in (a worktree, say).
mkdir -p /work && [ -e /work/main ] || ln -s "$PWD" /work/main
if [ -s "$B/source_dir" ]; then
  src=$(cat "$B/source_dir")
  [ -e "$src" ] || { mkdir -p "$(dirname "$src")" && ln -s "$PWD" "$src"; }
fi
t0=$(date +%s)
step() {  # name seconds command...
  local name=$1 secs=$2; shift 2
  echo "[run_device] $(( $(date +%s) - t0 ))s start $name"
  $timev timeout "$secs" "$@" > "$OUT/$name.txt" 2>&1
  echo "[run_device] $(( $(date +%s) - t0 ))s end $name rc=$?"
}
timev=""; [ -x /usr/bin/time ] && timev="/usr/bin/time -v"  # peak RSS of each step, where installed
want() { [[ " $groups " == *" $1 "* ]]; }
{ nvidia-smi --query-gpu=name,clocks.max.sm,memory.total,driver_version --format=csv; nproc; lscpu | grep -E "Model name|^CPU\(s\)"; } > "$OUT/env.txt" 2>&1
want tests && step tests 560 "$B/cuzk_tests" --gtest_brief=1
want gputests && step gpu_tests 200 "$B/cuzk_tests" --gtest_brief=1 \
  --gtest_filter='gpu_*:engine_gpu.*:prover_checks.*:gpu_setup.*'
want msm && step bench_msm 240 "$B/cuzk_bench" --benchmark_filter='BM_gpu_msm' --benchmark_counters_tabular=true
want forms && step bench_forms 420 "$B/cuzk_bench" --benchmark_counters_tabular=true \
  --benchmark_filter='BM_gpu_msm_g1_lazy|BM_gpu_msm_g2_fp2|BM_gpu_fp_mul|BM_gpu_fp52_mul|BM_gpu_fp_inv|BM_gpu_fp2_mul|BM_gpu_g1_add_mixed|BM_gpu_g2_add_mixed|BM_gpu_fixed_base'
if want ncu; then  # one file, ncu.txt (a call brings back at most 8 files)
  ncu_bin=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
  step ncu 540 bash -c 'for probe in fr_mul fr52_mul fr_mul_mixed fp_mul fp_mul_lazy \
      g1_add_mixed/blocks:4/lazy:0 g1_add_mixed/blocks:4/lazy:1 g1_add_mixed/blocks:4/lazy:2; do
    echo "=== $probe"
    "$0" --clock-control none --launch-count 1 --section SpeedOfLight --section ComputeWorkloadAnalysis \
      --section InstructionStats --section WarpStateStats --section SchedulerStats --section Occupancy \
      --section LaunchStats "$1" --benchmark_filter="^BM_gpu_${probe}(/|\$)" --benchmark_min_time=0.01
  done' "$ncu_bin" "$B/cuzk_bench"
fi
want gpu && step bench_gpu 90 "$B/cuzk_bench" --benchmark_filter='gpu' --benchmark_min_time=0.2
if want cpu; then
  step bench_ff_ec 60 "$B/cuzk_bench" --benchmark_filter='^(ff_|g1_|g2_|fp12|miller|multi|final|pairing|g2_prepare)' --benchmark_min_time=0.2
  step bench_ntt_msm 120 "$B/cuzk_bench" --benchmark_filter='^(bm_ntt|bm_compute_h|msm_g1/|msm_g2|msm_g1_filecoin|witness_hash)' --benchmark_min_time=0.2
  step bench_prove 150 "$B/cuzk_bench" --benchmark_filter='bm_prove|bm_verify'
fi
if want porep; then
  step circuit_info_32g 60 "$B/cuzk" circuit-info --kind porep --sector-size 32GiB
  step bench_porep 150 "$B/cuzk_bench" --benchmark_filter='bm_porep_(shape|synthesis|layout)/(2KiB|512MiB|32GiB)'
  step bench_porep_compiled 150 "$B/cuzk_bench" --benchmark_filter='bm_porep_compiled/(2KiB|512MiB|32GiB)'
fi
if want engine; then
  # Pipelined against sequential in one run, then a larger circuit pipelined.
  step engine_2p22 170 "$B/cuzk" bench --kind hash-chain --size 4194304 --proofs 16 --concurrency 8 --compare \
    --timeline --timeline-out "$OUT/timeline_2p22.json"
  step engine_2p24 150 "$B/cuzk" bench --kind hash-chain --size 16777216 --proofs 4 --concurrency 4 \
    --timeline --timeline-out "$OUT/timeline_2p24.json"
  want sweep && step sweep 330 bench/budget_sweep.sh "$B/cuzk" "$OUT/sweep" 3GiB 4GiB 6GiB 8GiB 12GiB -- \
    --kind hash-chain --size 4194304 --proofs 8 --concurrency 8
  [ -f "$OUT/timeline_2p22.json" ] && "$B/cuzk" plot --timeline "$OUT/timeline_2p22.json" --out "$OUT/timeline_2p22.svg" > /dev/null 2>&1
fi
if want snap8; then
  step snap8_setup 240 "$B/cuzk" setup --circuit snap --size 8388608 --seed 1 --backend cuda \
    --params "$OUT/snap8.params" --vk "$OUT/snap8.vk"
  step snap8_gen 60 "$B/cuzk" gen-vanilla snap --sector-size 8MiB --seed 1 --out-dir "$OUT/snap8"
  j() { node -e "console.log(JSON.parse(require('fs').readFileSync('$OUT/snap8/inputs.json')).$1)" 2>/dev/null ||
        python3 -c "import json;print(json.load(open('$OUT/snap8/inputs.json'))['$1'])"; }
  step snap8_prove 240 "$B/cuzk" prove --kind snap --registered 1 --comm-r-old "$(j comm_r_old)" \
    --comm-r-new "$(j comm_r_new)" --comm-d-new "$(j comm_d_new)" --params "$OUT/snap8.params" \
    --proof "$OUT/snap8.proof" --public "$OUT/snap8.json" --trusted-params "$OUT"/snap8/partition-*.vproof
  step snap8_verify 30 "$B/cuzk" verify --vk "$OUT/snap8.vk" --proof "$OUT/snap8.proof.3" --public "$OUT/snap8.json.3"
  # The engine on the GPU: SNAP8_PROOFS updates of 4 partitions each, SNAP8_J in flight.
  step snap8_engine ${SNAP8_SECS:-240} "$B/cuzk" bench --kind snap --vanilla-dir "$OUT/snap8" --params "$OUT/snap8.params" --trusted-params \
    --proofs "${SNAP8_PROOFS:-4}" --concurrency "${SNAP8_J:-2}" --timeline --timeline-out "$OUT/timeline_snap8.json"
  rm -rf "$OUT/snap8" "$OUT/snap8.params"
fi
if want snap32; then
  # A 32 GiB SnapDeals update (16 partitions of 81 M rows, 2^27; the repeated-block sector model)
  # as Curio sends it, through the in-process engine: a random setup of its circuit made on the
  # spot, then SNAP32_PROOFS updates, SNAP32_J in flight, every proof verified before it returns.
  step gen_snap32 120 "$B/cuzk" gen-vanilla snap --sector-size 32GiB --seed 1 --out-dir "$OUT/snap32"
  step engine_snap32 ${SNAP32_SECS:-420} "$B/cuzk" bench --kind snap --vanilla-dir "$OUT/snap32" \
    --proofs "${SNAP32_PROOFS:-2}" --concurrency "${SNAP32_J:-2}" --timeline --timeline-out "$OUT/timeline_snap32.json"
  rm -rf "$OUT/snap32"
  [ -f "$OUT/timeline_snap32.json" ] && "$B/cuzk" plot --timeline "$OUT/timeline_snap32.json" --out "$OUT/timeline_snap32.svg" > /dev/null 2>&1
fi
if want porep32; then
  # A sparse 32 GiB sector's C1 (valid, all 10 partitions) as Curio sends it (FORMAT32=curio,
  # its envelope; c1 or cuzk also work), then the in-process engine: a random setup
  # for its circuit (GPU fixed-base multiplications, timed in the log) and PROOFS32 jobs, each
  # parsed and checked at submit, every proof verified before it is returned.
  step gen_vanilla_32g 120 "$B/cuzk" gen-vanilla porep --sector-size 32GiB --sparse --seed 1 \
    --format "${FORMAT32:-curio}" --out "$OUT/v32.json"
  step engine_porep32 ${POREP32_SECS:-540} "$B/cuzk" bench --kind porep --vanilla "$OUT/v32.json" \
    --proofs "${PROOFS32:-2}" --concurrency "${PROOFS32:-2}" ${BENCH32_ARGS:-} --timeline --timeline-out "$OUT/timeline_porep32.json"
  rm -f "$OUT/v32.json"
  [ -f "$OUT/timeline_porep32.json" ] && "$B/cuzk" plot --timeline "$OUT/timeline_porep32.json" --out "$OUT/timeline_porep32.svg" > /dev/null 2>&1
fi
if want inturn32; then
  # prove_start of a 32 GiB PoRep partition with its steps in turn (one worker, --gpu-in-turn: each
  # prove_start.* stage time is that step's own), the compact witness (a, b, c formed on the GPU) against
  # --compact-witness off (a, b, c formed at synthesis and uploaded, as before issue 18), one proof each,
  # every proof verified; the bench's "per proof from timelines" line gives the steps summed over 10 partitions.
  step gen_vanilla_32g 120 "$B/cuzk" gen-vanilla porep --sector-size 32GiB --sparse --seed 1 --format curio \
    --out "$OUT/v32.json"
  for form in auto off; do
    step inturn32_compact_$form ${INTURN32_SECS:-280} "$B/cuzk" bench --kind porep --vanilla "$OUT/v32.json" --proofs 1 \
      --concurrency 1 --workers 1 --gpu-in-turn --compact-witness $form --timeline ${BENCH32_ARGS:-}
  done
  rm -f "$OUT/v32.json"
fi
if want porep32file; then
  # 32 GiB PoRep proven from a parameter FILE, loaded as the daemon loads its cache (issue 18):
  # the queries the GPU holds are read from the file straight onto it, never into host memory,
  # so BUDGET32 (default 16GiB) is the whole host budget. PARAMS32 (default .params32/porep-32g.params,
  # ignored by git, so a warm machine keeps it between calls) is made by a GPU setup when absent
  # (44.1 GiB on disk: the setup and the proofs may need two calls). The bench log's "parameters
  # porep-32g loaded from" line gives the load time and the charge; PROOFS32 proofs follow.
  P32=${PARAMS32:-$PWD/.params32/porep-32g.params}
  mkdir -p "$(dirname "$P32")"
  [ -f "$P32" ] || step setup_32g ${SETUP32_SECS:-540} "$B/cuzk" setup --circuit porep --size 34359738368 \
    --backend cuda --params "$P32.part" --vk "$OUT/porep32.vk"
  [ -f "$P32.part" ] && mv "$P32.part" "$P32"
  if [ -f "$P32" ]; then
    step gen_vanilla_32g 120 "$B/cuzk" gen-vanilla porep --sector-size 32GiB --sparse --seed 1 --format curio \
      --out "$OUT/v32.json"
    step engine_porep32_file ${POREP32_SECS:-540} "$B/cuzk" bench --kind porep --vanilla "$OUT/v32.json" \
      --params "$P32" --trusted-params --budget "${BUDGET32:-16GiB}" --proofs "${PROOFS32:-2}" \
      --concurrency "${PROOFS32:-2}" ${BENCH32_ARGS:-} --timeline --timeline-out "$OUT/timeline_porep32_file.json"
    rm -f "$OUT/v32.json"
  fi
fi
if want post32; then
  # Curio's PoSt requests for 32 GiB sectors (the generator's sparse tree model): a full
  # WindowPoSt partition (2349 sectors x 10 challenges) and a WinningPoSt (one sector of the
  # miner's, 66 challenges), each proven with a random setup of its circuit made on the spot.
  # Then WinningPoSt latency idle and under load: PoRep C2 jobs of a sparse 32 GiB C1 (Curio's
  # envelope) kept 2 in flight; the log's "winning-post idle:" / "winning-post under load:" lines.
  step gen_wpost32 300 "$B/cuzk" gen-vanilla window-post --sector-size 32GiB --sectors 2349 --seed 1 \
    --out-dir "$OUT/wpost32"
  step gen_winning32 120 "$B/cuzk" gen-vanilla winning-post --sector-size 32GiB --sectors 2349 --seed 1 \
    --out-dir "$OUT/winning32"
  step gen_vanilla_32g_load 120 "$B/cuzk" gen-vanilla porep --sector-size 32GiB --sparse --seed 1 --format curio \
    --out "$OUT/v32_load.json"
  # POST32_ARGS: more `cuzk bench` options for both runs (e.g. --msm-threads 524288).
  step bench_wpost32 ${POST32_SECS:-540} "$B/cuzk" bench --kind window-post --vanilla-dir "$OUT/wpost32" \
    --proofs ${WPOST32_PROOFS:-4} --concurrency ${WPOST32_J:-2} ${POST32_ARGS:-} --timeline --timeline-out "$OUT/timeline_wpost32.json"
  step bench_winning32_load ${POST32_SECS:-540} "$B/cuzk" bench --kind winning-post --vanilla-dir "$OUT/winning32" \
    --proofs ${WINNING32_PROOFS:-5} --load-vanilla "$OUT/v32_load.json" ${POST32_ARGS:-} --timeline-out "$OUT/timeline_winning32_load.json"
  rm -rf "$OUT/wpost32" "$OUT/winning32" "$OUT/v32_load.json"
  for t in wpost32 winning32_load; do
    [ -f "$OUT/timeline_$t.json" ] && "$B/cuzk" plot --timeline "$OUT/timeline_$t.json" --out "$OUT/timeline_$t.svg" > /dev/null 2>&1
  done
fi
tail -n 25 "$OUT"/*.txt | grep -v "^\s*\(Page\|Socket\|Signals\|Swaps\|File system\|Average\|Exit status\|Minor\|Major\|Voluntary\|Involuntary\|Percent\|System time\|User time\)" | tail -n 150
