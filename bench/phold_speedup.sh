#!/bin/sh
# The 2-rank speedup of PHOLD at 1,024 LPs (lookahead 100 ns, mean 900 ns, one start event per LP, to
# 20 ms of simulated time) measured so that drifts of the machine's speed fall on both sides alike:
# 1-rank and 2-rank runs alternate, REPEAT times each (default 9), and the speedup is the ratio of the
# median events/s. Prints every pair, then the medians, their ratio, and the range of the pairwise
# ratios.
#   sh bench/phold_speedup.sh [path/to/rackscale]     (REMOTE, SYNC, START_EVENTS, REPEAT to vary)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
rackscale=${1:-$here/../build/rackscale}
mpirun="$here/../scripts/mpirun.sh"
repeat=${REPEAT:-9}
remote=${REMOTE:-0.1}
sync=${SYNC:-auto}
start_events=${START_EVENTS:-1}

args="phold --lps 1024 --remote $remote --lookahead 100 --mean 900 --start-events $start_events --end 20000000
      --progress off --json"
i=0
while [ "$i" -lt "$repeat" ]; do
  # shellcheck disable=SC2086 # args is a word list on purpose
  one=$("$rackscale" $args | tail -n 1)
  # shellcheck disable=SC2086
  two=$("$mpirun" -np 2 "$rackscale" $args --sync "$sync" | tail -n 1)
  printf '%s\t%s\n' "$one" "$two"
  i=$((i + 1))
done | python3 -c '
import json, statistics, sys
pairs = [tuple(json.loads(part) for part in line.rstrip("\n").split("\t")) for line in sys.stdin if line.strip()]
print("%-4s %14s %14s %8s %12s" % ("run", "1 rank ev/s", "2 ranks ev/s", "ratio", "2r windows"))
for k, (a, b) in enumerate(pairs, 1):
    assert a["checksum"] == b["checksum"] and a["events"] == b["events"], "results differ between rank counts"
    print("%-4d %13.2fM %13.2fM %8.3f %12d" % (k, a["events_per_s"] / 1e6, b["events_per_s"] / 1e6,
          b["events_per_s"] / a["events_per_s"], b["windows"]))
one = statistics.median(a["events_per_s"] for a, _ in pairs)
two = statistics.median(b["events_per_s"] for _, b in pairs)
ratios = sorted(b["events_per_s"] / a["events_per_s"] for a, b in pairs)
print("median: 1 rank %.2f M events/s, 2 ranks %.2f M events/s (sync %s), speedup %.3f; pairwise %.3f-%.3f"
      % (one / 1e6, two / 1e6, pairs[0][1]["sync"], two / one, ratios[0], ratios[-1]))'
