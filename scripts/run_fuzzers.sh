#!/usr/bin/env bash
# Runs every libFuzzer target built in BUILD_DIR (cmake -DCUZK_FUZZ=ON, clang)
# for SECONDS each, seeded from fuzz/corpus/<target>/. The corpus is copied to a
# temporary directory so the repository stays untouched; crash reproducers are
# kept under $CUZK_FUZZ_ARTIFACTS (default ./fuzz-out/). Exits non-zero if any
# target crashes, leaks, hits a sanitizer report or breaks an invariant.
#   scripts/run_fuzzers.sh build-fuzz 60
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 BUILD_DIR SECONDS" >&2
  exit 2
fi
build_dir=$1
seconds=$2
root=$(cd "$(dirname "$0")/.." && pwd)
artifacts=${CUZK_FUZZ_ARTIFACTS:-$PWD/fuzz-out}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$artifacts"

targets=()
for src in "$root"/fuzz/*.cpp; do
  targets+=("$(basename "$src" .cpp)")
done

# One target: its corpus copied, its log kept; prints its stats, or why it
# failed, and exits non-zero on a finding.
run_one() {
  local t=$1 bin=$build_dir/$1 log=$artifacts/$1.log
  if [[ ! -x $bin ]]; then
    echo "== $t: not built in $build_dir" >&2
    return 1
  fi
  mkdir -p "$work/$t"
  if [[ -d $root/fuzz/corpus/$t ]]; then
    cp -r "$root/fuzz/corpus/$t/." "$work/$t/"
  fi
  # -rss_limit_mb bounds a parser that allocates from a count it has not checked.
  if "$bin" "$work/$t" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=25 \
      -print_final_stats=1 -artifact_prefix="$artifacts/$t-" >"$log" 2>&1; then
    echo "== $t: ${seconds}s"
    grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)|^#[0-9]+.*DONE' "$log" || true
  else
    echo "== $t FAILED (log $log):" >&2
    grep -E 'ERROR|SUMMARY|invariant|Test unit written' "$log" >&2 || tail -20 "$log" >&2
    return 1
  fi
}

# CUZK_FUZZ_JOBS targets at a time (default: one per core); each one's
# output is printed whole when it ends.
jobs=${CUZK_FUZZ_JOBS:-$(nproc)}
failed=()
pids=()
names=()
reap() {
  local i=$1
  if ! wait "${pids[$i]}"; then failed+=("${names[$i]}"); fi
  cat "$work/${names[$i]}.out"
  unset 'pids[i]' 'names[i]'
}
for t in "${targets[@]}"; do
  while ((${#pids[@]} >= jobs)); do
    for i in "${!pids[@]}"; do
      if ! kill -0 "${pids[$i]}" 2>/dev/null; then reap "$i"; fi
    done
    ((${#pids[@]} >= jobs)) && sleep 1
  done
  run_one "$t" >"$work/$t.out" 2>&1 &
  pids+=($!)
  names+=("$t")
done
for i in "${!pids[@]}"; do reap "$i"; done

if ((${#failed[@]})); then
  echo "fuzzers failed: ${failed[*]}" >&2
  exit 1
fi
echo "all ${#targets[@]} fuzzers ran ${seconds}s without findings"
