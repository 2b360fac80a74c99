# Shared helpers of the command-line test scripts (sourced, not run).
# Each script cds into its own temporary directory first.

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
# expect CODE CMD...: runs CMD with stdout in ./out and stderr in ./err, and
# fails the test unless it exits with CODE.
expect() {
  local want=$1 got=0
  shift
  "$@" >out 2>err || got=$?
  if [[ $got != "$want" ]]; then
    echo "--- stdout"; cat out; echo "--- stderr"; cat err
    fail "expected exit $want, got $got: $*"
  fi
}
out_has() { grep -qF -- "$1" out || { cat out; fail "stdout lacks '$1'"; }; }
err_has() { grep -qF -- "$1" err || { cat err; fail "stderr lacks '$1'"; }; }
step() { echo "== $*"; }
