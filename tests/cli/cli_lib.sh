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

# start_daemon BUDGET: a daemon on unix socket $TMP/cuzk.sock (SOCK) whose
# param_cache is $TMP/fpp (our own setup's files under their official
# names, so without the per-point checks), logging to daemon.log; DAEMON_PID
# is its pid, killed with $TMP removed on exit. stop_daemon ends it and
# fails unless it exits cleanly.
start_daemon() {
  SOCK="$TMP/cuzk.sock"
  cat > cuzk.toml <<TOML
[daemon]
listen = "unix://$SOCK"
[memory]
total_budget = "$1"
[srs]
param_cache = "$TMP/fpp"
subgroup_checks = false
TOML
  "$CUZK" daemon --config cuzk.toml 2>daemon.log &
  DAEMON_PID=$!
  trap 'kill "$DAEMON_PID" 2>/dev/null || true; rm -rf "$TMP"' EXIT
  for _ in $(seq 100); do [[ -S "$SOCK" ]] && break; sleep 0.1; done
  [[ -S "$SOCK" ]] || { cat daemon.log; fail "daemon did not create $SOCK"; }
}
stop_daemon() {
  kill -TERM "$DAEMON_PID"
  wait "$DAEMON_PID" || fail "the daemon did not exit cleanly: $(tail -5 daemon.log)"
  trap 'rm -rf "$TMP"' EXIT
}
