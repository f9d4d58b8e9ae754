#!/bin/sh
# PHOLD events/s on the configurations docs/performance.md records (lookahead 100 ns, mean 900 ns,
# one start event per LP, as ROSS's PHOLD defaults). Each case runs REPEAT times (default 3) and the
# median events/s is printed with its run's events, windows and cross-rank events.
#   sh bench/phold.sh [path/to/rackscale]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
rackscale=${1:-$here/../build/rackscale}
mpirun="$here/../scripts/mpirun.sh"
repeat=${REPEAT:-3}
start_events=${START_EVENTS:-1}

printf '%-6s %-7s %-7s %-16s %12s %9s %12s %10s %11s\n' ranks lps remote queue events wall_s events/s windows remote_ev
run_case() {  # ranks lps remote end_ns queue
  results=""
  i=0
  while [ "$i" -lt "$repeat" ]; do
    line=$("$mpirun" -np "$1" "$rackscale" phold --lps "$2" --remote "$3" --lookahead 100 --mean 900 \
             --start-events "$start_events" --end "$4" --queue "$5" --progress off --json | tail -n 1)
    results="$results$line
"
    i=$((i + 1))
  done
  printf '%s' "$results" | python3 -c '
import json, sys
runs = sorted((json.loads(l) for l in sys.stdin if l.strip()), key=lambda j: j["events_per_s"])
j = runs[len(runs) // 2]
p = j["parameters"]
print("%-6d %-7d %-7s %-16s %12d %9.3f %12s %10d %11d" % (j["ranks"], p["lps"], p["remote"], j["queue"],
      j["events"], j["wall_s"], "%.2fM" % (j["events_per_s"] / 1e6), j["windows"], j["remote_events"]))'
}

for queue in ${QUEUES:-ladder quaternary_heap binary_heap}; do
  run_case 1 1024 0.1 20000000 "$queue"
  run_case 1 65536 0.1 500000 "$queue"
  run_case 2 1024 0.1 20000000 "$queue"
  run_case 2 1024 0.5 20000000 "$queue"
done
