#!/bin/sh
# The run-level goodput model at the issue's target (docs/performance.md, "Goodput"): the 98,304-H100
# config over a 60-day ideal run with 1,000 replicas (and the 17 sweep intervals beside the configured
# one) on 1 and 2 ranks. Prints the whole command's wall time (config, topology for the bill of
# materials, the replicas, 1,000 TCO accountings), the engine's time and the interruptions simulated.
# The iteration time is given (ITERATION, default 6s: the model's cost does not depend on it beyond the
# intervals' rounding), not simulated.
#   sh bench/goodput.sh [path/to/rackscale]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
rackscale=${1:-$here/../build/rackscale}
mpirun="$here/../scripts/mpirun.sh"
config=$here/../configs/training/llama3-405b-98304-h100.yaml
iteration=${ITERATION:-6s}
replicas=${REPLICAS:-1000}

printf '%-6s %9s %10s %14s %10s %12s\n' ranks replicas wall_s engine_wall_s events goodput
for ranks in 1 2; do
  start=$(python3 -c 'import time; print(time.time())')
  line=$("$mpirun" -np "$ranks" "$rackscale" goodput "$config" --iteration-time "$iteration" --days 60 \
           --replicas "$replicas" --progress off --json | tail -n 1)
  end=$(python3 -c 'import time; print(time.time())')
  printf '%s\n' "$line" | python3 -c '
import json, sys
j = json.loads(sys.stdin.read())
print("%-6s %9d %10.2f %14.3f %10d %12.4f" % (sys.argv[1], j["replicas"], float(sys.argv[3]) - float(sys.argv[2]),
      j["wall_s"], j["events"], j["goodput"]["mean"]))' "$ranks" "$start" "$end"
done
