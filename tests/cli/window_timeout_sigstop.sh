#!/bin/sh
# The window watchdog against a rank stopped from outside, as a hung node or a debugger would: rank 1 of
# a 2-rank PHOLD run gets SIGSTOP; rank 0 must report, within the timeout and some slack, that it waits
# for rank 1, and abort the job with exit 5 (docs/reliability.md, "Watchdog").
#   window_timeout_sigstop.sh TIMED_MPIRUN RACKSCALE WORK_DIR
set -u
mpirun=$1 rackscale=$2 work=$3
timeout_s=4 slack_s=40
rm -rf "$work" && mkdir -p "$work"

RACKSCALE_TEST_MPI_TIMEOUT=120 "$mpirun" -np 2 "$rackscale" phold --end 1e12 --progress off \
  --window-timeout ${timeout_s}s >"$work/stdout" 2>"$work/stderr" &
job=$!

# Every process under `pid`, depth first.
descendants() {
  for child in $(ps -o pid= --ppid "$1"); do
    echo "$child"
    descendants "$child"
  done
}
# Rank 1: the rackscale process under the job whose environment names it.
rank1=""
tries=0
while [ -z "$rank1" ] && [ $tries -lt 300 ]; do
  for pid in $(descendants $job); do
    if [ "$(cat /proc/$pid/comm 2>/dev/null)" = rackscale ] &&
       tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx OMPI_COMM_WORLD_RANK=1; then
      rank1=$pid
    fi
  done
  [ -z "$rank1" ] && sleep 0.1
  tries=$((tries + 1))
done
if [ -z "$rank1" ]; then
  echo "no rank 1 found under job $job" >&2
  kill $job 2>/dev/null
  exit 1
fi
sleep 2  # the engine's windows are under way
kill -STOP "$rank1"
stopped_at=$(date +%s)
wait $job
code=$?
took=$(($(date +%s) - stopped_at))
kill -KILL "$rank1" 2>/dev/null  # if the abort left it behind

fail() {
  echo "$1 (exit $code after ${took} s)" >&2
  echo "stderr:" >&2
  cat "$work/stderr" >&2
  exit 1
}
[ "$code" -eq 5 ] || fail "expected exit 5 from the watchdog"
grep -q "rackscale: window timeout: rank 0 has waited more than ${timeout_s} s (--window-timeout) at the exchange of window [0-9]* ([a-z_]*) for rank 1, which may be stopped" "$work/stderr" ||
  fail "expected rank 0 to name rank 1"
[ "$took" -le $((timeout_s + slack_s)) ] || fail "the abort came more than $((timeout_s + slack_s)) s after SIGSTOP"
echo "exit 5, ${took} s after SIGSTOP of rank 1 (pid $rank1)"
rm -rf "$work"
