#!/bin/sh
# Trace replay speed against the built-in generator (issue 24's target: within 1.5x), on the round-trip
# case of docs/traces.md: llama3-70b-1024-h100 with global_batch 128, one iteration, analytical fidelity.
# The job is exported once by role (4 traces and a rank map) and, unless BY_DEVICE=0, once per device
# (1,024 traces, about 230 MB); then, for 1 and 2 ranks, the generator and each replay run REPEAT times
# (default 3) in alternation, so that all see the same machine load. Printed per case: the median
# process wall time, user+system CPU time (every rank's), setup and engine wall time and the events, then
# the replay/generator ratios of the medians. Both sides must handle the same events; the script says
# so when they do not.
#   sh bench/trace_replay_speed.sh [path/to/rackscale]      (RANKS="1 2" REPEAT=3 BY_DEVICE=1 KEEP=DIR)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
rackscale=${1:-$here/../build/rackscale}
mpirun="$here/../scripts/mpirun.sh"
config="$here/../configs/training/llama3-70b-1024-h100.yaml"
repeat=${REPEAT:-3}
ranks_list=${RANKS:-1 2}
by_device=${BY_DEVICE:-1}
sets="--set network.fidelity=analytical --set workload.parallel.global_batch=128 --set workload.iterations=1"

dir=${KEEP:-$(mktemp -d)}
mkdir -p "$dir"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$dir"' EXIT

# The replay's config: the training config's cluster (everything before its workload) and a trace workload.
trace_config() {  # files [rank_map]
  sed '/^workload:/,$d' "$config"
  printf 'network:\n  fidelity: analytical\nworkload:\n  type: trace\n  format: chakra\n  files: %s\n' "$1"
  [ $# -lt 2 ] || printf '  rank_map: %s\n' "$2"
}
# shellcheck disable=SC2086
"$rackscale" export-trace "$config" --format chakra -o "$dir/roles" --by-role $sets > /dev/null
trace_config "$dir/roles/llama3-70b-1024-h100.role.%d.et" "$dir/roles/llama3-70b-1024-h100.ranks" > "$dir/roles.yaml"
sides="generator roles"
if [ "$by_device" = 1 ]; then
  # shellcheck disable=SC2086
  "$rackscale" export-trace "$config" --format chakra -o "$dir/devices" $sets > /dev/null
  trace_config "$dir/devices/llama3-70b-1024-h100.%d.et" > "$dir/devices.yaml"
  sides="$sides devices"
fi

# One run: a JSON line with the run's own figures and the process's wall and CPU time.
run_one() {  # side ranks
  case $1 in
    generator) set -- "$2" "$config" $sets ;;
    *) set -- "$2" "$dir/$1.yaml" ;;
  esac
  ranks=$1
  shift
  /usr/bin/time -f '%e %U %S' -o "$dir/time" "$mpirun" -np "$ranks" "$rackscale" run "$@" --json --progress off \
    > "$dir/out"
  tail -n 1 "$dir/out" | python3 -c '
import json, sys
j = json.loads(sys.stdin.read())
wall, user, system = (float(x) for x in open(sys.argv[1]).read().split()[-3:])
print(json.dumps({"wall_s": wall, "cpu_s": user + system, "setup_s": j["setup_s"], "run_s": j["engine"]["wall_s"],
                  "events": j["engine"]["events"]}))' "$dir/time"
}

for ranks in $ranks_list; do
  : > "$dir/runs"
  i=0
  while [ "$i" -lt "$repeat" ]; do
    for side in $sides; do printf '%s %s\n' "$side" "$(run_one "$side" "$ranks")" >> "$dir/runs"; done
    i=$((i + 1))
  done
  python3 - "$ranks" "$dir/runs" <<'EOF'
import json, statistics, sys
ranks, path = sys.argv[1], sys.argv[2]
runs = {}
for line in open(path):
    side, text = line.split(" ", 1)
    runs.setdefault(side, []).append(json.loads(text))
keys = ["wall_s", "cpu_s", "setup_s", "run_s"]
median = {side: {k: statistics.median(r[k] for r in rs) for k in keys} for side, rs in runs.items()}
events = {side: sorted({r["events"] for r in rs}) for side, rs in runs.items()}
print(f"ranks {ranks}, {len(runs['generator'])} runs each, medians (s):")
print(f"  {'side':<10} {'wall':>8} {'cpu':>8} {'setup':>8} {'engine':>8} events")
for side, m in median.items():
    print(f"  {side:<10} {m['wall_s']:8.2f} {m['cpu_s']:8.2f} {m['setup_s']:8.2f} {m['run_s']:8.2f} "
          f"{','.join(f'{e:,}' for e in events[side])}")
for side in median:
    if side == "generator":
        continue
    g, r = median["generator"], median[side]
    print(f"  ratio {side}/generator: wall {r['wall_s'] / g['wall_s']:.2f}x, cpu {r['cpu_s'] / g['cpu_s']:.2f}x, "
          f"engine {r['run_s'] / g['run_s']:.2f}x, setup+engine "
          f"{(r['setup_s'] + r['run_s']) / (g['setup_s'] + g['run_s']):.2f}x")
    if events[side] != events["generator"]:
        print(f"  WARNING: {side} handled {events[side]} events, the generator {events['generator']}")
EOF
done
