#!/bin/sh
# One replica for all (docs/models.md; docs/performance.md, "One replica for all") on the Llama 3 405B
# search's best layout on 16,384 H100s (TP 4, PP 16 with 8 virtual stages, CP 4, DP 64; analytical
# fidelity): the iteration simulated with every replica and with replica 0 standing for all, on RANKS
# ranks (default 2). Prints each run's event-loop wall time, events, windows and iteration, the wall and
# event ratios, and whether the two JSON reports agree field by field (timings, engine counters and the
# partition aside). With SEARCH=1 it also times the whole 405B search with 16 finalists (issue 25's
# target: under 10 minutes on 2 ranks).
#   sh bench/one_replica.sh [path/to/rackscale]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
rackscale=${1:-$here/../build/rackscale}
mpirun="$here/../scripts/mpirun.sh"
config=$here/../configs/training/llama3-405b-16384-h100.yaml
ranks=${RANKS:-2}
layout="--set workload.parallel.tensor=4 --set workload.parallel.virtual_stages=8 --set workload.parallel.context=4 --set network.fidelity=analytical"

run() {
  # shellcheck disable=SC2086
  "$mpirun" -np "$ranks" "$rackscale" run "$config" $layout --progress off --json "$@" | tail -n 1
}
all=$(run)
one=$(run --set workload.simulated_replicas=one)
python3 - "$all" "$one" <<'PY'
import json, sys
def strip(o):
    if isinstance(o, dict):
        return {k: strip(v) for k, v in o.items() if k not in ("engine", "partition") and not k.endswith("_s")}
    if isinstance(o, list):
        return [strip(x) for x in o]
    return o
a, o = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print("%-9s %10s %12s %9s %20s" % ("replicas", "engine_s", "events", "windows", "iteration_ps"))
for name, j in (("all", a), ("one", o)):
    e = j["engine"]
    print("%-9s %10.2f %12d %9d %20d" % (name, e["wall_s"], e["events"], e["windows"], j["iteration_time_ps"]))
print("wall all/one %.2f, events all/one %.1f, reports %s" % (
    a["engine"]["wall_s"] / o["engine"]["wall_s"], a["engine"]["events"] / o["engine"]["events"],
    "identical" if strip(a) == strip(o) else "DIFFERENT"))
PY
if [ "${SEARCH:-0}" = 1 ]; then
  start=$(date +%s)
  "$mpirun" -np "$ranks" "$rackscale" search "$config" --top 16 --simulate 16 --quiet --json | tail -n 1 |
    python3 -c 'import json, sys; d = json.load(sys.stdin); s = d["seconds"]
print("search: %d finalists simulated, Spearman %.3f, pruning %.2f s, estimating %.1f s, simulating %.1f s" %
      (d["simulated"], d["spearman"], s["prune"], s["estimate"], s["simulate"]))'
  echo "search: $(( $(date +%s) - start )) s of wall time"
fi
