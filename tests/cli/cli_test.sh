#!/usr/bin/env bash
# End-to-end test of the `cuzk` command line: setup, prove, verify, decode-proof,
# info, export-snarkjs (checked by snarkjs itself), demo, and the exit codes
# 0 valid / 1 invalid / 2 bad input on tampered, truncated and missing files.
#   usage: cli_test.sh PATH_TO_CUZK SOURCE_DIR
set -euo pipefail

CUZK=$(realpath "$1")
SRC=$(realpath "$2")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$TMP"

source "$SRC/tests/cli/cli_lib.sh"
# flip IN OFFSET MASK OUT: OUT is IN with the byte at OFFSET xor-ed with MASK.
flip() {
  local in=$1 off=$2 mask=$3 out=$4 b
  cp "$in" "$out"
  b=$(od -An -tu1 -j"$off" -N1 "$in" | tr -d ' ')
  printf "$(printf '\\%03o' $((b ^ mask)))" | dd of="$out" bs=1 seek="$off" conv=notrunc status=none
}
hex_of() { od -An -v -tx1 "$1" | tr -d ' \n'; }
# first_input FILE: the first decimal string of a public-inputs JSON file.
first_input() { grep -o '"[0-9]*"' "$1" | head -n1 | tr -d '"'; }

step "usage and help"
for c in setup prove verify decode-proof export-snarkjs info circuits demo; do
  expect 0 "$CUZK" "$c" --help
  out_has "Usage"
done
expect 0 "$CUZK" --help
expect 2 "$CUZK"
expect 2 "$CUZK" no-such-command
expect 2 "$CUZK" setup --circuit tiny --params p  # --vk missing
expect 2 "$CUZK" setup --circuit tiny --size -5 --params p --vk v
expect 0 "$CUZK" circuits
out_has "tiny"
out_has "hash-chain"
out_has "porep"
expect 2 "$CUZK" setup --circuit no-such-circuit --params p --vk v
err_has "unknown circuit"
expect 2 "$CUZK" setup --circuit tiny --seed 1 --params /nonexistent/dir/p --vk v
err_has "error: /nonexistent/dir/p"

step "setup, prove, verify: tiny and hash-chain --size 2000"
expect 0 "$CUZK" setup --circuit tiny --seed 7 --params tiny.params --vk tiny.vk
err_has "development only"
expect 0 "$CUZK" prove --circuit tiny --params tiny.params --proof tiny.proof --public tiny.json
for s in synthesis prove_start finalize verify; do out_has "$s"; done
[[ $(stat -c %s tiny.proof) == 192 ]] || fail "proof is not 192 bytes"
[[ $(first_input tiny.json) == 35 ]] || fail "tiny y should be 3^3 + 3 + 5 = 35"
expect 0 "$CUZK" verify --vk tiny.vk --proof tiny.proof --public tiny.json
out_has "valid"
expect 0 "$CUZK" setup --circuit hash-chain --size 2000 --seed 7 --params hc.params --vk hc.vk
expect 0 "$CUZK" prove --circuit hash-chain --size 2000 --params hc.params --proof hc.proof --public hc.json
expect 0 "$CUZK" verify --vk hc.vk --proof hc.proof --public hc.json

step "the same seed gives the same parameters; no seed gives fresh ones"
expect 0 "$CUZK" setup --circuit tiny --seed 7 --params tiny2.params --vk tiny2.vk
cmp -s tiny.params tiny2.params || fail "seeded setup is not reproducible"
expect 0 "$CUZK" setup --circuit tiny --params tiny3.params --vk tiny3.vk
cmp -s tiny.params tiny3.params && fail "unseeded setup repeated the seeded parameters"
expect 1 "$CUZK" verify --vk tiny3.vk --proof tiny.proof --public tiny.json  # another key

step "prove --input"
echo '{"x": "5"}' >x5.json
expect 0 "$CUZK" prove --circuit tiny --params tiny.params --input x5.json --proof x5.proof --public x5.pub
[[ $(first_input x5.pub) == 135 ]] || fail "tiny y should be 5^3 + 5 + 5 = 135"
expect 0 "$CUZK" verify --vk tiny.vk --proof x5.proof --public x5.pub
expect 1 "$CUZK" verify --vk tiny.vk --proof x5.proof --public tiny.json  # proof for other inputs
echo '{"x0": "123456789012345678901234567890"}' >x0.json
expect 0 "$CUZK" prove --circuit hash-chain --size 2000 --params hc.params --input x0.json --proof hcx.proof \
  --public hcx.json
[[ $(first_input hcx.json) == 123456789012345678901234567890 ]] || fail "hash-chain x0 not the input"
expect 0 "$CUZK" verify --vk hc.vk --proof hcx.proof --public hcx.json
echo '{"x": "abc"}' >bad1.json
echo '{"y": "1"}' >bad2.json
echo '{"x": ' >bad3.json
for bad in bad1.json bad2.json bad3.json missing.json; do
  expect 2 "$CUZK" prove --circuit tiny --params tiny.params --input "$bad" --proof p --public q
done
err_has "missing.json"
[[ ! -e p ]] || fail "a failed prove wrote a proof"
expect 2 "$CUZK" prove --circuit tiny --params hc.params --proof p --public q
err_has "parameters do not match"
expect 0 "$CUZK" prove --circuit tiny --params tiny.params --proof nv.proof --public nv.json --no-verify
out_has "finalize"
expect 0 "$CUZK" verify --vk tiny.vk --proof nv.proof --public nv.json

step "verify: invalid proofs exit 1"
sed '0,/"35"/s//"36"/' tiny.json >tampered.json
cmp -s tiny.json tampered.json && fail "tampering did not change the public input"
expect 1 "$CUZK" verify --vk tiny.vk --proof tiny.proof --public tampered.json
out_has "invalid"
flip tiny.proof 48 0x20 negb.proof  # B's sort flag: decodes to -B, a valid point
expect 1 "$CUZK" verify --vk tiny.vk --proof negb.proof --public tiny.json
flip tiny.proof 0 0x20 nega.proof
expect 1 "$CUZK" verify --vk tiny.vk --proof nega.proof --public tiny.json

step "verify: bad input exits 2"
flip tiny.proof 100 0x01 flipb.proof  # a bit of B's x: off the curve or out of the subgroup
expect 2 "$CUZK" verify --vk tiny.vk --proof flipb.proof --public tiny.json
err_has "flipb.proof: proof element B: "
head -c 100 tiny.proof >short.proof
expect 2 "$CUZK" verify --vk tiny.vk --proof short.proof --public tiny.json
err_has "short.proof"
: >empty.proof
expect 2 "$CUZK" verify --vk tiny.vk --proof empty.proof --public tiny.json
expect 2 "$CUZK" verify --vk tiny.vk --proof missing.proof --public tiny.json
err_has "missing.proof"
expect 2 "$CUZK" verify --vk missing.vk --proof tiny.proof --public tiny.json
expect 2 "$CUZK" verify --vk tiny.vk --proof tiny.proof --public missing.json
expect 2 "$CUZK" verify --vk tiny.params --proof tiny.proof --public tiny.json  # a parameter file
head -c 500 tiny.vk >short.vk
expect 2 "$CUZK" verify --vk short.vk --proof tiny.proof --public tiny.json
err_has "short.vk"
flip tiny.vk 10 0x01 flip.vk
expect 2 "$CUZK" verify --vk flip.vk --proof tiny.proof --public tiny.json
echo '["35", "3"]' >two.json
expect 2 "$CUZK" verify --vk tiny.vk --proof tiny.proof --public two.json
err_has "expects 3"
expect 2 "$CUZK" verify --vk hc.vk --proof tiny.proof --public tiny.json
echo '["35", "3"' >malformed.json
expect 2 "$CUZK" verify --vk tiny.vk --proof tiny.proof --public malformed.json
echo '["35", "x", "1"]' >nonnumber.json
expect 2 "$CUZK" verify --vk tiny.vk --proof tiny.proof --public nonnumber.json

step "verify: proof as hex text"
hex_of tiny.proof >tiny.hex
expect 0 "$CUZK" verify --vk tiny.vk --proof tiny.hex --public tiny.json
{ printf '0x'; hex_of tiny.proof; echo; } >tiny0x.hex
expect 0 "$CUZK" verify --vk tiny.vk --proof tiny0x.hex --public tiny.json
{ hex_of tiny.proof; echo 'zz'; } >badhex.hex
expect 2 "$CUZK" verify --vk tiny.vk --proof badhex.hex --public tiny.json

step "decode-proof"
expect 0 "$CUZK" decode-proof tiny.proof
for s in "A (G1)" "B (G2)" "C (G1)" "x.c0" "x.c1" "y.c1" "compressed"; do out_has "$s"; done
[[ $(grep compressed out | awk '{print $2}' | tr -d '\n') == $(hex_of tiny.proof) ]] ||
  fail "decode-proof's compressed elements do not concatenate to the proof"
expect 0 "$CUZK" decode-proof "$(hex_of tiny.proof)"
expect 0 "$CUZK" decode-proof tiny.hex
expect 0 "$CUZK" decode-proof negb.proof
expect 2 "$CUZK" decode-proof flipb.proof
err_has "proof element B: "
out_has "invalid"
expect 2 "$CUZK" decode-proof short.proof
expect 2 "$CUZK" decode-proof not-a-file-nor-hex
expect 2 "$CUZK" decode-proof abcd

step "info"
expect 0 "$CUZK" info tiny.params
out_has "parameters"
out_has "public inputs: 3"
expect 0 "$CUZK" info tiny.vk
out_has "verifying key"
expect 0 "$CUZK" info hc.params
out_has "domain 2048"
out_has "public inputs: 2"
expect 0 "$CUZK" info --layout-only hc.params
out_has "domain 2048"
head -c $(($(stat -c %s hc.params) / 2)) hc.params >half.params
expect 2 "$CUZK" info half.params
err_has "half.params: truncated"
expect 2 "$CUZK" info --layout-only half.params
err_has "half.params: truncated"
# A point off the curve: found by the full read, not by the layout.
cp hc.params bent.params
last=$(tail -c 1 hc.params | od -An -tu1 | tr -d ' ')
printf "\\x$(printf %02x $((last ^ 1)))" | dd of=bent.params bs=1 seek=$(($(stat -c %s hc.params) - 1)) conv=notrunc status=none
expect 2 "$CUZK" info bent.params
err_has "b_g2["
expect 0 "$CUZK" info --layout-only bent.params
expect 2 "$CUZK" info missing.params
expect 2 "$CUZK" info .

step "demo"
expect 0 "$CUZK" demo --circuit tiny --cache-dir cache
for s in setup synthesis prove_start finalize verify "proof: "; do out_has "$s"; done
expect 0 "$CUZK" demo --circuit tiny --cache-dir cache
out_has "load"
cached=$(ls cache/*.params)
head -c 1000 "$cached" >cut && mv cut "$cached"
expect 0 "$CUZK" demo --circuit tiny --cache-dir cache
out_has "regenerating"
expect 0 "$CUZK" demo --circuit tiny --cache-dir cache
out_has "load"
expect 0 "$CUZK" demo --circuit hash-chain --size 600 --cache-dir cache
expect 2 "$CUZK" demo --circuit nope --cache-dir cache

step "export-snarkjs"
expect 0 "$CUZK" export-snarkjs --vk tiny.vk --proof tiny.proof --public tiny.json --out-dir sj_tiny
for f in verification_key.json proof.json public.json; do [[ -s sj_tiny/$f ]] || fail "missing $f"; done
expect 0 "$CUZK" export-snarkjs --vk hc.vk --proof hcx.proof --public hcx.json --out-dir sj_hc
expect 0 "$CUZK" export-snarkjs --vk tiny.vk --proof x5.proof --public x5.pub --out-dir sj_x5
expect 0 "$CUZK" export-snarkjs --vk tiny.vk --proof tiny.proof --public tampered.json --out-dir sj_tampered
expect 2 "$CUZK" export-snarkjs --vk tiny.vk --proof tiny.proof --public two.json --out-dir sj_bad
expect 2 "$CUZK" export-snarkjs --vk tiny.vk --proof flipb.proof --public tiny.json --out-dir sj_bad

if [[ ! -d $SRC/tests/js/node_modules/snarkjs ]]; then
  echo "SKIP: snarkjs verification (tests/js/node_modules absent; run: npm ci --prefix tests/js)"
else
  step "snarkjs verifies our exports"
  command -v node >/dev/null || fail "node is required when tests/js/node_modules exists"
  VERIFY=$SRC/tests/js/snarkjs_verify.mjs
  for d in sj_tiny sj_hc sj_x5; do
    expect 0 node "$VERIFY" "$d"
    out_has "snarkjs: valid"
  done
  expect 1 node "$VERIFY" sj_tampered
  out_has "snarkjs: invalid"
  cp -r sj_tiny sj_swapped && cp sj_x5/proof.json sj_swapped/proof.json
  expect 1 node "$VERIFY" sj_swapped
fi

step "params check: Filecoin's parameter files against parameters.json"
expect 0 "$CUZK" params check --help
expect 2 "$CUZK" params
expect 2 "$CUZK" params check "$TMP/no-such-dir"
err_has "does not exist"
mkdir fpp
expect 0 "$CUZK" params check fpp
out_has "0 present"
expect 0 "$CUZK" params check --all fpp
out_has "missing"
# The 2 KiB PoRep parameters' official name, from the listing; any other bytes under it are corrupt.
name=$(grep -o 'v28-stacked-proof-of-replication-[^ ]*-032d3138[0-9a-f]*\.params' out | head -n1)
[[ -n $name ]] || { cat out; fail "params check --all does not list the 2 KiB PoRep file"; }
cp tiny.params "fpp/$name"
cp tiny.params fpp/porep-2k.params  # not in the manifest: ignored
expect 2 "$CUZK" params check fpp
out_has "CORRUPT"
out_has "$name"
out_has "1 other file ignored"
err_has "fpp/$name"
err_has "digest mismatch"
FIL_PROOFS_PARAMETER_CACHE="$TMP/fpp" expect 2 "$CUZK" params check
err_has "$name"
FIL_PROOFS_PARAMETER_CACHE="$TMP/none" expect 2 "$CUZK" params check
err_has "$TMP/none does not exist"
expect 2 "$CUZK" setup --circuit tiny --official-names fpp2
err_has "only --circuit porep"
expect 2 "$CUZK" setup --circuit porep --size 4096 --official-names fpp2
err_has "no official parameters"
expect 2 "$CUZK" setup --circuit porep --official-names fpp2 --params x.params
err_has "replaces --params"

step "compat-check without official files: nothing to check, the missing files named (exit 2)"
mkdir -p nofiles
expect 2 "$CUZK" compat-check --params-dir nofiles
out_has "records 32GiB 1.1"
out_has "missing nofiles/v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-82a357d2"
err_has "nothing could be checked"
expect 2 "$CUZK" compat-check --params-dir "$TMP/no-such-dir"
err_has "not a directory"
expect 2 "$CUZK" compat-check --params-dir nofiles --prove-up-to 3KiB
err_has "--prove-up-to"

echo "cli_test: all passed"
