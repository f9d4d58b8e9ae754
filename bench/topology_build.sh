#!/bin/sh
# Issue 21's target: a 98,304-device topology builds in under 1 s. Runs bench_topology (the largest
# clusters, sized by the fat-tree builder) and checks the 98,304-H100 build time; then times
# `rackscale validate --bom` on the 98,304-device example config (load, build, cabling and bill of
# materials). Exit 1 when the build takes 1 s or more.
#   sh bench/topology_build.sh [build directory]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
out=$("$build/bench/bench_topology")
printf '%s\n' "$out"
seconds=$(printf '%s\n' "$out" | awk '/^98,304 H100/ { found = 1 } found && /build [0-9.]+ s/ {
  for (i = 1; i <= NF; ++i) if ($i == "build") { print $(i + 1); exit } }')
/usr/bin/time -f "validate --bom configs/clusters/h100-98304-fat-tree.yaml: %e s wall, %M KiB peak RSS" \
  "$build/rackscale" validate "$here/../configs/clusters/h100-98304-fat-tree.yaml" --bom >/dev/null
echo "98,304-device build: $seconds s (target < 1 s)"
awk -v s="$seconds" 'BEGIN { exit !(s < 1) }'
