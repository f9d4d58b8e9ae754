#!/bin/sh
# A stop signal ends a run at a window boundary with a checkpoint and a message, and the restarted run
# ends with the results of the run that was never stopped (PHOLD's checksum of every LP's history and
# its event count; a training or collective run's --json line less its wall-clock figures): SIGTERM to
# rackscale itself on 1 rank, SIGUSR1 and SIGTERM to mpirun on 2 ranks (mpirun forwards both to its
# ranks; after SIGTERM it exits with its own code, after SIGUSR1 with the ranks' 4).
#   signal_restart.sh MPIRUN RACKSCALE TRAINING_CONFIG COLLECTIVE_CONFIG WORK phold|models
set -u
mpirun=$1 rackscale=$2 training=$3 collective=$4 work=$5 cases=$6
rm -rf "$work" && mkdir -p "$work" || exit 1
# About 100 M events: about 5 s on 2 idle cores (20 M events/s), long enough to be stopped midway even
# there (with 20 M, the 2-rank run ended before mpirun had forwarded its SIGTERM on an idle machine).
phold="phold --lps 1024 --end 100000000 --json"
failures=0

results() { tail -n 1 "$1" | sed -e 's/.*"events":\([0-9]*\).*"checksum":"\([0-9a-f]*\)".*/\1 \2/'; }
# A run's --json line less what is wall-clock (as restart_equivalence.cmake compares it).
run_results() {
  tail -n 1 "$1" | python3 -c '
import json, sys
wall = ("engine", "setup_s", "wall_s", "run_s", "events_per_s", "process_s", "sync_s", "per_rank", "windows",
        "peak_memory_bytes")
doc = json.loads(sys.stdin.read())
for row in [doc] + doc.get("results", []):
    for key in wall:
        row.pop(key, None)
print(json.dumps(doc, sort_keys=True))'
}

# case NAME SIGNAL EXPECTED_EXIT LAUNCH...: starts the run with a progress line every 0.2 s, sends SIGNAL
# once the first line is out (every rank is then inside the run), checks the exit code and message,
# restarts and compares.
# What case_of runs (the arguments after the launcher) and how it compares the results; a run that
# shows no progress line within `delay` tenths of a second is signalled then.
args=$phold compare=results delay=600
case_of() {
  name=$1 signal=$2 expected=$3
  shift 3
  ck=$work/$name.ck
  # shellcheck disable=SC2086
  "$@" $args > "$work/$name.reference"
  # shellcheck disable=SC2086
  "$@" $args --checkpoint "$ck" --progress lines --progress-interval 0.2 >/dev/null 2>"$work/$name.err" &
  pid=$!
  waited=0
  until grep -q '^progress:' "$work/$name.err" 2>/dev/null || [ $waited -ge "$delay" ]; do
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
  "$@" $args --restart "$ck" > "$work/$name.restarted" || { echo "FAILED: $name: the restart failed" >&2; failures=$((failures + 1)); return; }
  if [ "$($compare "$work/$name.reference")" != "$($compare "$work/$name.restarted")" ]; then
    echo "FAILED: $name: restarted $($compare "$work/$name.restarted"), uninterrupted $($compare "$work/$name.reference")" >&2
    failures=$((failures + 1))
    return
  fi
  echo "ok: $name: $(grep stopped "$work/$name.err"); restarted: $($compare "$work/$name.restarted" | cut -c 1-120) as uninterrupted"
}

if [ "$cases" = phold ]; then
  case_of term-1-rank TERM 4 "$rackscale"
  case_of usr1-2-ranks USR1 4 "$mpirun" -np 2 "$rackscale"
  # mpirun's own exit code after a SIGTERM is not the ranks'; the message and the checkpoint are.
  case_of term-2-ranks TERM 1 "$mpirun" -np 2 "$rackscale"
else
  # Training (8 iterations of laptop-64: a few seconds) and a collective sweep (to 32 GiB, as messages: about
  # 4 s on 2 idle ranks, its largest sizes long enough to show a progress line every 0.2 s).
  args="run $training --set workload.iterations=8 --json" compare=run_results
  case_of training-term-1-rank TERM 4 "$rackscale"
  # Analytical iterations take about 25 ms on 2 idle ranks: with 8 the run ended before mpirun had
  # forwarded SIGUSR1; 200 take about 5 s.
  args="run $training --set workload.iterations=200 --set network.fidelity=analytical --json"
  case_of training-usr1-2-ranks USR1 4 "$mpirun" -np 2 "$rackscale"
  args="run $collective --set network.fidelity=chunk --set network.collectives=messages --set workload.max_bytes=32GiB --json"
  case_of collective-usr1-2-ranks USR1 4 "$mpirun" -np 2 "$rackscale"
fi

[ "$failures" -eq 0 ] || exit 1
rm -rf "$work"
