#!/bin/sh
# Two builds of rackscale on the same PHOLD case, runs alternating so that drifts of the machine's
# speed fall on both alike: prints each pair's event-loop wall times, then the medians and their ratio.
# Stops if the two builds give different checksums or event counts.
#   sh bench/phold_compare.sh OLD/rackscale NEW/rackscale      (RANKS, REMOTE, SYNC, REPEAT to vary)
# Defaults: 2 ranks, remote 0.1, 1,024 LPs, lookahead 100 ns, mean 900 ns, to 20 ms, 9 pairs.
set -eu
if [ $# -ne 2 ]; then
  echo "usage: sh bench/phold_compare.sh OLD/rackscale NEW/rackscale" >&2
  exit 2
fi
for build in "$1" "$2"; do
  if [ ! -x "$build" ]; then
    echo "phold_compare.sh: '$build' is not an executable rackscale" >&2
    exit 2
  fi
done
here=$(cd "$(dirname "$0")" && pwd)
mpirun="$here/../scripts/mpirun.sh"
ranks=${RANKS:-2}
repeat=${REPEAT:-9}
remote=${REMOTE:-0.1}
sync=${SYNC:-auto}

args="phold --lps 1024 --remote $remote --lookahead 100 --mean 900 --start-events 1 --end 20000000
      --progress off --json --sync $sync"
i=0
while [ "$i" -lt "$repeat" ]; do
  # shellcheck disable=SC2086 # args is a word list on purpose
  old=$("$mpirun" -np "$ranks" "$1" $args | tail -n 1)
  # shellcheck disable=SC2086
  new=$("$mpirun" -np "$ranks" "$2" $args | tail -n 1)
  printf '%s\t%s\n' "$old" "$new"
  i=$((i + 1))
done | python3 -c '
import json, statistics, sys
pairs = [tuple(json.loads(part) for part in line.rstrip("\n").split("\t")) for line in sys.stdin if line.strip()]
print("%-4s %10s %10s %8s" % ("run", "old s", "new s", "new/old"))
for k, (a, b) in enumerate(pairs, 1):
    assert a["checksum"] == b["checksum"] and a["events"] == b["events"], "the two builds give different results"
    print("%-4d %10.4f %10.4f %8.3f" % (k, a["wall_s"], b["wall_s"], b["wall_s"] / a["wall_s"]))
old = statistics.median(a["wall_s"] for a, _ in pairs)
new = statistics.median(b["wall_s"] for _, b in pairs)
print("median wall time: old %.4f s, new %.4f s, new/old %.3f (%d ranks, sync %s)"
      % (old, new, new / old, pairs[0][0]["ranks"], pairs[0][0]["sync"]))'
