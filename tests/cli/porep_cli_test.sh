#!/usr/bin/env bash
# PoRep through the command line on an 8 MiB sector (issue 4, "gen-vanilla ->
# prove -> verify on the CPU, in CI"): real replication of random data,
# check-vanilla, setup, prove with the compiled synthesis path, verify, and
# the refusals: a corrupted label, a vanilla proof of another sector size, a
# proof against the wrong public inputs.
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

expect 0 "$CUZK" gen-vanilla porep --sector-size "$SIZE" --out v.json --seed "$SEED"
expect 0 "$CUZK" check-vanilla v.json
out_has "valid"

# One hex digit of the first opening of challenge 0 changed (a label in a
# replicated model, a Tree D path element in a sparse one): refused, the element named.
sed '0,/"0x0/s//"0x1/' v.json >bad.json
cmp -s v.json bad.json && fail "the corruption did not change the file"
expect 2 "$CUZK" check-vanilla bad.json
err_has "partitions[0].challenges[0]."

case $SIZE in
  2KiB) n=2048 ;;
  8MiB) n=8388608 ;;
  512MiB) n=536870912 ;;
  *) fail "no setup size for $SIZE" ;;
esac
expect 0 "$CUZK" setup --circuit porep --size "$n" --seed 1 --backend cpu --params p.params --vk p.vk
# Our own setup's output: its integrity is known, so the subgroup check may go.
expect 0 "$CUZK" prove --kind porep --vanilla v.json --params p.params --proof p.proof --public p.json --trusted-params
out_has "compile circuit"
out_has "wrote p.proof"
expect 0 "$CUZK" verify --vk p.vk --proof p.proof --public p.json
out_has "valid"

# The same proof against another sector's public inputs: invalid (exit 1).
expect 0 "$CUZK" gen-vanilla porep --sector-size "$SIZE" --out other.json --seed "$((SEED + 1))"
expect 0 "$CUZK" prove --kind porep --vanilla other.json --params p.params --proof o.proof --public o.json --trusted-params
expect 1 "$CUZK" verify --vk p.vk --proof p.proof --public o.json

# A corrupted vanilla proof is refused before any proving.
expect 2 "$CUZK" prove --kind porep --vanilla bad.json --params p.params --proof x.proof --public x.json --trusted-params
err_has "partitions[0].challenges[0]."
[[ ! -e x.proof ]] || fail "a proof was written for a corrupted vanilla proof"

# A vanilla proof of another sector size against these parameters: refused, exit 2.
other_size=2KiB
[[ $SIZE == 2KiB ]] && other_size=8MiB
expect 0 "$CUZK" gen-vanilla porep --sector-size "$other_size" --out small.json --seed "$SEED"
expect 2 "$CUZK" prove --kind porep --vanilla small.json --params p.params --proof y.proof --public y.json --trusted-params
[[ ! -e y.proof ]] || fail "a proof was written against another circuit's parameters"
echo "porep_cli_test: ok"
