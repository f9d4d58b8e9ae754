#!/bin/sh
# Runs every benchmark in bench/ and prints their figures (see docs/performance.md).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
echo "== event queues: hold model =="
"$here/../build/bench/bench_event_queue" --benchmark_min_time=0.5
echo
echo "== PHOLD =="
sh "$here/phold.sh"
echo
echo "== PHOLD, 2-rank speedup (alternating runs) =="
sh "$here/phold_speedup.sh"
echo
echo "== one window's exchange, per synchronizer (2 ranks) =="
"$here/../scripts/mpirun.sh" -np 2 "$here/../build/bench/bench_window_exchange"
echo
echo "== a 1 GiB all-reduce in closed form at 4,096-98,304 devices (2 ranks) =="
sh "$here/collective_scale.sh"
echo
echo "== trace replay against the generator, llama3-70b-1024-h100 (1 and 2 ranks) =="
sh "$here/trace_replay_speed.sh"
echo
echo "== one replica for all: the 405B search's best layout on 16,384 H100s (2 ranks) =="
sh "$here/one_replica.sh"
