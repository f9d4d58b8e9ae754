#!/bin/sh
# A 1 GiB all-reduce in closed form, ring and tree, on 4,096, 16,384 and 98,304 H100s on 2 ranks: event
# loop and process wall time of each (docs/performance.md, "Closed forms linear in the members"; the
# targets are under 5 s of process wall time at 16,384 and 98,304 devices). Then the ring run as
# messages on 4,096 devices with 2 channels (67 M messages; the target is under 30 s of process wall
# time on 2 ranks) and the engine's event rate in that run.
#   sh bench/collective_scale.sh [RACKSCALE]
set -eu
cd "$(dirname "$0")/.."
rackscale=${1:-build/rackscale}
config=configs/examples/nccl-allreduce-4096-h100.yaml
printf '%-8s %-5s %12s %14s\n' devices algo "event loop" "process wall"
for devices in 4096 16384 98304; do
  for algorithm in ring tree; do
    set -- --set workload.algorithm=$algorithm --set cluster.nodes=$((devices / 8)) --set workload.devices=$devices
    [ "$devices" -gt 65536 ] && set -- "$@" --set cluster.scale_out.switch=spectrum4-sn5600  # 3 tiers of 64 ports reach 65,536
    start=$(date +%s.%N)
    loop=$(scripts/mpirun.sh -np 2 "$rackscale" --progress off run $config "$@" | sed -n 's/.*simulated in \([0-9.]*\) s.*/\1/p')
    end=$(date +%s.%N)
    printf '%-8s %-5s %10s s %12.2f s\n' "$devices" "$algorithm" "$loop" "$(echo "$end - $start" | bc)"
  done
done
set -- --set workload.algorithm=ring --set network.collectives=messages --set workload.channels=2
start=$(date +%s.%N)
out=$(scripts/mpirun.sh -np 2 "$rackscale" --progress off run $config "$@")
end=$(date +%s.%N)
loop=$(printf '%s\n' "$out" | sed -n 's/.*simulated in \([0-9.]*\) s.*/\1/p')
events=$(printf '%s\n' "$out" | sed -n 's/^# 1073741824  *ring  *2  *1  *[0-9.]*  *\([0-9,]*\)$/\1/p' | tr -d ,)
printf '%-8s %-5s %10s s %12.2f s   ring as messages, 2 channels: %s events, %.2f M events/s in the event loop\n' \
  4096 ring "$loop" "$(echo "$end - $start" | bc)" "$events" "$(echo "$events / $loop / 1000000" | bc -l)"
