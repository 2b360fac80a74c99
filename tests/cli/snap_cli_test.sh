#!/usr/bin/env bash
# SnapDeals through the command line on a 2 KiB sector: gen-vanilla snap
# (bincode PartitionProof per partition, as Curio sends them, and
# inputs.json) -> check-vanilla -> setup -> prove -> verify, then the
# refusals: a corrupted sibling named by partition and challenge, a
# truncated blob, other commitments, a short commitment, an unknown
# registered proof; and circuit-info's counts (upstream's 1,705,039 rows).
#   usage: snap_cli_test.sh PATH_TO_CUZK
set -euo pipefail

CUZK=$(realpath "$1")
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$TMP"

source "$HERE/cli_lib.sh"

SEED=${CUZK_TEST_SEED:-7}
echo "snap_cli_test: 2 KiB, seed $SEED"
json() { node -e "const j=JSON.parse(require('fs').readFileSync('$1'));console.log($2)"; }

step "circuit-info: upstream's counts"
expect 0 "$CUZK" circuit-info --kind snap --sector-size 2KiB
out_has "constraints      1705044  (circuit rows 1705039 + 5 input rows)"
expect 0 "$CUZK" circuit-info --kind snap --sector-size 1KiB
out_has "circuit rows 1248389"
expect 2 "$CUZK" circuit-info --kind snap --sector-size 64KiB
err_has "is not a SnapDeals sector size"

step "gen-vanilla snap -> check-vanilla"
expect 0 "$CUZK" gen-vanilla snap --sector-size 2KiB --seed "$SEED" --out-dir s
out_has "snap StackedDrg2KiBV1 (0), 1 partition(s) x 10 challenges"
[[ $(json s/inputs.json j.registered_proof) == 0 ]] || fail "inputs.json registered_proof"
OLD=$(json s/inputs.json j.comm_r_old)
NEW=$(json s/inputs.json j.comm_r_new)
D=$(json s/inputs.json j.comm_d_new)
COMMS=(--registered 0 --comm-r-old "$OLD" --comm-r-new "$NEW" --comm-d-new "$D")
expect 0 "$CUZK" check-vanilla --kind snap "${COMMS[@]}" s/partition-0.vproof
out_has "valid StackedDrg2KiBV1 update: 1 partition(s) x 10 challenges"

step "a 32 GiB update (repeated-block model) -> check-vanilla"
expect 0 "$CUZK" gen-vanilla snap --sector-size 32GiB --seed "$SEED" --out-dir s32
out_has "snap StackedDrg32GiBV1 (3), 16 partition(s) x 86 challenges, h 10, repeated-blocks model"
[[ $(json s32/inputs.json j.model) == repeated-blocks ]] || fail "inputs.json model"
FILES32=()
for k in $(seq 0 15); do FILES32+=("s32/partition-$k.vproof"); done
expect 0 "$CUZK" check-vanilla --kind snap --registered 3 --comm-r-old "$(json s32/inputs.json j.comm_r_old)" \
  --comm-r-new "$(json s32/inputs.json j.comm_r_new)" --comm-d-new "$(json s32/inputs.json j.comm_d_new)" "${FILES32[@]}"
out_has "valid StackedDrg32GiBV1 update: 16 partition(s) x 86 challenges"
rm -rf s32

step "refusals"
# PartitionProof: comm_c, apex_leafs (u64 length + 8 x 32), challenge_proofs
# length u64, then challenge 0's proof_r_old: Single tag u32, root, leaf,
# path length u64, hashes length u64, hashes[0] (FILECOIN_FORMATS.md §4).
node -e '
  const fs = require("fs");
  const b = fs.readFileSync("s/partition-0.vproof");
  b[32 + 8 + 8 * 32 + 8 + 4 + 32 + 32 + 8 + 8] ^= 1;
  fs.writeFileSync("bad.vproof", b);'
expect 2 "$CUZK" check-vanilla --kind snap "${COMMS[@]}" bad.vproof
err_has "bad.vproof: vanilla_proofs[0]: challenge_proofs[0].proof_r_old"
err_has "(partition 0)"
head -c 5000 s/partition-0.vproof >trunc.vproof
expect 2 "$CUZK" check-vanilla --kind snap "${COMMS[@]}" trunc.vproof
err_has "trunc.vproof: vanilla_proofs[0]"
expect 2 "$CUZK" check-vanilla --kind snap --registered 0 --comm-r-old "$OLD" --comm-r-new "$OLD" --comm-d-new "$D" \
  s/partition-0.vproof
err_has "vanilla_proofs[0]"
expect 2 "$CUZK" check-vanilla --kind snap --registered 0 --comm-r-old "${OLD:0:62}" --comm-r-new "$NEW" \
  --comm-d-new "$D" s/partition-0.vproof
err_has "--comm-r-old: 31 bytes, expected 32"
expect 2 "$CUZK" check-vanilla --kind snap --registered 9 --comm-r-old "$OLD" --comm-r-new "$NEW" --comm-d-new "$D" \
  s/partition-0.vproof
err_has "9"
expect 2 "$CUZK" check-vanilla --kind snap "${COMMS[@]}" s/partition-0.vproof s/partition-0.vproof
err_has "vanilla_proofs: 2 partition proofs"

step "setup -> prove -> verify"
expect 0 "$CUZK" setup --circuit snap --size 2048 --seed 3 --backend cpu --params s.params --vk s.vk
expect 0 "$CUZK" prove --kind snap "${COMMS[@]}" --params s.params --proof s.proof --public s.json --trusted-params \
  s/partition-0.vproof
out_has "wrote s.proof"
[[ $(stat -c %s s.proof) == 192 ]] || fail "proof is not 192 bytes"
expect 0 "$CUZK" verify --vk s.vk --proof s.proof --public s.json
out_has "valid"
# The public inputs: k_and_h_select = 1 (k 0, h_select 2^0), then the commitments.
[[ $(json s.json j[0]) == 1 ]] || fail "k_and_h_select is not 1: $(cat s.json)"
[[ $(json s.json j.length) == 4 ]] || fail "not 4 public inputs: $(cat s.json)"
node -e '
  const fs = require("fs");
  const j = JSON.parse(fs.readFileSync("s.json"));
  j[3] = (BigInt(j[3]) + 1n).toString();
  fs.writeFileSync("other.json", JSON.stringify(j));'
expect 1 "$CUZK" verify --vk s.vk --proof s.proof --public other.json
expect 2 "$CUZK" prove --kind snap "${COMMS[@]}" --params s.params --proof x.proof --public x.json --trusted-params \
  bad.vproof
[[ ! -e x.proof ]] || fail "a proof was written for a refused input"

step "bench --kind snap --vanilla-dir: in process, the request Curio sends, with s.params"
expect 0 "$CUZK" bench --kind snap --vanilla-dir s --proofs 2 --concurrency 2 --backend cpu --params s.params \
  --trusted-params
out_has "completed 2 / 2, failed 0"
err_has "s: snap StackedDrg2KiBV1 (0): 1 partition(s)"
expect 2 "$CUZK" bench --kind snap --proofs 1
err_has "--vanilla-dir DIR"
echo "snap_cli_test: OK"
