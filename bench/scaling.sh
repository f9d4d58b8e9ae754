#!/bin/sh
# Strong and weak scaling of rackscale itself (docs/scaling.md). Runs one scenario at several rank
# counts and prints, per rank count: event-loop wall time, speedup and parallel efficiency over the
# smallest rank count, events/s in all and per rank, windows, the per-window synchronization cost and
# the fraction of events that crossed ranks. Each run's --json line is kept in OUT (default
# bench-results/scaling-<config>-<mode>) for bench/project_scaling.py.
#
#   sh bench/scaling.sh strong CONFIG "1 2 4 8" [rackscale run options...]
#   sh bench/scaling.sh weak   CONFIG "1 2 4 8" [rackscale run options...]
#
# weak: the scenario grows with the rank count P: cluster.nodes = P x (the config's nodes) and
# workload.parallel.global_batch = P x (the config's batch), so each data-parallel replica keeps its
# micro-batches and every rank keeps the same share of devices (configs/training/laptop-64.yaml is
# the intended family). Ranks beyond the machine's cores are oversubscribed: the table marks them.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
usage() {
  echo "usage: sh bench/scaling.sh strong|weak CONFIG \"RANKS...\" [rackscale run options...]" >&2
  exit 2
}
[ $# -ge 3 ] || usage
mode=$1
config=$2
ranks=$3
shift 3
case $mode in strong | weak) ;; *) usage ;; esac
[ -f "$config" ] || { echo "bench/scaling.sh: $config: no such config file" >&2; exit 2; }
rackscale=${RACKSCALE:-$here/../build/rackscale}
mpirun="$here/../scripts/mpirun.sh"
cores=$(nproc)
name=$(basename "$config" .yaml)
out=${OUT:-bench-results/scaling-$name-$mode}
mkdir -p "$out"

# The config's own node count and global batch, for weak scaling.
resolved=$("$rackscale" validate "$config" --resolved)
base_nodes=$(printf '%s\n' "$resolved" | awk '/^cluster:/ {c=1; next} /^[^ ]/ {c=0} c && /^  nodes:/ {print $2; exit}')
base_batch=$(printf '%s\n' "$resolved" | awk '/^    global_batch:/ {print $2; exit}')

for p in $ranks; do
  if [ "$mode" = weak ]; then
    "$mpirun" -np "$p" "$rackscale" run "$config" --progress off --json --set "cluster.nodes=$((base_nodes * p))" \
      --set "workload.parallel.global_batch=$((base_batch * p))" "$@" | tail -n 1 >"$out/ranks-$p.json"
  else
    "$mpirun" -np "$p" "$rackscale" run "$config" --progress off --json "$@" | tail -n 1 >"$out/ranks-$p.json"
  fi
done

/usr/bin/python3 - "$out" "$mode" "$cores" $ranks <<'EOF'
import json, sys
out, mode, cores, ranks = sys.argv[1], sys.argv[2], int(sys.argv[3]), [int(r) for r in sys.argv[4:]]
runs = {p: json.load(open(f"{out}/ranks-{p}.json")) for p in ranks}
base = ranks[0]
t0 = runs[base]["engine"]["wall_s"]
print(f"{mode} scaling, {runs[base]['scenario']}; event loop only; results in {out}/")
print("%-6s %-8s %10s %8s %10s %12s %14s %10s %14s %12s" % ("ranks", "", "devices", "wall s", "speedup",
      "efficiency", "events/s", "per rank", "windows", "sync/window"), "cross-rank")
for p in ranks:
    e = runs[p]["engine"]
    wall = e["wall_s"]
    # Per-window synchronization cost: the least-waiting rank's sync time per window (the slowest rank
    # waits for nobody, so its sync time is the exchange itself).
    sync = min(r["sync_s"] for r in e["per_rank"]) / e["windows"] if e["windows"] > 1 else 0.0
    speed = t0 / wall * (p / base if mode == "weak" else 1.0)
    ideal = p / base
    print("%-6d %-8s %10d %8.2f %10.2f %12.2f %14s %10s %14d %10.1f us" % (
        p, "oversub" if p > cores else "", runs[p]["devices"], wall, speed, speed / ideal,
        "%.2fM" % (e["events_per_s"] / 1e6), "%.2fM" % (e["events_per_s"] / p / 1e6), e["windows"], sync * 1e6),
        "%.2f%%" % (100.0 * e["remote_events"] / max(1, e["events"])))
EOF
