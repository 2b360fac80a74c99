#!/usr/bin/env bash
# PoRep through the command line on a 2 KiB or 8 MiB sector: real replication
# of random data written as Curio's envelope of a C1 output and as the bare
# C1, check-vanilla, setup under the official names, prove --c1 with the
# compiled synthesis path, verify, and the refusals: a corrupted label (named
# by its JSON path), bad base64, truncation, another miner's request, a C1 of
# another sector size. The steps whose code does not depend on the sector's
# size run once, on the 2 KiB sector (each is a whole prove of the same 2^22
# domain, ~45 s on two cores): the daemon's Prove request, the bare C1 to the
# same public inputs, a proof against another sector's public inputs.
#   usage: porep_cli_test.sh PATH_TO_CUZK [SECTOR_SIZE]   (default 8MiB)
set -euo pipefail

CUZK=$(realpath "$1")
SIZE=${2:-8MiB}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$TMP"

source "$HERE/cli_lib.sh"

SEED=${CUZK_TEST_SEED:-3}
echo "porep_cli_test: sector $SIZE, seed $SEED"
bytes=$("$CUZK" circuit-info --kind porep --sector-size "$SIZE" | sed -n 's/.*porep \([0-9A-Za-z]*\):.*/\1/p' | head -n1)
[[ $bytes == "$SIZE" ]] || fail "circuit-info does not know $SIZE"
# Capacity lines (issue 18 part 5) for a 32 GiB partition, from the engine's
# footprint code. With the compiled rows' bound (1,699,102 of the 130,169,893
# aux may be other than 0 and 1: 1.3053 %, as bm_porep_compact measures on a
# witness): 3 bits per aux + 2 * 32 B per bounded value + 32 B per input +
# bitmaps = 181.3 MiB while synthesized on the CUDA backend; without the
# bound every aux counts (2 * 32 B * 130,170,221 variables: 7.83 GiB); the
# eager 23.79 GiB on the CPU either way.
# Once (the 2 KiB run): the 32 GiB bound takes ~10 s on two cores.
if [[ $SIZE == 2KiB ]]; then
  cap=$("$CUZK" circuit-info --kind porep --sector-size 32GiB --gpu-memory 78GiB --workers 1)
  grep -q 'at most 1699102 of 130169893 (1.3053 %' <<<"$cap" || fail "circuit-info: the bound on wide values"
  grep -q 'host bytes per partition (cuda): 181.3 MiB while it is synthesized' <<<"$cap" || fail "circuit-info: cuda capacity line"
  grep -q 'host bytes per partition (cpu):  23.79 GiB' <<<"$cap" || fail "circuit-info: cpu capacity line"
  unbounded=$("$CUZK" circuit-info --kind porep --sector-size 32GiB --no-wide-bound)
  grep -q 'host bytes per partition (cuda): 7.83 GiB while it is synthesized' <<<"$unbounded" ||
    fail "circuit-info --no-wide-bound: cuda capacity line"
  grep -q 'GPU bytes per worker: ' <<<"$cap" || fail "circuit-info: GPU capacity line"
  # 2^27 H points: 12 windows of 2^21 buckets instead of 13 of 2^19, 192 B each (3.28 GiB).
  grep -q 'H MSM window:                    22 bits where the device has room' <<<"$cap" &&
    grep -q 'h_window_bits = 0): 3.28 GiB more scratch' <<<"$cap" || fail "circuit-info: the H window line"
  # The parameters' counts from the compiled rows' densities: 44.12 GiB, the size of the file a
  # 32 GiB GPU setup wrote (BENCHMARKS.md, 44.1 GiB); every query on the GPU leaves the vk in host memory.
  grep -q 'h 134217727, l 130169893, a 129753620, b_g1 33112282, b_g2 33112282, ic 328' <<<"$cap" ||
    fail "circuit-info: the parameters' query counts"
  grep -q 'file:                            44.12 GiB' <<<"$cap" || fail "circuit-info: the parameter file's size"
  grep -q 'host bytes (cuda, every query on the GPU): 31.6 KiB' <<<"$cap" || fail "circuit-info: parameters on cuda"
  # The automatic GPU plan on an 80 GB H100 (78 GiB free) with one worker: five MSM scratches and the proof's
  # vectors (82 GiB) would leave no room, so the MSMs run one at a time (38.10 GiB) and every query but
  # B_g2 (5.92 GiB of G2 points) lives on the device.
  grep -q 'GPU plan for 78.00 GiB free and 1 worker' <<<"$cap" || fail "circuit-info --gpu-memory: the plan's heading"
  grep -q 'placement:                       h device, l device, a device, b_g1 device, b_g2 pinned' <<<"$cap" ||
    fail "circuit-info --gpu-memory: the placement"
  grep -q 'on the device:                   38.20 GiB of points; 5.92 GiB streamed over PCIe per proof' <<<"$cap" ||
    fail "circuit-info --gpu-memory: the bytes on the device and streamed"
  grep -q 'working memory:                  38.10 GiB planned (MSMs one at a time), compiled rows 326.8 MiB' <<<"$cap" ||
    fail "circuit-info --gpu-memory: the working memory"
  expect 2 "$CUZK" circuit-info --kind porep --sector-size 2KiB --gpu-memory 78XB
  err_has "--gpu-memory '78XB'"
  expect 2 "$CUZK" circuit-info --kind porep --sector-size 2KiB --gpu-memory 0GiB
  err_has "--gpu-memory '0GiB': zero bytes"
  expect 2 "$CUZK" circuit-info --kind porep --sector-size 2KiB --gpu-memory 78GiB --no-wide-bound
  err_has "which --no-wide-bound skips"
fi

# Curio's envelope of a C1 output: what Curio's cuzk client sends.
expect 0 "$CUZK" gen-vanilla porep --sector-size "$SIZE" --format curio --out v.json --seed "$SEED" --miner-id 1000
expect 0 "$CUZK" check-vanilla v.json
out_has "valid Curio envelope"
expect 0 "$CUZK" gen-vanilla porep --sector-size "$SIZE" --format c1 --out c1.json --seed "$SEED" --miner-id 1000
expect 0 "$CUZK" check-vanilla c1.json
out_has "valid C1 JSON"

# One byte of a label of challenge 0's own column changed, in the C1 inside
# the envelope: refused, the element named by its JSON path.
node -e '
  const fs = require("fs");
  const env = JSON.parse(fs.readFileSync("v.json"));
  const c1 = JSON.parse(Buffer.from(env.Phase1Out, "base64"));
  const v = Object.values(c1.vanilla_proofs)[0];
  v[0][0].replica_column_proofs.c_x.column.rows[0][5] ^= 1;
  env.Phase1Out = Buffer.from(JSON.stringify(c1)).toString("base64");
  fs.writeFileSync("bad.json", JSON.stringify(env));'
expect 2 "$CUZK" check-vanilla bad.json
err_has "Phase1Out: vanilla_proofs.StackedDrg${SIZE}V1[0][0].replica_column_proofs.c_x.column.rows[0]"
# Not base64, and a truncated envelope.
sed 's/"Phase1Out":"ey/"Phase1Out":"e!/' v.json >nb64.json
expect 2 "$CUZK" check-vanilla nb64.json
err_has "Phase1Out: not base64 at character 1"
head -c 1000 v.json >trunc.json
expect 2 "$CUZK" check-vanilla trunc.json
err_has "not valid JSON"

case $SIZE in
  2KiB) n=2048 ;;
  8MiB) n=8388608 ;;
  512MiB) n=536870912 ;;
  *) fail "no setup size for $SIZE" ;;
esac
# Under the official file names (development parameters, marked so): what a
# daemon whose param_cache holds Filecoin's files would load.
expect 0 "$CUZK" setup --circuit porep --size "$n" --seed 1 --backend cpu --official-names fpp
err_has "DEVELOPMENT PARAMETERS"
expect 1 "$CUZK" params check fpp
out_has "DEVELOPMENT"
out_has "2 present: 0 ok, 0 corrupt, 2 development"
err_has "development parameters, not the ceremony's"
ln -s fpp/v28-stacked-proof-of-replication-*.params p.params
ln -s fpp/v28-stacked-proof-of-replication-*.vk p.vk
# Our own setup's output: its integrity is known, so the subgroup check may go.
expect 0 "$CUZK" prove --c1 v.json --params p.params --proof p.proof --public p.json --trusted-params \
  --miner-id 1000 --sector-num "$SEED"
out_has "compile circuit"
out_has "Curio envelope"
out_has "wrote p.proof"
expect 0 "$CUZK" verify --vk p.vk --proof p.proof --public p.json
out_has "valid"

if [[ $SIZE == 2KiB ]]; then
  # Through the daemon, as Curio sends it: the envelope in a Prove request with
  # registered_proof, miner_id and sector_number set; the parameters loaded
  # from param_cache under their official names (our own setup's, so without
  # the per-point checks), the host copy released where a GPU holds it, every
  # proof verified by the daemon before it is returned.
  start_daemon 6GiB
  expect 0 "$CUZK" bench --daemon "unix://$SOCK" --kind porep --vanilla v.json --proofs 1 --concurrency 1 \
    --miner-id 1000 --sector-num "$SEED" --registered "StackedDrg${SIZE}V1_1"
  out_has "completed 1 / 1"
  grep -qF "subgroup checks off" daemon.log || { cat daemon.log; fail "the daemon did not load the official-named file"; }
  # Another miner's request for this sector: refused naming the replica_id; the daemon keeps serving.
  expect 2 "$CUZK" bench --daemon "unix://$SOCK" --kind porep --vanilla v.json --proofs 1 --concurrency 1 \
    --miner-id 1001 --sector-num "$SEED" --registered "StackedDrg${SIZE}V1_1"
  err_has "replica_id"
  expect 0 "$CUZK" status --daemon "unix://$SOCK"
  out_has "1 completed"
  stop_daemon

  # The bare C1 proves to the same public inputs.
  expect 0 "$CUZK" prove --c1 c1.json --params p.params --proof c.proof --public c.json --trusted-params
  cmp -s p.json c.json || fail "the C1 and its envelope give different public inputs"
  # Another miner's request for this sector: its replica_id does not derive.
  expect 2 "$CUZK" prove --c1 v.json --params p.params --proof m.proof --public m.json --miner-id 1001
  err_has "replica_id: the C1's replica_id is not the one derived from miner_id 1001"

  # The same proof against another sector's public inputs: invalid (exit 1).
  # (cuzk's own vanilla JSON still reads.)
  expect 0 "$CUZK" gen-vanilla porep --sector-size "$SIZE" --format cuzk --out other.json --seed "$((SEED + 1))"
  expect 0 "$CUZK" prove --kind porep --vanilla other.json --params p.params --proof o.proof --public o.json --trusted-params
  expect 1 "$CUZK" verify --vk p.vk --proof p.proof --public o.json
fi

# A corrupted vanilla proof is refused before any proving.
expect 2 "$CUZK" prove --kind porep --vanilla bad.json --params p.params --proof x.proof --public x.json --trusted-params
err_has "replica_column_proofs.c_x.column.rows[0]"
[[ ! -e x.proof ]] || fail "a proof was written for a corrupted vanilla proof"

# A vanilla proof of another sector size against these parameters: refused, exit 2.
other_size=2KiB
[[ $SIZE == 2KiB ]] && other_size=8MiB
expect 0 "$CUZK" gen-vanilla porep --sector-size "$other_size" --out small.json --seed "$SEED"
expect 2 "$CUZK" prove --kind porep --vanilla small.json --params p.params --proof y.proof --public y.json --trusted-params
[[ ! -e y.proof ]] || fail "a proof was written against another circuit's parameters"
echo "porep_cli_test: ok"
