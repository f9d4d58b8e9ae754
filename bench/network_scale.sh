#!/bin/sh
# The network scale targets of docs/performance.md: building the 98,304-device fat tree and the
# 100,008-device NVL72 cluster (time and peak memory per rank, from `rackscale validate` on one rank and
# the setup phase of a 2-rank run), and permutation traffic of 1 MiB per device in chunk and
# analytical mode on 2 ranks (wall time, events/s, windows, peak memory).
#   sh bench/network_scale.sh [path/to/rackscale]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
rackscale=${1:-$here/../build/rackscale}
mpirun="$here/../scripts/mpirun.sh"

for config in "$here/../configs/clusters/h100-98304-fat-tree.yaml" "$here/../configs/clusters/gb200-nvl72-100k.yaml"; do
  name=$(basename "$config" .yaml)
  /usr/bin/time -f "$name validate (1 rank): %e s wall, %M KiB peak RSS" "$rackscale" validate "$config" >/dev/null
  for fidelity in chunk analytical; do
    "$mpirun" -np 2 "$rackscale" run "$config" --set network.fidelity=$fidelity --json | tail -n 1 |
      python3 -c '
import json, sys
j = json.load(sys.stdin)
e = j["engine"]
rss = max(r["peak_memory_bytes"] for r in e["per_rank"]) / 2**20
print("%s %s on 2 ranks: setup %.2f s, event loop %.2f s, %d events (%.2f M events/s), %d windows, "
      "%d cross-rank events, lookahead %s ps, makespan %.1f us, peak RSS per rank %.0f MiB"
      % (sys.argv[1], sys.argv[2], j["setup_s"], e["wall_s"], e["events"], e["events_per_s"] / 1e6, e["windows"],
         e["remote_events"], e["lookahead_ps"], j["makespan_ps"] / 1e6, rss))' "$name" "$fidelity"
  done
done
