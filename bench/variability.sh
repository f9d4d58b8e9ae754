#!/bin/sh
# Variability inside an iteration on the 16,384-H100 Llama 3 405B config (docs/performance.md,
# "Variability inside an iteration"; docs/goodput.md). Three runs of one iteration each on RANKS ranks
# (default 2), in the config's analytical fidelity, each timing one engine (perfect_baseline: false):
#   perfect    the config as it is;
#   straggler  lognormal speed factors (sigma 0.02) and exponential kernel jitter (mean 5 us): issue 26's
#              target is this run's wall time within 1.2x of the perfect one's;
#   slow_1pct  1 % of the nodes (20 of 2,048: every 102nd node, all 8 of its GPUs) at factor 1.1.
# Prints each run's event-loop wall time, events, iteration, and the whole run's days and cost (the
# config's 15.6 T-token budget at that iteration), then the ratios to the perfect run.
#   sh bench/variability.sh [path/to/rackscale]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
rackscale=${1:-$here/../build/rackscale}
mpirun="$here/../scripts/mpirun.sh"
config=$here/../configs/training/llama3-405b-16384-h100.yaml
ranks=${RANKS:-2}
straggler='workload.variability={compute: {distribution: lognormal, sigma: 0.02}, jitter: {distribution: exponential, mean: 5us}, perfect_baseline: false}'
slow=$(python3 -c '
devices = [node * 8 + gpu for node in range(0, 2048, 102)[:20] for gpu in range(8)]
print("workload.variability={compute: {slow: [" + ", ".join("{device: %d, factor: 1.1}" % d for d in devices) +
      "]}, perfect_baseline: false}")')

run() {
  "$mpirun" -np "$ranks" "$rackscale" run "$config" --progress off --json "$@" | tail -n 1
}
perfect=$(run)
with_stragglers=$(run --set "$straggler")
slow_nodes=$(run --set "$slow")
python3 - "$perfect" "$with_stragglers" "$slow_nodes" <<'PY'
import json, sys
runs = [("perfect", json.loads(sys.argv[1])), ("straggler", json.loads(sys.argv[2])), ("slow_1pct", json.loads(sys.argv[3]))]
p = runs[0][1]
print("%-10s %10s %12s %14s %9s %10s %14s %10s %10s" % ("run", "engine_s", "events", "iteration_s", "slowdown",
      "days", "cost_usd", "wall_x", "events_x"))
for name, j in runs:
    whole = j["tco"]["whole_run"]
    print("%-10s %10.2f %12d %14.6f %9.4f %10.2f %14.0f %10.3f %10.4f" % (
        name, j["engine"]["wall_s"], j["engine"]["events"], j["iteration_time_ps"] / 1e12,
        j["iteration_time_ps"] / p["iteration_time_ps"], whole["time_s"] / 86400, whole["cost_usd"],
        j["engine"]["wall_s"] / p["engine"]["wall_s"], j["engine"]["events"] / p["engine"]["events"]))
    v = j.get("variability")
    if v:
        print("           last device %d (factor %.4f), slowest compute %d, factors %.4f..%.4f" % (
            v["last_device"], v["last_device_factor"], v["slowest_compute_device"], v["speed_factor_min"],
            v["speed_factor_max"]))
PY
