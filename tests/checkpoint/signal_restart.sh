#!/bin/sh
# A stop signal ends a run at a window boundary with a checkpoint and a message, and the restarted run
# ends with the results of the run that was never stopped (PHOLD's checksum of every LP's history and
# its event count): SIGTERM to rackscale itself on 1 rank, SIGUSR1 and SIGTERM to mpirun on 2 ranks
# (mpirun forwards both to its ranks; after SIGTERM it exits with its own code, after SIGUSR1 with
# the ranks' 4).
#   signal_restart.sh MPIRUN RACKSCALE WORK
set -u
mpirun=$1 rackscale=$2 work=$3
rm -rf "$work" && mkdir -p "$work" || exit 1
# About 100 M events: about 5 s on 2 idle cores (20 M events/s), long enough to be stopped midway even
# there (with 20 M, the 2-rank run ended before mpirun had forwarded its SIGTERM on an idle machine).
phold="phold --lps 1024 --end 100000000 --json"
failures=0

results() { tail -n 1 "$1" | sed -e 's/.*"events":\([0-9]*\).*"checksum":"\([0-9a-f]*\)".*/\1 \2/'; }

# case NAME SIGNAL EXPECTED_EXIT LAUNCH...: starts the run with a progress line every 0.2 s, sends SIGNAL
# once the first line is out (every rank is then inside the run), checks the exit code and message,
# restarts and compares.
case_of() {
  name=$1 signal=$2 expected=$3
  shift 3
  ck=$work/$name.ck
  # shellcheck disable=SC2086
  "$@" $phold > "$work/$name.reference"
  # shellcheck disable=SC2086
  "$@" $phold --checkpoint "$ck" --progress lines --progress-interval 0.2 >/dev/null 2>"$work/$name.err" &
  pid=$!
  waited=0
  until grep -q '^progress:' "$work/$name.err" 2>/dev/null || [ $waited -ge 600 ]; do
    sleep 0.1
    waited=$((waited + 1))
  done
  kill -"$signal" "$pid"
  wait "$pid"
  code=$?
  if [ "$code" -ne "$expected" ] || ! grep -Eq "stopped by SIG$signal \(signal [0-9]+\) after [0-9]+ windows?, at simulated time [^;]+; checkpoint written to $ck; continue with --restart $ck" "$work/$name.err"; then
    echo "FAILED: $name: exit $code (expected $expected), stderr:" >&2
    cat "$work/$name.err" >&2
    failures=$((failures + 1))
    return
  fi
  # shellcheck disable=SC2086
  "$@" $phold --restart "$ck" > "$work/$name.restarted" || { echo "FAILED: $name: the restart failed" >&2; failures=$((failures + 1)); return; }
  if [ "$(results "$work/$name.reference")" != "$(results "$work/$name.restarted")" ]; then
    echo "FAILED: $name: restarted $(results "$work/$name.restarted"), uninterrupted $(results "$work/$name.reference")" >&2
    failures=$((failures + 1))
    return
  fi
  echo "ok: $name: $(grep stopped "$work/$name.err"); restarted: events and checksum $(results "$work/$name.restarted") as uninterrupted"
}

case_of term-1-rank TERM 4 "$rackscale"
case_of usr1-2-ranks USR1 4 "$mpirun" -np 2 "$rackscale"
# mpirun's own exit code after a SIGTERM is not the ranks'; the message and the checkpoint are.
case_of term-2-ranks TERM 1 "$mpirun" -np 2 "$rackscale"

[ "$failures" -eq 0 ] || exit 1
rm -rf "$work"
