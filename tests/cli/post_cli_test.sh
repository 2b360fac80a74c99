#!/usr/bin/env bash
# WindowPoSt and WinningPoSt through the command line on 2 KiB sectors:
# gen-vanilla (bincode FallbackPoStSectorProof per sector, as Curio sends
# them, and inputs.json) -> check-vanilla -> setup -> prove -> verify, a
# short Window partition (1 sector of 2, padded), and the refusals: a
# corrupted sibling named by sector and challenge, a truncated blob, the
# wrong randomness, the wrong partition under API 1.0, a proof against other
# public inputs. Then `cuzk bench` on the PoSt directories: in process
# (WinningPoSt), and through a daemon whose param_cache holds development
# parameters under Filecoin's official PoSt file names (`setup --official-names`).
#   usage: post_cli_test.sh PATH_TO_CUZK
set -euo pipefail

CUZK=$(realpath "$1")
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$TMP"

source "$HERE/cli_lib.sh"

SEED=${CUZK_TEST_SEED:-5}
echo "post_cli_test: 2 KiB, seed $SEED"
json() { node -e "const j=JSON.parse(require('fs').readFileSync('$1'));console.log($2)"; }

step "WindowPoSt V1_1 (10): 3 sectors = partition 0 (2 sectors) + partition 1 (1 sector, padded)"
expect 0 "$CUZK" gen-vanilla window-post --sector-size 2KiB --sectors 3 --seed "$SEED" --miner-id 1000 --out-dir w
out_has "StackedDrgWindow2KiBV1_1 (10), 3 of 3 sector(s) in 2 partition(s)"
RND=$(json w/inputs.json j.randomness)
[[ $(json w/inputs.json j.registered_proof) == 10 ]] || fail "inputs.json registered_proof"
[[ $(json w/inputs.json j.sectors.length) == 3 ]] || fail "inputs.json sectors"
ls w/sector-1.vproof w/sector-2.vproof w/sector-3.vproof >/dev/null
expect 0 "$CUZK" check-vanilla --kind window-post --registered 10 --randomness "$RND" --miner-id 1000 \
  w/sector-1.vproof w/sector-2.vproof w/sector-3.vproof
out_has "partition 0: valid StackedDrgWindow2KiBV1_1 (2 of 2 sectors"
out_has "partition 1: valid StackedDrgWindow2KiBV1_1 (1 of 2 sectors"
out_has "3 sector(s) valid"

expect 0 "$CUZK" setup --circuit window-post --size 2048 --seed 1 --backend cpu --params w.params --vk w.vk
# circuit-info's parameter counts (from the compiled rows' densities) are the setup's, and its file size the file's.
expect 0 "$CUZK" circuit-info --kind window-post --sector-size 2KiB
info_counts=$(sed -n 's/^  queries: *//p' out)
expect 0 "$CUZK" info --layout-only w.params
file_counts=$(awk '$1 == "h:" {h=$2} $1 == "l:" {l=$2} $1 == "a:" {a=$2} $1 == "b_g1:" {b1=$2} $1 == "b_g2:" {b2=$2}
  $1 == "public" {ic=$5} END {printf "h %s, l %s, a %s, b_g1 %s, b_g2 %s, ic %s", h, l, a, b1, b2, ic}' out)
[[ $info_counts == "$file_counts" ]] || fail "circuit-info counts '$info_counts' against the setup's '$file_counts'"
# The 32 GiB WindowPoSt file: 56.61 GiB, the size of the set a 32 GiB GPU setup made (BENCHMARKS.md).
expect 0 "$CUZK" circuit-info --kind window-post --sector-size 32GiB
out_has "file:                            56.61 GiB"
expect 0 "$CUZK" prove --kind window-post --registered 10 --randomness "$RND" --miner-id 1000 --partition 0 \
  --params w.params --proof w0.proof --public w0.json --trusted-params w/sector-1.vproof w/sector-2.vproof
out_has "wrote w0.proof"
[[ $(stat -c %s w0.proof) == 192 ]] || fail "proof is not 192 bytes"
expect 0 "$CUZK" verify --vk w.vk --proof w0.proof --public w0.json
out_has "valid"
expect 0 "$CUZK" prove --kind window-post --registered 10 --randomness "$RND" --miner-id 1000 --partition 1 \
  --params w.params --proof w1.proof --public w1.json --trusted-params w/sector-3.vproof
out_has "partition 1: 1 of 2 sectors"
expect 0 "$CUZK" verify --vk w.vk --proof w1.proof --public w1.json
out_has "valid"
# Partition 0's proof against partition 1's inputs.
expect 1 "$CUZK" verify --vk w.vk --proof w0.proof --public w1.json

step "refusals"
# One sibling of challenge 0's path, its low byte flipped. A 2 KiB blob:
# sector_id u64, comm_r, Vec<SectorProof> length u64, Vec<MerkleProof>
# length u64, then MerkleProof Single: tag u32, root, leaf, path length u64,
# hashes length u64, hashes[0] (FILECOIN_FORMATS.md §3).
node -e '
  const fs = require("fs");
  const b = fs.readFileSync("w/sector-2.vproof");
  b[8 + 32 + 8 + 8 + 4 + 32 + 32 + 8 + 8] ^= 1;
  fs.writeFileSync("bad.vproof", b);'
expect 2 "$CUZK" check-vanilla --kind window-post --registered 10 --randomness "$RND" --miner-id 1000 --partition 0 \
  w/sector-1.vproof bad.vproof
err_has "bad.vproof: vanilla_proofs[1]"
err_has "(sector 2)"
head -c 500 w/sector-1.vproof >trunc.vproof
expect 2 "$CUZK" check-vanilla --kind window-post --registered 10 --randomness "$RND" --miner-id 1000 trunc.vproof
err_has "trunc.vproof: vanilla_proofs[0]"
OTHER=$(echo "$RND" | sed 's/^./0/;s/^0\(.\)/1\1/')
[[ $OTHER != "$RND" ]] || OTHER=$(echo "$RND" | sed 's/^./2/')
expect 2 "$CUZK" check-vanilla --kind window-post --registered 10 --randomness "$OTHER" --miner-id 1000 \
  w/sector-1.vproof
err_has "vanilla_proofs[0]"
expect 2 "$CUZK" check-vanilla --kind window-post --registered 10 --randomness "${RND:0:62}" --miner-id 1000 \
  w/sector-1.vproof
err_has "--randomness: 31 bytes, expected 32"
expect 2 "$CUZK" check-vanilla --kind window-post --registered 99 --randomness "$RND" --miner-id 1000 w/sector-1.vproof
err_has "99"
expect 2 "$CUZK" prove --kind window-post --registered 10 --randomness "$RND" --miner-id 1000 --partition 0 \
  --params w.params --proof x.proof --public x.json --trusted-params w/sector-1.vproof bad.vproof
err_has "(sector 2)"
[[ ! -e x.proof ]] || fail "a proof was written for a refused input"

step "WindowPoSt V1 (5): partition 1's sectors are challenged by their positions"
expect 0 "$CUZK" gen-vanilla window-post --registered 5 --sector-size 2KiB --sectors 4 --seed "$SEED" --out-dir w5
RND5=$(json w5/inputs.json j.randomness)
expect 0 "$CUZK" check-vanilla --kind window-post --registered 5 --randomness "$RND5" --miner-id 1000 --partition 1 \
  w5/sector-3.vproof w5/sector-4.vproof
expect 2 "$CUZK" check-vanilla --kind window-post --registered 5 --randomness "$RND5" --miner-id 1000 --partition 0 \
  w5/sector-3.vproof w5/sector-4.vproof
err_has "vanilla_proofs[0]"
expect 0 "$CUZK" prove --kind window-post --registered 5 --randomness "$RND5" --miner-id 1000 --partition 1 \
  --params w.params --proof w5.proof --public w5.json --trusted-params w5/sector-3.vproof w5/sector-4.vproof
expect 0 "$CUZK" verify --vk w.vk --proof w5.proof --public w5.json

step "WinningPoSt (0): one sector of the miner's 5, 66 challenges"
expect 0 "$CUZK" gen-vanilla winning-post --sector-size 2KiB --sectors 5 --seed "$SEED" --miner-id 1000 --out-dir g
out_has "StackedDrgWinning2KiBV1 (0), 1 of 5 sector(s)"
RNDG=$(json g/inputs.json j.randomness)
FILE=g/$(json g/inputs.json j.sectors[0].file)
expect 0 "$CUZK" check-vanilla --kind winning-post --registered 0 --randomness "$RNDG" --miner-id 1000 "$FILE"
out_has "valid StackedDrgWinning2KiBV1 (1 of 1 sectors, 66 challenges each)"
expect 0 "$CUZK" setup --circuit winning-post --size 2048 --seed 2 --backend cpu --params g.params --vk g.vk
expect 0 "$CUZK" prove --kind winning-post --registered 0 --randomness "$RNDG" --miner-id 1000 \
  --params g.params --proof g.proof --public g.json --trusted-params "$FILE"
expect 0 "$CUZK" verify --vk g.vk --proof g.proof --public g.json
out_has "valid"
# A Window proof under the Winning key, and a Winning file as a Window request.
expect 1 "$CUZK" verify --vk g.vk --proof w0.proof --public g.json
expect 2 "$CUZK" check-vanilla --kind window-post --registered 10 --randomness "$RNDG" --miner-id 1000 "$FILE"

step "bench --kind winning-post --vanilla-dir: in process, every job the request Curio sends"
expect 0 "$CUZK" bench --kind winning-post --vanilla-dir g --proofs 2 --concurrency 2 --backend cpu --params g.params \
  --timeline
out_has "completed 2 / 2, failed 0"
out_has "proofs of winning-post (size 2048, 1 partition)"
# --params goes through the engine's parameter cache, as the daemon loads it (the CPU backend: read whole).
grep -qE "^parameters winning-2k loaded from g.params in [0-9.]+ s: [0-9.]+ GiB charged to the memory budget, 0\.00 GiB of the set held by the GPUs only" err ||
  { cat err; fail "no parameter load line"; }
grep -qE "^winning-post pipelined: p50 [0-9.]+ ms  min [0-9.]+  p90 [0-9.]+  max [0-9.]+ .*\(2 of 2 proofs\)" out ||
  { cat out; fail "no winning-post latency line"; }
err_has "g: winning-post StackedDrgWinning2KiBV1 (0), partition 0: 1 sector(s)"
# The compact witness (the default): a, b, c formed at prove_start, a step of its own in the timeline.
out_has "prove_start.rows"
# --compact-witness off: a, b, c formed at synthesis, as before the compact witness; still verified.
expect 0 "$CUZK" bench --kind winning-post --vanilla-dir g --proofs 1 --backend cpu --params g.params \
  --compact-witness off --timeline
out_has "completed 1 / 1, failed 0"
out_has "prove_start.msm_h"
grep -q "prove_start.rows" out && { cat out; fail "--compact-witness off: rows still formed at prove_start"; }
expect 2 "$CUZK" bench --kind winning-post --vanilla-dir g --proofs 1 --backend cpu --compact-witness sometimes
# Refused before any setup: a Window directory as Winning, a partition DIR lacks, a PoRep option.
expect 2 "$CUZK" bench --kind winning-post --vanilla-dir w --proofs 1 --backend cpu
err_has "w/inputs.json: holds window-post proofs, not winning-post"
expect 2 "$CUZK" bench --kind window-post --vanilla-dir w --partition 2 --proofs 1 --backend cpu
err_has "no sector in partition 2 (2 partition(s))"
expect 2 "$CUZK" bench --kind window-post --proofs 1
err_has "--vanilla-dir DIR"
expect 2 "$CUZK" bench --kind window-post --vanilla-dir w --registered 0 --proofs 1
err_has "registered_proof: 0 (StackedDrgWinning2KiBV1) is a WinningPoSt proof, but the request asks for WindowPoSt"

step "setup --official-names for WindowPoSt; a daemon on that directory proves bench's requests"
expect 0 "$CUZK" setup --circuit window-post --size 2048 --seed 1 --backend cpu --official-names fpp
err_has "DEVELOPMENT PARAMETERS"
OFFICIAL=$(cd fpp && ls v28-proof-of-spacetime-fallback-*.params)
[[ $(ls fpp | grep -c '\.params$') == 1 ]] || fail "more than one .params in fpp: $(ls fpp)"
ls "fpp/${OFFICIAL%.params}.vk" "fpp/$OFFICIAL.development" >/dev/null
# The same seed and circuit as w.params: the same bytes, under the official name.
cmp -s w.params "fpp/$OFFICIAL" || fail "setup --official-names wrote other parameters than --params"
expect 1 "$CUZK" params check fpp
out_has "2 present: 0 ok, 0 corrupt, 2 development"
expect 2 "$CUZK" setup --circuit tiny --official-names fpp2
err_has "only --circuit porep, window-post, winning-post and snap"
start_daemon 2GiB
# Partition 1: sector 3 alone, padded by the engine as upstream pads it.
expect 0 "$CUZK" bench --daemon "unix://$SOCK" --kind window-post --vanilla-dir w --partition 1 --proofs 1 \
  --concurrency 1
out_has "completed 1 / 1, failed 0"
out_has "window-post pipelined: p50"
err_has "partition 1: 1 sector(s)"
expect 0 "$CUZK" status --daemon "unix://$SOCK"
out_has "parameters wpost-2k:"
out_has "1 completed"
grep -qF "$TMP/fpp/$OFFICIAL" daemon.log || { cat daemon.log; fail "the daemon did not load $OFFICIAL"; }
stop_daemon
echo "post_cli_test: ok"
