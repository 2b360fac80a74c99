#!/usr/bin/env bash
# End-to-end test of the daemon-facing commands: daemon (config, socket,
# SIGTERM drain; TCP with an allow list and the HTTP status listener),
# status, metrics, bench through the daemon and in-process, plot; and exit
# code 2 for malformed configurations and requests.
#   usage: daemon_cli_test.sh PATH_TO_CUZK SOURCE_DIR
set -euo pipefail

CUZK=$(realpath "$1")
SRC=$(realpath "$2")
TMP=$(mktemp -d)
DAEMON_PID=""
cleanup() {
  if [[ -n "$DAEMON_PID" ]]; then kill "$DAEMON_PID" 2>/dev/null || true; fi
  rm -rf "$TMP"
}
trap cleanup EXIT
cd "$TMP"

source "$SRC/tests/cli/cli_lib.sh"

step "help and malformed configurations"
for c in daemon status metrics bench plot; do
  expect 0 "$CUZK" "$c" --help
  out_has "Usage"
done
printf '[memory]\ntotal_budget = "12 GB?"\n' > bad.toml
expect 2 "$CUZK" daemon --config bad.toml
err_has "memory.total_budget"
printf '[daemon]\nlisten = "localhost:99"\n' > bad2.toml
expect 2 "$CUZK" daemon --config bad2.toml
err_has "numeric"
expect 2 "$CUZK" daemon --config /nonexistent.toml
expect 2 "$CUZK" daemon --log-level loud
expect 2 "$CUZK" daemon --listen unix://relative.sock

step "status without a daemon"
expect 3 "$CUZK" status --daemon "unix://$TMP/nobody.sock"
err_has "cannot reach"

step "daemon with parameters from cuzk setup"
mkdir params
expect 0 "$CUZK" setup --circuit tiny --seed 7 --params params/tiny.params --vk params/tiny.vk
SOCK="$TMP/run/cuzk.sock"
cat > cuzk.toml <<TOML
[daemon]
listen = "unix://$SOCK"
[memory]
total_budget = "2GiB"
[synthesis]
threads = 2
[srs]
param_cache = "$TMP/params"
preload = ["tiny"]
[scheduler]
max_batch_size = 2
TOML
"$CUZK" daemon --config cuzk.toml --log-level debug 2>daemon.log &
DAEMON_PID=$!
for _ in $(seq 100); do [[ -S "$SOCK" ]] && break; sleep 0.1; done
[[ -S "$SOCK" ]] || { cat daemon.log; fail "daemon did not create $SOCK"; }
grep -qF "scheduler.max_batch_size has no effect" daemon.log || { cat daemon.log; fail "no warning for an ineffective key"; }

expect 0 "$CUZK" status --daemon "unix://$SOCK"
out_has "0 completed"
out_has "parameters tiny"

step "bench through the daemon, with a timeline and a plot"
expect 0 "$CUZK" bench --daemon "unix://$SOCK" --kind tiny --proofs 6 --concurrency 3 --partitions 2 --timeline-out tl.json
out_has "completed 6 / 6"
out_has "s/proof"
out_has "peak RSS"
expect 0 "$CUZK" plot --timeline tl.json --out tl.svg
head -c 200 tl.svg | grep -qF "<svg" || fail "tl.svg is not an SVG"
expect 2 "$CUZK" plot --timeline cuzk.toml --out x.svg
expect 2 "$CUZK" bench --daemon "unix://$SOCK" --kind hash-chain --size 1024 --proofs 1
err_has "hash-chain-1024"
expect 2 "$CUZK" bench --kind porep --proofs 1
err_has "--vanilla"
# PoRep through the daemon: a good 2 KiB vanilla proof reaches the engine,
# which names the parameters it lacks (no setup here: that takes minutes).
expect 0 "$CUZK" gen-vanilla porep --sector-size 2KiB --out v2k.json
expect 2 "$CUZK" bench --daemon "unix://$SOCK" --kind porep --vanilla v2k.json --proofs 1
err_has "porep-2k"

expect 0 "$CUZK" metrics --daemon "unix://$SOCK"
out_has "cuzk_proofs_completed_total 6"

step "SIGTERM drains and exits 0, removing the socket"
kill -TERM "$DAEMON_PID"
code=0
wait "$DAEMON_PID" || code=$?
DAEMON_PID=""
[[ $code == 0 ]] || { cat daemon.log; fail "daemon exited $code after SIGTERM"; }
[[ ! -e "$SOCK" ]] || fail "socket left behind"
grep -qF "draining" daemon.log || fail "no drain in the log"

step "TCP daemon: allow list, HTTP status listener"
printf '[daemon]\nallow = ["10.0.0.0/33"]\n' > bad3.toml
expect 2 "$CUZK" daemon --config bad3.toml
err_has "daemon.allow"
printf '[daemon]\nstatus_listen = "unix:///tmp/x.sock"\n' > bad4.toml
expect 2 "$CUZK" daemon --config bad4.toml
err_has "daemon.status_listen"
cat > tcp.toml <<TOML
[daemon]
listen = "127.0.0.1:0"
allow = ["127.0.0.1/32"]
status_listen = "127.0.0.1:0"
[memory]
total_budget = "1GiB"
[srs]
param_cache = "$TMP/params"
TOML
"$CUZK" daemon --config tcp.toml 2>tcp.log &
DAEMON_PID=$!
for _ in $(seq 100); do grep -qF "status listener on" tcp.log && break; sleep 0.1; done
GRPC_ADDR=$(grep -o "listening on 127\.0\.0\.1:[0-9]*" tcp.log | head -1 | awk '{print $3}')
HTTP_ADDR=$(grep -o "status listener on http://[0-9.]*:[0-9]*" tcp.log | sed 's|.*http://||')
[[ -n "$GRPC_ADDR" && -n "$HTTP_ADDR" ]] || { cat tcp.log; fail "no TCP or status address in the log"; }
expect 0 "$CUZK" status --daemon "$GRPC_ADDR"
out_has "0 completed"
http_get() {
  exec 3<>"/dev/tcp/${HTTP_ADDR%:*}/${HTTP_ADDR##*:}"
  printf 'GET %s HTTP/1.0\r\nHost: t\r\n\r\n' "$1" >&3
  cat <&3
  exec 3>&-
}
http_get /status | grep -qF '"uptime_secs"' || fail "GET /status has no uptime_secs"
http_get /metrics | grep -qF "cuzk_proofs_completed_total 0" || fail "GET /metrics has no completed counter"
http_get /other | head -1 | grep -qF " 404" || fail "GET /other is not 404"
kill -TERM "$DAEMON_PID"
code=0
wait "$DAEMON_PID" || code=$?
DAEMON_PID=""
[[ $code == 0 ]] || { cat tcp.log; fail "TCP daemon exited $code after SIGTERM"; }

step "bench in-process, pipelined vs sequential"
expect 0 "$CUZK" bench --kind tiny --proofs 4 --concurrency 2 --compare --quiet --budget 1GiB
out_has "pipelined run"
out_has "sequential run"
out_has "pipelined"

echo "daemon CLI tests passed"
