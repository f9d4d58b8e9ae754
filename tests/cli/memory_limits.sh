#!/bin/sh
# A run whose estimated memory does not fit the node's limit is refused before anything is built
# (docs/reliability.md, "Memory"): exit 3, a message with the estimate, the limit, where the limit
# comes from and how to fit; nothing written, an existing results file untouched. The limit from
# --max-memory, SLURM_MEM_PER_NODE, SLURM_MEM_PER_CPU x SLURM_CPUS_ON_NODE and a cgroup's memory.max
# (a fake one through RACKSCALE_CGROUP_MEMORY_FILE); a run that fits runs. Bad sizes are exit 2.
#   memory_limits.sh TIMED_MPIRUN RACKSCALE CONFIG_DIR WORK_DIR RANKS
set -u
mpirun=$1 rackscale=$2 configs=$3 work=$4 ranks=$5
rm -rf "$work" && mkdir -p "$work"
big=$configs/clusters/h100-98304-fat-tree.yaml   # about 230-380 MiB per rank
small=$configs/examples/fat-tree-128.yaml          # about 27 MiB
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# run NAME EXPECTED_CODE [env assignments] -- rackscale arguments
run() {
  name=$1 expected=$2; shift 2
  assignments=""
  while [ "$1" != "--" ]; do assignments="$assignments $1"; shift; done
  shift
  env $assignments "$mpirun" -np "$ranks" "$rackscale" "$@" >"$work/$name.out" 2>"$work/$name.err"
  code=$?
  [ $code -eq "$expected" ] || fail "$name: exit $code, expected $expected; stderr: $(cat "$work/$name.err")"
}
expect_err() {  # NAME REGEX
  grep -Eq -e "$2" "$work/$1.err" || fail "$1: stderr does not match '$2': $(cat "$work/$1.err")"
}

# The results file a refused run must leave alone, and the directory it must not add to.
printf 'earlier results\n' >"$work/results.h5"
before=$(ls "$work" | sort)

run max_memory 3 -- run "$big" --max-memory 100M --output "$work/results.h5" --force --progress off
expect_err max_memory "^rackscale run: the run needs an estimated [0-9.]+ MiB per rank on $ranks ranks? \(.* of 98,304 devices on the largest\), [0-9.]+ MiB for the [0-9]+ ranks? on the node of rank [0-9]+, more than the 100 MiB allowed by --max-memory; nothing was built\. To fit: .*network\.fidelity: analytical \([0-9.]+ MiB per rank"
[ -s "$work/max_memory.out" ] && fail "max_memory: printed on stdout: $(cat "$work/max_memory.out")"
[ "$(cat "$work/results.h5")" = "earlier results" ] || fail "max_memory: the results file was overwritten"

run slurm_per_node 3 SLURM_MEM_PER_NODE=100 -- run "$big" --output "$work/results.h5" --force --progress off
expect_err slurm_per_node "more than the 100 MiB allowed by SLURM_MEM_PER_NODE=100 \(MiB\); nothing was built"
run slurm_per_cpu 3 SLURM_MEM_PER_CPU=50 SLURM_CPUS_ON_NODE=2 -- run "$big" --progress off
expect_err slurm_per_cpu "more than the 100 MiB allowed by SLURM_MEM_PER_CPU=50 \(MiB\) x SLURM_CPUS_ON_NODE=2"

printf '104857600\n' >"$work/memory.max"
run cgroup 3 RACKSCALE_CGROUP_MEMORY_FILE="$work/memory.max" -- run "$big" --output "$work/results.h5" --force --progress off
expect_err cgroup "more than the 100 MiB allowed by the cgroup limit in $work/memory.max; nothing was built"
# The smallest limit applies and is the one named.
run smallest 3 SLURM_MEM_PER_NODE=200 RACKSCALE_CGROUP_MEMORY_FILE="$work/memory.max" -- run "$big" --max-memory 150M --progress off
expect_err smallest "allowed by the cgroup limit in"

[ "$(cat "$work/results.h5")" = "earlier results" ] || fail "the results file was overwritten"
[ "$(ls "$work" | grep -v -e '\.out$' -e '\.err$' -e '^memory\.max$' | sort)" = "$before" ] ||
  fail "a refused run left files: $(ls "$work")"

# No limit ("max"), or one that fits: the run runs.
printf 'max\n' >"$work/memory.max"
run unlimited_cgroup 0 RACKSCALE_CGROUP_MEMORY_FILE="$work/memory.max" -- run "$small" --progress off
run fits 0 SLURM_MEM_PER_NODE=4000 -- run "$small" --max-memory 4G --progress off

# Bad sizes: exit 2 naming the option, nothing run.
for bad in 4X 0 -1 4.5G; do
  run "bad_$bad" 2 -- run "$small" --max-memory "$bad"
  expect_err "bad_$bad" "--max-memory: expected a memory size such as 4G, 512M .*found '$bad'"
done

[ $failures -eq 0 ] || exit 1
echo "all memory limit checks passed on $ranks rank(s)"
